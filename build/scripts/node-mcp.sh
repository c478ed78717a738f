#!/usr/bin/env bash
# Installs the pinned TypeScript MCP SDK (@modelcontextprotocol/sdk) into
# build/node-mcp (git-ignored). The bridge tests drive the bridge with this
# real client through backend/bridge/testdata/tsclient.mjs; without it those
# tests skip and say to run this script.
#
# Idempotent: the pinned version already installed is not touched.
#
# Usage: build/scripts/node-mcp.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
prefix="$root/build/node-mcp"
spec="@modelcontextprotocol/sdk@1.32.2"
pkg="${spec%@*}"
want="${spec##*@}"

if ! command -v npm >/dev/null 2>&1; then
  echo "node-mcp.sh: npm not found; install Node.js 20+ (apt-get install nodejs npm) and rerun" >&2
  exit 1
fi

mkdir -p "$prefix"
# The folder ignores itself so nothing installed here is ever committed.
[ -f "$prefix/.gitignore" ] || echo '*' >"$prefix/.gitignore"
[ -f "$prefix/package.json" ] || echo '{"name":"osfoundry-node-mcp","private":true,"type":"module"}' >"$prefix/package.json"

pj="$prefix/node_modules/$pkg/package.json"
have=""
if [ -f "$pj" ]; then
  have="$(node -e 'process.stdout.write(require(process.argv[1]).version||"")' "$pj" 2>/dev/null || true)"
fi
if [ "$have" = "$want" ]; then
  echo "node-mcp.sh: $pkg $want already installed"
  exit 0
fi
echo "node-mcp.sh: installing $spec (have: ${have:-none})"
npm install --prefix "$prefix" --no-audit --no-fund --save-exact "$spec"
