#!/usr/bin/env bash
# Re-records every agent fixture from the pinned real CLIs (make fixtures):
# TUI byte streams per state at 120x32, headless JSON streams and the
# session stores the CLIs wrote. Review the diff, never hand-edit the files.
#
# Usage: build/scripts/fixtures.sh [-only claude,codex-inline,...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash build/scripts/agents.sh >/dev/null
start=$(date +%s)
go run ./backend/testkit/cmd/record "$@"
echo "fixtures.sh: recorded in $(( $(date +%s) - start ))s"
