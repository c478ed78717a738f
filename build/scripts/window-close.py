#!/usr/bin/env python3
"""Asks a window to close the way a window manager does.

The ✕ of a title bar, Alt+F4 and a taskbar's Close all reach the program
as the same X message: a ClientMessage WM_PROTOCOLS carrying
WM_DELETE_WINDOW (ICCCM 4.2.8.1), which GTK turns into the window's
delete-event (Wails: OnBeforeClose). Xvfb runs no window manager, so
wmctrl -c has nobody to ask; this sends the message itself, through
libX11 (no Python package needed), to every window named NAME.

    window-close.py NAME
Exit 0: sent to at least one window; 1: no window has that name.
"""
import ctypes
import subprocess
import sys

CLIENT_MESSAGE = 33  # X.h ClientMessage


class XClientMessageEvent(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("window", ctypes.c_ulong),
        ("message_type", ctypes.c_ulong),
        ("format", ctypes.c_int),
        ("data", ctypes.c_long * 5),
    ]


class XEvent(ctypes.Union):
    _fields_ = [("xclient", XClientMessageEvent), ("pad", ctypes.c_long * 24)]


def main():
    name = sys.argv[1]
    found = subprocess.run(["xdotool", "search", "--name", "^" + name + "$"], capture_output=True, text=True).stdout.split()
    if not found:
        return 1
    x = ctypes.cdll.LoadLibrary("libX11.so.6")
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XInternAtom.restype = ctypes.c_ulong
    x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(XEvent)]
    x.XFlush.argtypes = [ctypes.c_void_p]
    x.XCloseDisplay.argtypes = [ctypes.c_void_p]
    dpy = x.XOpenDisplay(None)
    if not dpy:
        sys.exit("window-close: cannot open the display")
    protocols = x.XInternAtom(dpy, b"WM_PROTOCOLS", 0)
    delete = x.XInternAtom(dpy, b"WM_DELETE_WINDOW", 0)
    for wid in found:
        ev = XEvent()
        ev.xclient.type = CLIENT_MESSAGE
        ev.xclient.window = int(wid)
        ev.xclient.message_type = protocols
        ev.xclient.format = 32
        ev.xclient.data[0] = delete
        ev.xclient.data[1] = 0  # CurrentTime
        x.XSendEvent(dpy, int(wid), 0, 0, ctypes.byref(ev))
    x.XFlush(dpy)
    x.XCloseDisplay(dpy)
    return 0


if __name__ == "__main__":
    sys.exit(main())
