#!/usr/bin/env bash
# The version every binary and package carries, from git: a tag vX.Y.Z gives
# X.Y.Z (with -N-gHASH after it when commits follow); without a tag,
# 0.1.0-dev.N+gHASH (N commits). Semver, so nfpm, NSIS and the macOS plist
# can each derive their own form.
#   version.sh                   — the version of this checkout
#   version.sh --numeric VERSION — the a.b.c.d form Windows' version fields and
#                                  macOS' CFBundleVersion take:
#     0.1.0-dev.230+g74350e0 → 0.1.0.230 (commits since the start),
#     1.2.3-4-gabc → 1.2.3.4 (commits after the tag), 1.2.3 → 1.2.3.0
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${1:-}" = --numeric ]; then
  v="${2:?version.sh --numeric needs a VERSION}"
  core="${v%%[-+]*}"
  d=0
  [[ "$core" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "VERSION '$v' does not start with MAJOR.MINOR.PATCH" >&2; exit 1; }
  rest="${v#"$core"}"
  if [[ "$rest" =~ ^-dev\.([0-9]+) ]] || [[ "$rest" =~ ^-([0-9]+)-g ]]; then
    d="${BASH_REMATCH[1]}"
  fi
  out=()
  for part in ${core//./ } "$d"; do
    ((10#$part <= 65535)) || { echo "VERSION '$v': $part does not fit a version field (at most 65535)" >&2; exit 1; }
    out+=("$((10#$part))")
  done
  (IFS=.; echo "${out[*]}")
  exit 0
fi

if d=$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
  echo "${d#v}"
elif h=$(git rev-parse --short HEAD 2>/dev/null); then
  echo "0.1.0-dev.$(git rev-list --count HEAD)+g$h"
else
  echo "0.1.0-dev"
fi
