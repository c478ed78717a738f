#!/usr/bin/env bash
# Real-window check: starts the production build under Xvfb with N panes
# to restore (default 4) in a new data folder, quits it once they run and
# starts it again; waits for each start's first painted frame, saves
# build/window.png and fails when the window stays blank (a uniform colour)
# or when SIGTERM leaves any pane process behind. Prints exec→first-paint
# time of both starts and the second start's memory.
#   window-check.sh BIN [--panes N] [--reference]
# --reference: BIN is the bare Wails window the start-up bench times beside
# the app; only its first frame, screenshot and memory are checked.
set -euo pipefail
bin="$(realpath "$1")"
shift
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$root/build/window.png"
# The bare reference window of the start-up bench keeps its own screenshot.
[ "$(basename "$bin")" = osfoundry-desktop ] || out="$root/build/window-$(basename "$bin").png"
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
panes=4
reference=no
while [ $# -gt 0 ]; do
  case "$1" in
    --panes) panes="$2"; shift 2 ;;
    --reference) reference=yes; shift ;;
    *) echo "usage: window-check.sh BIN [--panes N] [--reference]" >&2; exit 2 ;;
  esac
done
if [ "$panes" -gt 0 ]; then
  OSFOUNDRY_HOME="$home" "$bin" panes seed --count "$panes" --dir "$home" >/dev/null
fi

export OSFOUNDRY_HOME="$home" WEBKIT_DISABLE_DMABUF_RENDERER=1

. "$(dirname "${BASH_SOURCE[0]}")/left-running.sh"

# With no display, and with one GTK cannot open, the app says what to do,
# exits 1 and ends the panes it restored.
[ "$reference" = yes ] || for display in "" ":9999"; do
  marker="osf-window-check-$RANDOM$RANDOM"
  want="there is no display to open the window on"
  [ -n "$display" ] && want="the window could not open on display \"$display\""
  code=0
  env -u WAYLAND_DISPLAY DISPLAY="$display" OSF_CHECK_MARKER="$marker" timeout 60 "$bin" </dev/null >"$home/display.log" 2>&1 || code=$?
  if [ "$code" != 1 ] || ! grep -qF "$want" "$home/display.log"; then
    echo "window-check: FAIL — with DISPLAY=\"$display\" the app exited $code without saying \"$want\":"; cat "$home/display.log"; exit 1
  fi
  sleep 0.5
  left_running "$marker" || { echo "window-check: FAIL — the app left pane processes running (above) when the display could not open"; exit 1; }
done
[ "$reference" = yes ] || echo "window-check: OK — with no display and with a display that cannot open, the app says so, exits 1 and leaves no pane running"

# The first frame is read off the display through MIT-SHM every 5 ms
# (backend/testkit/cmd/firstframe): a screenshot program polled instead
# took ~150 ms a try, which added up to that much to every figure.
(cd "$root" && go build -o build/bin/firstframe ./backend/testkit/cmd/firstframe)

