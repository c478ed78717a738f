#!/usr/bin/env bash
# Fails when a shipped binary (the window app, the command line) links a
# benchmark or a test driver: those live under cmd/osfoundry-bench and the
# packages below, and only tests and osfoundry-bench may import them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
kit='/testkit(/|$)|/connecttest$|/detectbench$|/notesbench$|/cmd/osfoundry-bench$'
tags=production
[ "$(uname -s)" = Linux ] && tags=production,webkit2_41
status=0
for target in "./cmd/osfoundry" "-tags $tags ."; do
  # shellcheck disable=SC2086 # target holds flags and a package on purpose
  found=$(go list -deps $target | grep -E "$kit" || true)
  if [ -n "$found" ]; then
    echo "check-shipped-deps: go list -deps $target includes test-kit packages:" >&2
    echo "$found" | sed 's/^/  /' >&2
    echo "  move what the shipped code needs out of them, or the caller into cmd/osfoundry-bench or a _test.go file" >&2
    status=1
  fi
done
exit $status
