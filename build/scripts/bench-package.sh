#!/usr/bin/env bash
# make bench rows for the packages: start-up cost of the command line and
# the window app per call, installed size per package, and exec → first
# painted frame of the installed app started from its desktop entry.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
make -s bench-cli
build/bin/osfoundry-bench start --dir build/bin
echo
printf '%-58s  %-22s  %s\n' "package" "size" "installed"
printf '%-58s  %-22s  %s\n' "-------" "----" "---------"
for f in build/dist/*.deb build/dist/*.rpm build/dist/*-setup.exe; do
  [ -f "$f" ] || continue
  size=$(du -k "$f" | cut -f1)
  inst="—"
  case "$f" in
    *.deb) inst="$(dpkg-deb -f "$f" Installed-Size) KiB" ;;
    *.exe) command -v 7z >/dev/null && inst="$(7z l "$f" | awk '/ files/ {s=$3} END {print int(s/1024)}') KiB" ;;
    *.rpm) command -v rpm >/dev/null && inst="$(( $(rpm -qp --queryformat '%{SIZE}' "$f" 2>/dev/null) / 1024 )) KiB" || inst="the .deb's files" ;;
  esac
  printf '%-58s  %-22s  %s\n' "$(basename "$f")" "${size} KiB" "$inst"
done
echo
build/scripts/check-linux-package.sh --bench 5
