#!/usr/bin/env bash
# Builds the .deb and .rpm of osFoundry into build/dist/ with nfpm, from the
# binaries and icons `make package-linux` built first, the man pages
# (build/mangen) and the documents (README.md, docs/, rules/README.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
for f in build/bin/osfoundry-desktop build/bin/osfoundry build/gen/icons/hicolor/48x48/apps/osfoundry.png; do
  [ -f "$f" ] || { echo "package-linux: $f is missing; run 'make package-linux'" >&2; exit 1; }
done
# The packages carry the version the binaries were built with.
VERSION=$(build/bin/osfoundry version | awk '{print $2}')
export VERSION
# The man pages, from the same help pages `osfoundry CMD --help` prints.
go run ./build/mangen -out build/gen/man -version "$VERSION" -gzip
mkdir -p build/dist
rm -f build/dist/*.deb build/dist/*.rpm
nfpm=(go run github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2)
for packager in deb rpm; do
  "${nfpm[@]}" package --config build/linux/nfpm.yaml --packager "$packager" --target build/dist/
done
ls -l build/dist/*.deb build/dist/*.rpm
