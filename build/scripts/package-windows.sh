#!/usr/bin/env bash
# Builds the Windows app and its installer on Linux (no Windows, no cgo):
#   package-windows.sh              — resources, both .exe files, the installer
#   package-windows.sh winres DIR   — only fill in the resource configs into DIR
#                                     (build/pkgcheck checks the result)
# Outputs: build/bin/osfoundry-desktop.exe (the window, GUI subsystem),
# build/bin/osfoundry.exe (the command line, console subsystem) and
# build/dist/osFoundry-$VERSION-windows-amd64-setup.exe (per-user NSIS
# installer). Needs `make icons` and `make frontend` first (make
# package-windows runs both), go-winres (fetched by `go run`) and makensis
# (Debian: apt-get install nsis).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

die() { echo "package-windows.sh: $*" >&2; exit 1; }

VERSION="${VERSION:-$(build/scripts/version.sh)}"
# The version is pasted into JSON, sed and NSIS: allow only semver characters.
[[ "$VERSION" =~ ^[0-9A-Za-z.+-]+$ ]] || die "VERSION '$VERSION' has characters other than letters, digits, '.', '+' and '-'"

# numeric_version: the a.b.c.d form of a version (build/scripts/version.sh).
numeric_version() { "$root/build/scripts/version.sh" --numeric "$1" || die "cannot number version '$1'"; }

# fill_winres writes the resource configs with the version filled in; paths
# inside them (the icon) are relative to DIR.
fill_winres() {
  local out="$1" v4 f
  v4="$(numeric_version "$VERSION")"
  mkdir -p "$out"
  for f in winres.json winres-cli.json; do
    sed -e "s|@VERSION4@|$v4|g" -e "s|@VERSION@|$VERSION|g" "build/windows/$f" >"$out/$f.tmp"
    mv "$out/$f.tmp" "$out/$f"
  done
}

if [ "${1:-}" = winres ]; then
  [ -n "${2:-}" ] || die "usage: package-windows.sh winres DIR"
  fill_winres "$2"
  exit 0
fi
[ $# -eq 0 ] || die "unknown arguments '$*' (usage: package-windows.sh [winres DIR])"

icons="build/gen/icons"
ico="$icons/osfoundry.ico"
png="$icons/hicolor/256x256/apps/osfoundry.png"
for f in "$ico" "$png"; do
  [ -f "$f" ] || die "$f is missing: run 'make icons' first"
done
[ -f frontend/dist/index.html ] || die "frontend/dist/index.html is missing: run 'make frontend' first"
command -v makensis >/dev/null 2>&1 || die "makensis is missing: apt-get install nsis (or run 'make deps-test')"

gen="build/gen/windows"
fill_winres "$gen"
cp "$ico" "$gen/osfoundry.ico"

# The .syso files are linked into the package beside them, only when
# building for windows/amd64. They carry this build's version, so they are
# removed afterwards: a later plain `go build` must not pick up stale ones.
app_syso="rsrc_windows_amd64.syso"
cli_syso="cmd/osfoundry/rsrc_windows_amd64.syso"
trap 'rm -f "$app_syso" "$cli_syso"' EXIT
winres=(go run github.com/tc-hib/go-winres@v0.3.3 make --arch amd64)
"${winres[@]}" --in "$gen/winres.json" --out rsrc
"${winres[@]}" --in "$gen/winres-cli.json" --out cmd/osfoundry/rsrc

ldflags="-s -w -X github.com/osfoundry/desktop/backend/cli.Version=$VERSION"
mkdir -p build/bin build/dist
echo "package-windows.sh: building build/bin/osfoundry-desktop.exe and build/bin/osfoundry.exe ($VERSION)"
CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -tags production -trimpath \
  -ldflags "-H windowsgui $ldflags" -o build/bin/osfoundry-desktop.exe .
CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -trimpath \
  -ldflags "$ldflags" -o build/bin/osfoundry.exe ./cmd/osfoundry

# Installers of earlier versions would end up in SHA256SUMS and the release.
rm -f build/dist/osFoundry-*-windows-amd64-setup.exe
out="build/dist/osFoundry-$VERSION-windows-amd64-setup.exe"
nsis=(makensis -V2 -INPUTCHARSET UTF8
  "-DVERSION=$VERSION"
  "-DVERSION4=$(numeric_version "$VERSION")"
  "-DBIN_DIR=$root/build/bin"
  "-DICON=$root/$ico"
  "-DICON_PNG=$root/$png"
  "-DOUT_FILE=$root/$out"
  "-DSRC_DIR=$root"
  build/windows/installer.nsi)
"${nsis[@]}"
echo "package-windows.sh: wrote $out ($(du -k "$out" | cut -f1) KiB)"
