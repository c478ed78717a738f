#!/usr/bin/env sh
# The version every binary and package carries, from git: a tag vX.Y.Z gives
# X.Y.Z (with -N-gHASH after it when commits follow); without a tag,
# 0.1.0-dev.N+gHASH (N commits). Semver, so nfpm, NSIS and the macOS plist
# can each derive their own form.
cd "$(dirname "$0")/../.." || exit 1
if d=$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
  echo "${d#v}"
elif h=$(git rev-parse --short HEAD 2>/dev/null); then
  echo "0.1.0-dev.$(git rev-list --count HEAD)+g$h"
else
  echo "0.1.0-dev"
fi
