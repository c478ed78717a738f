// Command firstframe waits for a window's first painted frame on an X
// display: it reads the root window through MIT-SHM every few milliseconds
// and stops when the screen shows more than 16 colours (text drawn), where
// a blank window is one colour. It prints the milliseconds since --since
// (a Unix time in nanoseconds, taken just before the program under test
// was started), so the bench's figures are exact to the poll interval
// instead of a screenshot program's start-up.
//
//	firstframe --since NS [--pid PID] [--timeout 15s] [--every 5ms]
//
// Exit 1 when the process --pid ends first or the timeout passes.
package main

/*
#cgo LDFLAGS: -lX11 -lXext
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>

typedef struct {
	Display *dpy;
	XImage *img;
	XShmSegmentInfo shm;
} grab;

static grab *grab_open(void) {
	grab *g = calloc(1, sizeof *g);
	g->dpy = XOpenDisplay(NULL);
	if (!g->dpy || !XShmQueryExtension(g->dpy)) return NULL;
	int s = DefaultScreen(g->dpy);
	g->img = XShmCreateImage(g->dpy, DefaultVisual(g->dpy, s), DefaultDepth(g->dpy, s), ZPixmap, NULL, &g->shm,
		DisplayWidth(g->dpy, s), DisplayHeight(g->dpy, s));
	if (!g->img) return NULL;
	g->shm.shmid = shmget(IPC_PRIVATE, g->img->bytes_per_line * g->img->height, IPC_CREAT | 0600);
	if (g->shm.shmid < 0) return NULL;
	g->shm.shmaddr = g->img->data = shmat(g->shm.shmid, 0, 0);
	g->shm.readOnly = False;
	if (!XShmAttach(g->dpy, &g->shm)) return NULL;
	XSync(g->dpy, False);
	shmctl(g->shm.shmid, IPC_RMID, 0); // freed when both ends detach
	return g;
}

// grab_colours reads the screen and counts its distinct colours, up to max.
static int grab_colours(grab *g, int max) {
	if (!XShmGetImage(g->dpy, DefaultRootWindow(g->dpy), g->img, 0, 0, AllPlanes)) return -1;
	unsigned long seen[64];
	int n = 0;
	for (int y = 0; y < g->img->height; y++) {
		for (int x = 0; x < g->img->width; x++) {
			unsigned long p = XGetPixel(g->img, x, y);
			int i = 0;
			while (i < n && seen[i] != p) i++;
			if (i == n) {
				seen[n++] = p;
				if (n >= max || n >= 64) return n;
			}
		}
	}
	return n;
}
*/
import "C"

import (
	"flag"
	"fmt"
	"os"
	"syscall"
	"time"
)

func main() {
	since := flag.Int64("since", 0, "Unix time in nanoseconds the program under test was started at")
	pid := flag.Int("pid", 0, "stop when this process ends")
	timeout := flag.Duration("timeout", 15*time.Second, "give up after this long")
	every := flag.Duration("every", 5*time.Millisecond, "poll interval")
	flag.Parse()
	if *since == 0 {
		fmt.Fprintf(os.Stderr, "firstframe: --since is required: the Unix time in nanoseconds (%s) taken just before starting the program\n", "date +%s%N")
		os.Exit(2)
	}
	start := time.Unix(0, *since)
	var g *C.grab
	for g == nil { // the display may still be coming up
		if g = C.grab_open(); g == nil {
			if time.Since(start) > *timeout {
				fmt.Fprintf(os.Stderr, "firstframe: cannot read display %q through MIT-SHM\n", os.Getenv("DISPLAY"))
				os.Exit(1)
			}
			time.Sleep(*every)
		}
	}
	for time.Since(start) < *timeout {
		if n := C.grab_colours(g, 17); n > 16 {
			fmt.Println(time.Since(start).Milliseconds())
			return
		}
		if *pid > 0 && syscall.Kill(*pid, 0) != nil {
			fmt.Fprintf(os.Stderr, "firstframe: process %d ended before its first frame\n", *pid)
			os.Exit(1)
		}
		time.Sleep(*every)
	}
	fmt.Fprintf(os.Stderr, "firstframe: no frame with more than 16 colours within %s\n", *timeout)
	os.Exit(1)
}
