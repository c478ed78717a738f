#!/usr/bin/env bash
# Installs the pinned real agent CLIs from npm into build/agents (git-ignored).
# Tests and the fixture recorder run these exact versions, so a new release is a
# deliberate change here followed by `make fixtures`, never a silent drift.
#
# Idempotent: a package already installed at its pinned version is not touched,
# so a second run costs one `node` call per package.
#
# Usage: build/scripts/agents.sh [--required-only]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
prefix="$root/build/agents"

# Required: the suite's live tests and fixtures are built on these (the ACP
# adapter runs the pinned Claude Code in the ACP live test).
required=(
  "@anthropic-ai/claude-code@2.1.328"
  "@openai/codex@0.169.0"
  "@zed-industries/claude-agent-acp@0.23.1"
)
# Best effort: installed when the registry has them; a failure is reported, not fatal.
optional=(
  "@google/gemini-cli@0.61.0"
  "@qwen-code/qwen-code@0.24.4"
  "opencode-ai@1.18.33"
  "@github/copilot@1.0.102"
)

if ! command -v npm >/dev/null 2>&1; then
  echo "agents.sh: npm not found; install Node.js 20+ (apt-get install nodejs npm) and rerun" >&2
  exit 1
fi

mkdir -p "$prefix"
[ -f "$prefix/package.json" ] || echo '{"name":"osfoundry-test-agents","private":true}' >"$prefix/package.json"

# installed_version prints the version of an installed package, or nothing.
installed_version() {
  local pkg="$1" pj="$prefix/node_modules/$1/package.json"
  [ -f "$pj" ] || return 0
  node -e 'process.stdout.write(require(process.argv[1]).version||"")' "$pj" 2>/dev/null || true
}

install_one() {
  local spec="$1" pkg="${1%@*}" want="${1##*@}" have
  have="$(installed_version "$pkg")"
  if [ "$have" = "$want" ]; then
    echo "agents.sh: $pkg $want already installed"
    return 0
  fi
  echo "agents.sh: installing $spec (have: ${have:-none})"
  npm install --no-audit --no-fund --save-exact --loglevel=error --prefix "$prefix" "$spec"
  have="$(installed_version "$pkg")"
  if [ "$have" != "$want" ]; then
    echo "agents.sh: $pkg is at '${have:-none}' after install, want $want" >&2
    return 1
  fi
}

for spec in "${required[@]}"; do
  install_one "$spec"
done

if [ "${1:-}" != "--required-only" ]; then
  skipped=()
  for spec in "${optional[@]}"; do
    install_one "$spec" || skipped+=("$spec")
  done
  if [ "${#skipped[@]}" -gt 0 ]; then
    echo "agents.sh: skipped (best effort): ${skipped[*]}" >&2
  fi
fi

# Qwen Code ships ripgrep without its exec bit; without it the TUI opens
# with an error box about it on every start.
for rg in "$prefix"/node_modules/@qwen-code/qwen-code/vendor/ripgrep/*/rg; do
  [ -f "$rg" ] && chmod +x "$rg"
done

ls "$prefix/node_modules/.bin"