# Xvfb's own messages go to xvfb.log, shown when the app cannot start.
xvfb-run -a -e "$home/xvfb.log" -s "-screen 0 1280x820x24" dbus-run-session -- bash -c "$(declare -f left_running)"'
  set -u
  bin="$1"; out="$2"; reference="$3"; npanes="$4"; firstframe="$5"
  # /proc/PID/environ of each pane process a run marked MARKER started.
  pane_environs() { grep -lsz "OSF_CHECK_MARKER=$1" /proc/[0-9]*/environ 2>/dev/null | xargs -r grep -lsz "^OSF_PANE_ID=" 2>/dev/null; }
  # wait_panes MARKER: the saved panes come back after the first frame (and
  # after the login shell was read), counted by the pane id in their
  # environment.
  wait_panes() {
    for i in $(seq 1 300); do
      n=$(pane_environs "$1" | wc -l)
      [ "$n" -ge "$npanes" ] && return 0
      sleep 0.1
    done
    echo "window-check: FAIL — $n of $npanes saved panes were running 30 s after the first frame"; return 1
  }
  # wait_idle MARKER: each pane'"'"'s shell has run its start-up files (here
  # pyenv, which starts programs of its own) and sleeps at its prompt with
  # no program below it, twice in a row half a second apart; sets quiet.
  # Memory is of idle panes, and the first start quits only then: a shell
  # killed amid its start-up files can leave a lock behind (pyenv'"'"'s rehash)
  # that the next start'"'"'s shells wait out.
  wait_idle() {
    quiet=0
    for i in $(seq 1 60); do
      busy=0
      for f in $(pane_environs "$1"); do
        p=${f#/proc/}; p=${p%/environ}
        [ "$(awk "{print \$3}" /proc/$p/stat 2>/dev/null)" = S ] || busy=1
        [ -z "$(pgrep -P $p)" ] || busy=1
      done
      if [ $busy = 0 ]; then quiet=$((quiet + 1)); [ $quiet -ge 2 ] && return 0; else quiet=0; fi
      sleep 0.5
    done
  }
  # start LOG: starts the app, sets pid and painted (ms from exec to the
  # first frame with text on it, or empty when there was none in 15 s).
  start() {
    local t0; t0=$(date +%s%N)
    OSF_CHECK_MARKER="$marker" "$bin" >"$OSFOUNDRY_HOME/$1" 2>&1 &
    pid=$!
    painted=$("$firstframe" --since "$t0" --pid $pid) || painted=""
    if ! kill -0 $pid 2>/dev/null; then
      echo "window-check: the app exited early on DISPLAY=$DISPLAY:"; cat "$OSFOUNDRY_HOME/$1"
      echo "window-check: Xvfb said:"; cat "$OSFOUNDRY_HOME/xvfb.log"; exit 1
    fi
  }
  # First start: a new data folder (the app creates its tables) holding the
  # saved panes; it quits once they run, as a person closing the window
  # does. The start checked and measured below is the next one, like every
  # later start of a person'"'"'s app.
  marker="osf-window-check-$RANDOM$RANDOM"
  start first.log
  first="$painted"
  if [ -n "$first" ] && [ "$npanes" -gt 0 ]; then wait_panes "$marker" || { kill -TERM $pid; exit 1; }; wait_idle "$marker" || true; fi
  kill -TERM $pid; wait $pid 2>/dev/null || true
  sleep 0.5
  left_running "$marker" || { echo "window-check: FAIL — SIGTERM left pane processes running (above)"; exit 1; }
  [ -n "$first" ] || { echo "window-check: FAIL — the window stayed blank (uniform colour) for 15 s at its first start"; exit 1; }
  marker="osf-window-check-$RANDOM$RANDOM"
  start app.log
  # The screenshot and the memory are of the window with its panes running.
  if [ -n "$painted" ] && [ "$npanes" -gt 0 ]; then
    wait_panes "$marker" || { kill -TERM $pid; exit 1; }
    wait_idle "$marker" || true
    [ $quiet -ge 2 ] || echo "window-check: note — the panes were still busy 30 s after they started; memory is measured anyway"
  fi
  sleep 1.5  # let the screen settle before the screenshot a person looks at
  import -silent -window root "$out"
  # RSS of the app and of every process below it (the web view processes).
  rss=$(ps -o rss= -p $pid | awk "{s+=\$1} END {print s+0}")
  kids=$(ps -e -o pid=,ppid=,rss= | awk -v root=$pid "{p[\$1]=\$2; r[\$1]=\$3} END {for (k in p) {x=p[k]; while (x>1) {if (x==root) {s+=r[k]; break} x=p[x]}} print s+0}")
  # The web view collects its whole JavaScript heap each time (make soak:
  # the generational default let the garbage of a drawing pane pile up); panes
  # do not inherit the variable that says so.
  gc=""
  for f in $(grep -lsz "OSF_CHECK_MARKER=$marker" /proc/[0-9]*/environ 2>/dev/null || true); do
    p=${f#/proc/}; p=${p%/environ}
    [ "$p" = "$pid" ] && continue
    has=no; grep -qsz "^JSC_useGenerationalGC=false$" "$f" && has=yes
    case "$(cat /proc/$p/comm 2>/dev/null)" in
      WebKitWebProces*) [ "$has" = yes ] && gc=full || gc="generational (web process $p)";;
      WebKit*|dbus-daemon|dbus-launch|at-spi-bus-laun|at-spi2-registr) ;;
      *) if [ "$has" = yes ]; then kill -TERM $pid; echo "window-check: FAIL — pane process $p ($(cat /proc/$p/comm)) inherited the window'"'"'s JSC_useGenerationalGC"; exit 1; fi;;
    esac
  done
  if [ "$reference" = no ] && [ "$gc" != full ]; then kill -TERM $pid; echo "window-check: FAIL — the web view collects ${gc:-with an unknown setting (no web process found)}, want full collections"; exit 1; fi
  # Where it goes: the app'"'"'s heap and its mapped files (the binary, the
  # libraries), the web view processes, and the programs of the panes.
  anon=$(awk "/^RssAnon/ {print \$2}" /proc/$pid/status); file=$(awk "/^RssFile/ {print \$2}" /proc/$pid/status)
  parts="app heap ${anon} KiB, app files ${file} KiB, $(ps -e -o pid=,ppid=,rss=,comm= | awk -v root=$pid "{p[\$1]=\$2; r[\$1]=\$3; c[\$1]=\$4} END {for (k in p) {x=p[k]; while (x>1) {if (x==root) {if (c[k] ~ /^WebKit/) w+=r[k]; else s+=r[k]; break} x=p[x]}} printf \"web view %d KiB, pane programs %d KiB\", w, s}")"
  kill -TERM $pid; wait $pid 2>/dev/null || true
  sleep 0.5
  left_running "$marker" || { echo "window-check: FAIL — SIGTERM left pane processes running (above)"; exit 1; }
  if [ -z "$painted" ]; then echo "window-check: FAIL — the window stayed blank (uniform colour) for 15 s; see $out"; exit 1; fi
  colors=$(identify -format "%k" "$out")
  if [ "$colors" -le 16 ]; then echo "window-check: FAIL — screenshot is blank ($colors colours): $out"; exit 1; fi
  gcnote="; web view collects its whole heap, panes do not inherit that"; [ "$reference" = yes ] && gcnote=""
  echo "window-check: OK — first painted frame after ${painted} ms (first start, new data folder: ${first} ms); ${colors} colours${gcnote}; screenshot $out"
  echo "window-check: memory — app ${rss} KiB + web view processes ${kids} KiB = $(( (rss + kids) / 1024 )) MiB"
  echo "window-check: memory by part — $parts"
' _ "$bin" "$out" "$reference" "$panes" "$root/build/bin/firstframe"

# Keys typed at 1-8 ms apart, and a paste between typed keys, reach a pane
# in the order typed (xdotool through the X server, as a person types).
[ "$reference" = yes ] || "$root/build/scripts/window-typing.sh" "$bin"
[ "$reference" = yes ] || "$root/build/scripts/window-quit-check.sh" "$bin" # a close request with a busy pane asks; SIGTERM does not
