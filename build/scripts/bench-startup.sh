#!/usr/bin/env bash
# Start-up and memory benchmark of the real window under Xvfb, with 4 panes
# restored: exec → first painted frame (the display read every 5 ms) of a
# start in a new data folder and of the next start in it, and the RSS of
# the app plus its web view processes at that second start
# (window-check.sh). Prints a table beside the reference figures.
# A bare Wails window (backend/testkit/cmd/barewails) is timed in the same
# run as the reference, so machine load affects both alike; the same window
# with four xterm.js terminals (one on screen) gives the memory floor of
# any window showing 4 panes with xterm.js, and that window linking every
# package the app links gives the floor of any window built from them.
#   bench-startup.sh BIN [RUNS]
set -euo pipefail
bin="$1"; runs="${2:-5}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tags="production"; [ "$(uname -s)" = Linux ] && tags="production,webkit2_41"
(cd "$root" && go build -tags "$tags" -o build/bin/barewails ./backend/testkit/cmd/barewails)
xterm="$root/frontend/node_modules/@xterm/xterm"
[ -f "$xterm/lib/xterm.js" ] || { echo "bench-startup.sh: $xterm is missing; run npm ci in frontend" >&2; exit 1; }
cp "$xterm/lib/xterm.js" "$xterm/css/xterm.css" "$root/backend/testkit/cmd/barewails/dist/xterm/"
(cd "$root" && go build -tags "$tags" -ldflags "-X main.page=xterm" -o build/bin/barewails-xterm ./backend/testkit/cmd/barewails)
# The xterm.js window again, linking every package the app links (blank
# imports, generated here): their package initialisation runs and their code
# is mapped, nothing of the app runs. Packages under internal/ come in
# through the packages that import them.
linked="$root/backend/testkit/cmd/barewails/linked_gen.go"
trap 'rm -f "$linked"' EXIT
{ printf '//go:build benchlinked\n\npackage main\n\nimport (\n'
  (cd "$root" && go list -deps -tags "$tags" -f '{{if not .Standard}}{{.ImportPath}}{{end}}' .) |
    grep -v -e '/internal\(/\|$\)' -e '^github.com/osfoundry/desktop$' | sed 's/.*/\t_ "&"/'
  printf ')\n'; } >"$linked"
(cd "$root" && go build -tags "$tags,benchlinked" -ldflags "-X main.page=xterm" -o build/bin/barewails-linked ./backend/testkit/cmd/barewails)
npkgs=$(grep -c '^	_ ' "$linked")
rm -f "$linked"
paints=(); fpaints=(); mems=(); bpaints=(); bfpaints=(); bmems=(); shells=(); xmems=(); lmems=()
for i in $(seq 1 "$runs"); do
  out="$("$here/window-check.sh" "$bin" --panes 4)"
  paints+=("$(sed -n 's/.*first painted frame after \([0-9]*\) ms.*/\1/p' <<<"$out")")
  fpaints+=("$(sed -n 's/.*new data folder: \([0-9]*\) ms.*/\1/p' <<<"$out")")
  mems+=("$(sed -n 's/.* = \([0-9]*\) MiB.*/\1/p' <<<"$out")")
  shells+=("$(sed -n 's/.*pane programs \([0-9]*\) KiB.*/\1/p' <<<"$out")")
  out="$("$here/window-check.sh" "$root/build/bin/barewails" --panes 0 --reference)"
  bpaints+=("$(sed -n 's/.*first painted frame after \([0-9]*\) ms.*/\1/p' <<<"$out")")
  bfpaints+=("$(sed -n 's/.*new data folder: \([0-9]*\) ms.*/\1/p' <<<"$out")")
  bmems+=("$(sed -n 's/.* = \([0-9]*\) MiB.*/\1/p' <<<"$out")")
  out="$("$here/window-check.sh" "$root/build/bin/barewails-xterm" --panes 0 --reference)"
  xmems+=("$(sed -n 's/.* = \([0-9]*\) MiB.*/\1/p' <<<"$out")")
  out="$("$here/window-check.sh" "$root/build/bin/barewails-linked" --panes 0 --reference)"
  lmems+=("$(sed -n 's/.* = \([0-9]*\) MiB.*/\1/p' <<<"$out")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mn() { printf '%s\n' "$@" | sort -n | head -1; }
mx() { printf '%s\n' "$@" | sort -n | tail -1; }
# Ratios pair each app start with the bare window started right after it.
ratios=(); fratios=(); extras=(); apps=(); floors=(); lfloors=()
for i in "${!paints[@]}"; do
  ratios+=("$(awk -v a="${paints[$i]}" -v b="${bpaints[$i]}" 'BEGIN { printf "%.2f", a / b }')")
  fratios+=("$(awk -v a="${fpaints[$i]}" -v b="${bfpaints[$i]}" 'BEGIN { printf "%.2f", a / b }')")
  extras+=("$(( mems[i] - bmems[i] ))")
  apps+=("$(( mems[i] - shells[i] / 1024 - bmems[i] ))")
  floors+=("$(( xmems[i] - bmems[i] ))")
  lfloors+=("$(( lmems[i] - bmems[i] ))")
done
shellmib=$(( $(median "${shells[@]}") / 1024 ))
printf '\nStart-up of the real window (Xvfb, 4 panes restored), %s runs\n\n' "$runs"
printf '%-34s %-24s %-26s %-26s %s\n' "measure" "osFoundry (median, range)" "bare Wails, same run" "ours vs bare (median of pairs)" "target"
printf '%-34s %-24s %-26s %-26s %s\n' "exec → first painted frame" "$(median "${paints[@]}") ms ($(mn "${paints[@]}")–$(mx "${paints[@]}"))" "$(median "${bpaints[@]}") ms ($(mn "${bpaints[@]}")–$(mx "${bpaints[@]}"))" "$(median "${ratios[@]}")×" "≤ 1.15× the bare window"
printf '%-34s %-24s %-26s %-26s %s\n' "  first start, new data folder" "$(median "${fpaints[@]}") ms ($(mn "${fpaints[@]}")–$(mx "${fpaints[@]}"))" "$(median "${bfpaints[@]}") ms ($(mn "${bfpaints[@]}")–$(mx "${bfpaints[@]}"))" "$(median "${fratios[@]}")×" "(the app creates its tables)"
printf '%-34s %-24s %-26s %-26s %s\n' "RSS app + web view, 4 idle panes" "$(median "${mems[@]}") MiB ($(mn "${mems[@]}")–$(mx "${mems[@]}"))" "$(median "${bmems[@]}") MiB" "+$(median "${extras[@]}") MiB" "≤ bare window + 50 MiB"
printf '%-34s %-24s %-26s %-26s %s\n' "  of which the 4 panes' programs" "$shellmib MiB" "-" "app without them: +$(median "${apps[@]}") MiB" "(the person's shell and its start-up files)"
printf '%-34s %-24s %-26s %-26s %s\n' "  floor: bare + 4 xterm.js views" "$(median "${xmems[@]}") MiB" "-" "+$(median "${floors[@]}") MiB, with the programs +$(( $(median "${floors[@]}") + shellmib )) MiB" "(no app code: the terminal views alone)"
printf '%-34s %-24s %-26s %-26s %s\n' "  floor: and the app's $npkgs packages" "$(median "${lmems[@]}") MiB" "-" "+$(median "${lfloors[@]}") MiB, with the programs +$(( $(median "${lfloors[@]}") + shellmib )) MiB" "(their code mapped and their init run; none of the app runs)"
