#!/usr/bin/env bash
# Soak of the real window under Xvfb: N panes restored, each running a 10 Hz
# spinner (a counter redrawn with \r, as agent CLIs do while they work) after
# filling its output ring, the Terminal screen open. Samples the RSS of the app (the Go process) and of
# its WebKit web process every S seconds for M minutes and prints the slope
# (least squares over the samples after the warm-up) beside the target.
#   bench-soak.sh BIN [--panes 12] [--minutes 10] [--every 5] [--warmup 3]
#                     [--assets DIR] [--screen ROUTE] [--visible V] [--csv FILE]
# --assets DIR serves a frontend built elsewhere (vite build --outDir DIR);
# BIN must then be a dev-tag build (-devserver/-assetdir). A production
# build shows the frontend it embeds.
# --screen ROUTE (with --assets) opens the window on another screen, e.g.
# settings: the panes run with no view, which tells the cost of panes
# nobody looks at from the cost of the pane on screen.
# --visible V: the Terminal shows V panes at once (1, 2 side by side or 4
# in a 2 × 2 grid; the saved layout the app starts with); also prints the
# web process's CPU beside the slope.
set -euo pipefail
usage() { echo "usage: bench-soak.sh BIN [--panes N] [--minutes M] [--every S] [--warmup W] [--assets DIR] [--screen ROUTE] [--visible V] [--csv FILE]" >&2; exit 2; }
[ $# -ge 1 ] || usage
bin="$(realpath "$1")"; shift
panes=12; minutes=10; every=5; warmup=3; assets=""; screen=""; csv=""; visible=""
while [ $# -gt 0 ]; do
  case "$1" in
    --panes) panes="$2" ;;
    --minutes) minutes="$2" ;;
    --every) every="$2" ;;
    --warmup) warmup="$2" ;;
    --assets) assets="$(realpath "$2")" ;;
    --screen) screen="$2" ;;
    --csv) csv="$2" ;;
    --visible) visible="$2" ;;
    *) usage ;;
  esac
  shift 2 || usage
done
for v in "$panes" "$minutes" "$every" "$warmup"; do
  [[ "$v" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "bench-soak: '$v' is not a number; give --panes, --minutes, --every and --warmup as numbers" >&2; exit 2; }
done
awk -v m="$minutes" -v w="$warmup" 'BEGIN {exit !(m > w)}' || { echo "bench-soak: --minutes ($minutes) must be longer than --warmup ($warmup)" >&2; exit 2; }
[ -x "$bin" ] || { echo "bench-soak: $bin is not an executable; build it first (make app)" >&2; exit 2; }
if [ -n "$assets" ] && [ ! -f "$assets/index.html" ]; then
  echo "bench-soak: $assets has no index.html; build the frontend there first (cd frontend && npx vite build --outDir $assets)" >&2; exit 2
fi

if [ -n "$screen" ]; then
  [ -n "$assets" ] || { echo "bench-soak: --screen needs --assets (a frontend built elsewhere to open on that screen)" >&2; exit 2; }
  [[ "$screen" =~ ^[a-z][a-z0-9-]*$ ]] || { echo "bench-soak: --screen wants a screen's route like settings or notes, got '$screen'" >&2; exit 2; }
fi

home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
if [ -n "$visible" ]; then
  case "$visible" in 1) kind=single ;; 2) kind=columns ;; 4) kind=grid ;; *) echo "bench-soak: --visible takes 1, 2 or 4 (panes on screen at once), got '$visible'" >&2; exit 2 ;; esac
  [ "$panes" -ge "$visible" ] || { echo "bench-soak: --visible $visible needs at least $visible panes (--panes)" >&2; exit 2; }
  # The Terminal fills the slots with the restored panes in rail order.
  printf '{"notifications": false, "layout": {"kind": "%s", "slots": [], "split": [0.5, 0.5], "focus": 0}}\n' "$kind" >"$home/settings.json"
fi
if [ -n "$screen" ]; then
  # A copy of the frontend whose page opens on #/$screen.
  cp -r "$assets" "$home/assets"
  sed -i "s|<head>|<head><script>location.hash = '#/$screen';</script>|" "$home/assets/index.html"
  grep -q "location.hash = '#/$screen'" "$home/assets/index.html" || { echo "bench-soak: $assets/index.html has no <head> to open on $screen" >&2; exit 2; }
  assets="$home/assets"
fi
# Each pane first prints 4,000 lines of 80 columns (320 KB): the pane's
# 256 KiB output ring and xterm.js's scrollback are full from the start, so
# what grows after the warm-up is not a buffer filling up.
cat >"$home/spin.sh" <<'EOF'
yes "$(printf '%079d' 0)" | head -n 4000
i=0; s='|/-\'
while :; do printf '\r%s working… %d' "${s:i%4:1}" "$i"; i=$((i+1)); sleep 0.1; done
EOF
OSFOUNDRY_HOME="$home" "$bin" panes seed --count "$panes" --dir "$home" --command "bash --norc --noprofile $home/spin.sh" >/dev/null
samples="$home/samples.tsv"

