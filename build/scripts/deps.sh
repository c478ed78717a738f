#!/usr/bin/env bash
# Installs what building and testing osFoundry needs on a fresh machine.
#   deps.sh app    — system libraries for the window + frontend packages
#   deps.sh package — the above + what `make package` builds with (NSIS)
#   deps.sh test   — the above + Xvfb, Chromium, tmux, the package checkers
#                    PostgreSQL (the team server's tests) and the pinned agent CLIs
#                    and Gitea built from the Go module proxy (the forge tests)
# Debian/Ubuntu: apt packages (needs root or sudo). macOS/Windows: prints
# what to install (see README) and checks it is there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mode="${1:-app}"

need() { command -v "$1" >/dev/null 2>&1 || { echo "deps.sh: $1 is required: $2" >&2; exit 1; }; }
need go "install Go 1.26+ from https://go.dev/dl/"
need node "install Node.js 20+ (Debian: apt-get install nodejs npm)"
need npm "install npm (Debian: apt-get install npm)"

apt_pkgs=(libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config gcc xvfb xauth fonts-dejavu-core)
if [ "$mode" = package ] || [ "$mode" = test ]; then
  apt_pkgs+=(nsis file)
fi
if [ "$mode" = test ]; then
  apt_pkgs+=(chromium tmux imagemagick git icoutils p7zip-full desktop-file-utils python3 xdotool xclip man-db dbus postgresql haproxy gnome-keyring)
fi

if [ "$(uname -s)" = Linux ] && command -v apt-get >/dev/null 2>&1; then
  missing=()
  for p in "${apt_pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "deps.sh: installing ${missing[*]}"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
fi

# Frontend packages: reinstall only when the lock file changed.
stamp="$root/frontend/node_modules/.lock-stamp"
lock_sum="$(sha256sum "$root/frontend/package-lock.json" | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_sum" ]; then
  (cd "$root/frontend" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$lock_sum" >"$stamp"
fi

(cd "$root" && go mod download)

if [ "$mode" = test ]; then
  "$root/build/scripts/agents.sh"
  "$root/build/scripts/node-mcp.sh"
  "$root/build/scripts/gitea.sh" >/dev/null
fi
