#!/usr/bin/env bash
# Typing check of the real window: starts the production build under Xvfb
# with one pane running `cat > FILE`, types into it with xdotool as a person
# would (window-typing.py: lines at 1-8 ms per key, a paste between typed
# keys) and fails when any line reaches the program out of order or
# incomplete. Prints how far input lags behind the keys (never asserted).
#   window-typing.sh BIN [--lines N]
set -euo pipefail
bin="$(realpath "$1")"
shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
for tool in xdotool xclip python3 xvfb-run; do
  command -v "$tool" >/dev/null || { echo "window-typing: FAIL — $tool is missing (make deps-test installs it)"; exit 1; }
done
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
typed="$home/typed.txt"
OSFOUNDRY_HOME="$home" "$bin" panes seed --count 1 --dir "$home" --command "sh -c 'exec cat > $typed'" >/dev/null
export OSFOUNDRY_HOME="$home" WEBKIT_DISABLE_DMABUF_RENDERER=1

xvfb-run -a -e "$home/xvfb.log" -s "-screen 0 1280x820x24" dbus-run-session -- bash -c '
  set -u
  bin="$1"; here="$2"; typed="$3"; shift 3
  "$bin" >"$OSFOUNDRY_HOME/app.log" 2>&1 &
  pid=$!
  code=0
  python3 "$here/window-typing.py" "$typed" "$@" || code=$?
  if ! kill -0 $pid 2>/dev/null; then echo "window-typing: the app exited early:"; cat "$OSFOUNDRY_HOME/app.log"; code=1; fi
  kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null || true
  exit $code
' _ "$bin" "$here" "$typed" "$@"