args=()
if [ -n "$assets" ]; then
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  args=(-devserver "127.0.0.1:$port" -assetdir "$assets")
fi
echo "bench-soak: $panes panes with 10 Hz spinners, $minutes min, a sample every $every s (about $(awk -v m="$minutes" 'BEGIN {print m+0}') min)…" >&2
export OSFOUNDRY_HOME="$home" HOME="$home" WEBKIT_DISABLE_DMABUF_RENDERER=1
xvfb-run -a -s "-screen 0 1280x820x24" bash -c '
  set -u
  bin="$1"; samples="$2"; minutes="$3"; every="$4"; shift 4
  "$bin" "$@" >"$OSFOUNDRY_HOME/app.log" 2>&1 &
  pid=$!
  # kib PID FIELD: a field of /proc/PID/status in KiB (0 when gone).
  kib() { awk -v f="$2:" "\$1 == f {print \$2; found=1} END {if (!found) print 0}" "/proc/$1/status" 2>/dev/null || echo 0; }
  # webpid: the WebKit web process below the app (its comm is cut to 15 characters).
  webpid() {
    ps -e -o pid=,ppid=,comm= | awk -v root="$pid" "{p[\$1]=\$2; c[\$1]=\$3} END {for (k in p) if (c[k] ~ /^WebKitWebProces/) {x=p[k]; while (x>1) {if (x==root) {print k; exit} x=p[x]}}}"
  }
  start=$(date +%s%N)
  end=$(( start + ${minutes%.*} * 60000000000 + $(awk -v m="$minutes" "BEGIN {printf \"%d\", (m - int(m)) * 60e9}") ))
  # ticks PID: CPU time (user + system) in clock ticks.
  ticks() { awk "{print \$14 + \$15}" "/proc/$1/stat" 2>/dev/null || echo 0; }
  printf "t_s\tapp_kib\tapp_anon_kib\tweb_kib\tweb_anon_kib\tweb_ticks\n" >"$samples"
  while [ "$(date +%s%N)" -lt "$end" ]; do
    if ! kill -0 "$pid" 2>/dev/null; then echo "bench-soak: the app exited early:" >&2; tail -50 "$OSFOUNDRY_HOME/app.log" >&2; exit 1; fi
    w=$(webpid)
    t=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ -n "$w" ]; then
      printf "%s\t%s\t%s\t%s\t%s\t%s\n" "$(awk -v t=$t "BEGIN {printf \"%.1f\", t/1000}")" "$(kib $pid VmRSS)" "$(kib $pid RssAnon)" "$(kib $w VmRSS)" "$(kib $w RssAnon)" "$(ticks $w)" >>"$samples"
    fi
    sleep "$every"
  done
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
' _ "$bin" "$samples" "$minutes" "$every" "${args[@]}"

[ -n "$csv" ] && cp "$samples" "$csv"
n=$(($(wc -l <"$samples") - 1))
[ "$n" -ge 3 ] || { echo "bench-soak: only $n samples (the web process never appeared?); see the app log" >&2; exit 1; }
# slope COLUMN: MiB per minute, least squares over samples after the warm-up.
stat() {
  awk -F'\t' -v c="$1" -v w="$warmup" 'NR == 1 {next}
    {if (first == "") first = $c; last = $c}
    $1 / 60 >= w {x = $1 / 60; y = $c / 1024; n++; sx += x; sy += y; sxx += x * x; sxy += x * y}
    END {
      slope = (n >= 2 && n * sxx - sx * sx > 0) ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0
      printf "%.0f\t%.0f\t%+.3f\t%d\n", first / 1024, last / 1024, slope, n
    }' "$samples"
}
printf '\nSoak of the real window (Xvfb): %s panes with 10 Hz spinners, %s min, a sample every %s s, slope after minute %s%s%s\n\n' "$panes" "$minutes" "$every" "$warmup" "${screen:+, window on #/$screen (no pane shown)}" "${visible:+, $visible on screen at once}"
printf '%-32s %-10s %-10s %-22s %-14s %s\n' "measure" "start MiB" "end MiB" "slope after warm-up" "target" ""

row() {
  IFS=$'\t' read -r a b s k <<<"$(stat "$2")"
  local ok="ok"
  if [ "$3" = yes ] && awk -v s="$s" 'BEGIN {exit !(s > 0.1)}'; then ok="OVER"; fi
  [ "$3" = yes ] || ok=""
  printf '%-32s %-10s %-10s %-22s %-14s %s\n' "$1" "$a" "$b" "$s MiB/min ($k)" "$([ "$3" = yes ] && echo '≤ 0.1 MiB/min' || echo '-')" "$ok"
}
row "RSS app (Go process)" 2 yes
row "  of which anonymous" 3 no
row "RSS web process (WebKit)" 4 yes
row "  of which anonymous" 5 no
# The web process's CPU after the warm-up, in % of one core.
hz=$(getconf CLK_TCK)
awk -F'\t' -v w="$warmup" -v hz="$hz" 'NR == 1 {next} $1 / 60 >= w && $6 > 0 {if (t0 == "") {t0 = $1; c0 = $6} t1 = $1; c1 = $6}
  END {if (t1 > t0) printf "%-32s %-10s %-10s %-22s %-14s\n", "CPU web process (WebKit)", "-", "-", sprintf("%.1f %% of a core", (c1 - c0) / hz / (t1 - t0) * 100), "-"}' "$samples"
exit 0
