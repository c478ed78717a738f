#!/usr/bin/env bash
# Starts the app. On Linux without a display it starts a virtual one (Xvfb)
# and says so, so `make run` works on a headless box too.
set -euo pipefail
bin="$1"
if [ "$(uname -s)" = Linux ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run.sh: no display found — starting osFoundry on a virtual display (Xvfb)."
  echo "run.sh: the window is not visible on this machine; use 'make window' for a screenshot."
  exec xvfb-run -a -s "-screen 0 1280x820x24" "$bin"
fi
exec "$bin"
