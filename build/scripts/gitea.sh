#!/usr/bin/env bash
# Builds the pinned Gitea from the Go module proxy into build/agents/gitea
# (git-ignored) for the forge tests (backend/forge), once: a binary already
# there at the pinned version is not rebuilt.
#
# `go install code.gitea.io/gitea@VERSION` refuses the module (its go.mod has
# replace directives), so the module is downloaded with `go mod download`
# and built in place as Gitea's own Makefile would, without embedding its
# files (bindata needs Gitea's frontend build) and without cgo (Gitea's
# default SQLite driver is pure Go). Its locales, templates and public
# files are copied beside the binary, where the tests' STATIC_ROOT_PATH
# points.
#
# Usage: build/scripts/gitea.sh   (prints the binary's path last)
set -euo pipefail

version="v1.27.3"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
home="$root/build/agents/gitea/$version"
out="$home/gitea"

if [ -x "$out" ] && [ -d "$home/options" ]; then
  echo "$out"
  exit 0
fi
command -v go >/dev/null 2>&1 || { echo "gitea.sh: go is required" >&2; exit 1; }
dir="$(go mod download -json "code.gitea.io/gitea@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
[ -n "$dir" ] && [ -d "$dir" ] || { echo "gitea.sh: could not download code.gitea.io/gitea@$version from the Go module proxy" >&2; exit 1; }
mkdir -p "$home"
rm -rf "$home/options" "$home/templates" "$home/public"
cp -r "$dir/options" "$dir/templates" "$dir/public" "$home/"
chmod -R u+w "$home"
if [ -x "$out" ]; then
  echo "$out"
  exit 0
fi
echo "gitea.sh: building Gitea $version (a few minutes, once)" >&2
start=$(date +%s)
(cd "$dir" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -o "$out.tmp" \
  -ldflags "-s -w -X main.Version=${version#v}" .)
mv "$out.tmp" "$out"
echo "gitea.sh: built in $(( $(date +%s) - start )) s, $(du -h "$out" | cut -f1)" >&2
echo "$out"
