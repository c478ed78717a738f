# Sourced by the window checks.
# left_running MARKER prints and fails on every process still carrying
# MARKER in its environment: only the app got it, its panes and web view
# inherited it, so after the app ended any such process is an orphan. The
# checks run the app on a session bus of its own (dbus-run-session), as a
# desktop session has; a session or accessibility bus that GTK would start on
# first use without one belongs to the display and outlives every app on it
# by design: it is not the app's to end.
left_running() {
  local f p left=""
  for f in $(grep -lsz "OSF_CHECK_MARKER=$1" /proc/[0-9]*/environ 2>/dev/null || true); do
    p=${f#/proc/}; p=${p%/environ}
    case "$(cat /proc/$p/comm 2>/dev/null)" in
      dbus-daemon|dbus-launch|at-spi-bus-laun|at-spi2-registr) continue ;;
    esac
    ps -o pid=,args= -p "$p" && left=1
  done
  [ -z "$left" ]
}
