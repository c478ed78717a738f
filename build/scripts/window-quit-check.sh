#!/usr/bin/env bash
# Quit check of the real window: starts the production build under Xvfb
# with one pane running `sleep 300` (busy: a program other than the shell
# runs in it, backend/panestate/busy.go) and asks the window to close the
# ways a person does:
# - Ctrl+Q typed into the window (xdotool through the X server);
# - the window manager's close (the ✕, Alt+F4, a taskbar's Close): the
#   WM_DELETE_WINDOW message a window manager sends, here sent by
#   window-close.py since Xvfb runs none;
# neither may quit: the app and the pane's program keep running and the
# window shows the question naming the pane (screenshot
# build/window-quit.png, for a person to look at). "Quit anyway" (Tab from
# the focused Cancel, then Return) quits and leaves no process behind.
# Then, started again with the same busy pane, SIGTERM quits without asking
# and leaves no process behind.
#   window-quit-check.sh BIN
set -euo pipefail
bin="$(realpath "$1")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/build/window-quit.png"
for tool in xdotool python3 xvfb-run import; do
  command -v "$tool" >/dev/null || { echo "window-quit-check: FAIL — $tool is missing (make deps-test installs it)"; exit 1; }
done
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
mkdir -p "$home/shop-api"
OSFOUNDRY_HOME="$home" "$bin" panes seed --count 1 --dir "$home/shop-api" --command "sleep 300" >/dev/null
export OSFOUNDRY_HOME="$home" WEBKIT_DISABLE_DMABUF_RENDERER=1

. "$(dirname "${BASH_SOURCE[0]}")/left-running.sh"

xvfb-run -a -e "$home/xvfb.log" -s "-screen 0 1280x820x24" dbus-run-session -- bash -c "$(declare -f left_running)"'
  set -u
  bin="$1"; here="$2"; out="$3"
  fail() { echo "window-quit-check: FAIL — $*"; kill -KILL $pid 2>/dev/null; exit 1; }

  # sleeping MARKER prints the pid of the pane`s sleep 300 started by the app.
  sleeping() {
    local f p
    for f in $(grep -lsz "OSF_CHECK_MARKER=$1" /proc/[0-9]*/environ 2>/dev/null || true); do
      p=${f#/proc/}; p=${p%/environ}
      [ "$(tr "\0" " " 2>/dev/null </proc/$p/cmdline)" = "sleep 300 " ] && { echo $p; return; }
    done
  }

  # start runs the app and waits until its window is drawn and the pane`s
  # sleep runs (the pane counts as busy a second after it started).
  start() {
    marker="osf-quit-check-$RANDOM$RANDOM"
    OSF_CHECK_MARKER="$marker" "$bin" >>"$OSFOUNDRY_HOME/app.log" 2>&1 &
    pid=$!
    sleeper=""
    for i in $(seq 1 300); do
      kill -0 $pid 2>/dev/null || { cat "$OSFOUNDRY_HOME/app.log"; fail "the app exited at start"; }
      colors=$(import -silent -window root png:- 2>/dev/null | identify -format "%k" - 2>/dev/null || echo 0)
      sleeper=$(sleeping "$marker")
      [ "${colors:-0}" -gt 16 ] && [ -n "$sleeper" ] && break
      sleep 0.1
    done
    [ -n "$sleeper" ] || fail "the pane running sleep 300 was not restored"
    sleep 3 # a person looks at the window before quitting; the pane is judged busy after 1 s
  }

  # still_open fails unless, 3 s after a close request, the app and the
  # pane`s program still run.
  still_open() {
    sleep 3
    kill -0 $pid 2>/dev/null || fail "$1 quit the app while sleep 300 ran in a pane, without asking"
    [ -n "$(sleeping "$marker")" ] || fail "$1 ended the pane'"'"'s sleep 300"
  }

  start
  xdotool mousemove 800 400 click 1
  sleep 0.5
  xdotool key ctrl+q
  still_open "Ctrl+Q"
  import -silent -window root "$out"
  # Cancel (focused) closes the question; the window manager'"'"'s close asks again.
  xdotool key Escape
  sleep 1
  python3 "$here/window-close.py" osFoundry || fail "no osFoundry window to close"
  still_open "the window manager'"'"'s close"
  # Quit anyway: Tab from Cancel, Return.
  xdotool key Tab
  sleep 0.3
  xdotool key Return
  for i in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
  kill -0 $pid 2>/dev/null && fail "Quit anyway did not quit within 10 s"
  wait $pid 2>/dev/null || true
  sleep 0.5
  left_running "$marker" || fail "Quit anyway left the processes above running"
  echo "window-quit-check: OK — Ctrl+Q and the window manager'"'"'s close asked instead of quitting (screenshot $out); Quit anyway quit and left nothing running"

  start
  kill -TERM $pid
  for i in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
  kill -0 $pid 2>/dev/null && fail "SIGTERM with a busy pane did not quit within 10 s (did it ask?)"
  wait $pid 2>/dev/null || true
  sleep 0.5
  left_running "$marker" || fail "SIGTERM left the processes above running"
  echo "window-quit-check: OK — SIGTERM with a busy pane quit without asking and left nothing running"
' _ "$bin" "$here" "$out"
