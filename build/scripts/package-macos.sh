#!/usr/bin/env bash
# Builds osFoundry.app for macOS, universal (Apple silicon and Intel), on a Mac:
#   package-macos.sh              — binaries, the bundle, signing, zip, dmg, notarization
#   package-macos.sh plist OUT    — only write the filled-in Info.plist (runs anywhere)
#   package-macos.sh plan         — print which optional steps would run (runs anywhere)
# build/pkgcheck runs the last two on Linux.
#
# Outputs in build/dist/: osFoundry.app, osFoundry-$VERSION-macos-universal.zip
# and osFoundry-$VERSION-macos-universal.dmg (the app and an /Applications link).
# The window binary is Contents/MacOS/osfoundry-desktop, the command line
# Contents/Resources/osfoundry (it opens the window beside it when run bare).
#
# Optional, from the environment (.github/workflows/release.yml sets them
# from secrets):
#   MACOS_SIGN_IDENTITY     a "Developer ID Application: …" identity in the
#                           keychain: signs with the hardened runtime and a
#                           timestamp. Without it the bundle is signed ad hoc
#                           (Apple silicon runs only signed code, and an ad-hoc
#                           signature keeps the bundle consistent).
#   MACOS_NOTARY_APPLE_ID, MACOS_NOTARY_TEAM_ID, MACOS_NOTARY_PASSWORD (an
#                           app-specific password): all three notarize the app
#                           and the dmg and staple the tickets. Needs the identity.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

die() { echo "package-macos.sh: $*" >&2; exit 1; }

VERSION="${VERSION:-$(build/scripts/version.sh)}"
[[ "$VERSION" =~ ^[0-9A-Za-z.+-]+$ ]] || die "VERSION '$VERSION' has characters other than letters, digits, '.', '+' and '-'"

# Go 1.26 binaries need macOS 12 (its linker stamps 12.0 into every
# binary); the cgo-linked window gets the same minimum from clang.
min_macos="12.0"

# numeric_version: the a.b.c.d form of a version (build/scripts/version.sh).
numeric_version() { "$root/build/scripts/version.sh" --numeric "$1" || die "cannot number version '$1'"; }

write_plist() {
  local out="$1" v4
  v4="$(numeric_version "$VERSION")"
  mkdir -p "$(dirname "$out")"
  sed -e "s|@SHORT_VERSION@|${v4%.*}|g" -e "s|@BUNDLE_VERSION@|$v4|g" -e "s|@VERSION@|$VERSION|g" \
    build/darwin/Info.plist >"$out.tmp"
  mv "$out.tmp" "$out"
  if command -v plutil >/dev/null 2>&1; then
    plutil -lint -s "$out" || die "$out is not a valid property list: see build/darwin/Info.plist"
  fi
}

# sign_mode prints "identity" or "ad-hoc"; notarize_mode prints "yes" or
# "no", and fails when notarization is asked for but cannot happen.
sign_mode() {
  if [ -n "${MACOS_SIGN_IDENTITY:-}" ]; then echo identity; else echo ad-hoc; fi
}
notarize_mode() {
  local set=0 name
  for name in MACOS_NOTARY_APPLE_ID MACOS_NOTARY_TEAM_ID MACOS_NOTARY_PASSWORD; do
    [ -z "${!name:-}" ] || set=$((set + 1))
  done
  if [ "$set" -eq 0 ]; then echo no; return; fi
  [ "$set" -eq 3 ] || die "notarization needs all of MACOS_NOTARY_APPLE_ID, MACOS_NOTARY_TEAM_ID and MACOS_NOTARY_PASSWORD; $set of 3 are set"
  [ "$(sign_mode)" = identity ] || die "notarization needs a Developer ID signature: set MACOS_SIGN_IDENTITY too"
  echo yes
}

case "${1:-}" in
plist)
  [ -n "${2:-}" ] || die "usage: package-macos.sh plist OUT"
  write_plist "$2"
  exit 0
  ;;
plan)
  notarize="$(notarize_mode)"
  echo "sign: $(sign_mode)"
  echo "notarize: $notarize"
  exit 0
  ;;
"") ;;
*) die "unknown argument '$1' (usage: package-macos.sh [plist OUT | plan])" ;;
esac

[ "$(uname -s)" = Darwin ] || die "the app builds only on macOS (the window needs cgo and Apple's frameworks); .github/workflows/release.yml runs this on a macOS runner"
for tool in lipo codesign ditto hdiutil; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is missing: install the Xcode command line tools (xcode-select --install)"
done
icns="build/gen/icons/osfoundry.icns"
[ -f "$icns" ] || die "$icns is missing: run 'make icons' first"
[ -f frontend/dist/index.html ] || die "frontend/dist/index.html is missing: run 'make frontend' first"
notarize="$(notarize_mode)"

work="build/gen/macos"
app="build/dist/osFoundry.app"
base="build/dist/osFoundry-$VERSION-macos-universal"
rm -rf "$work" "$app"
rm -f build/dist/osFoundry-*-macos-universal.zip build/dist/osFoundry-*-macos-universal.dmg
mkdir -p "$work" "$app/Contents/MacOS" "$app/Contents/Resources"

ldflags="-s -w -X github.com/osfoundry/desktop/backend/cli.Version=$VERSION"
for arch in arm64 amd64; do
  echo "package-macos.sh: building the window and the command line for $arch ($VERSION)"
  CGO_ENABLED=1 GOOS=darwin GOARCH="$arch" MACOSX_DEPLOYMENT_TARGET="$min_macos" \
    CGO_CFLAGS="-mmacosx-version-min=$min_macos" CGO_LDFLAGS="-mmacosx-version-min=$min_macos" \
    go build -tags production -trimpath -ldflags "$ldflags" -o "$work/osfoundry-desktop-$arch" .
  CGO_ENABLED=0 GOOS=darwin GOARCH="$arch" \
    go build -trimpath -ldflags "$ldflags" -o "$work/osfoundry-$arch" ./cmd/osfoundry
done
lipo -create -output "$app/Contents/MacOS/osfoundry-desktop" "$work/osfoundry-desktop-arm64" "$work/osfoundry-desktop-amd64"
lipo -create -output "$app/Contents/Resources/osfoundry" "$work/osfoundry-arm64" "$work/osfoundry-amd64"
cp "$icns" "$app/Contents/Resources/osfoundry.icns"
# The documents `osfoundry CMD --help` points at, with their source-tree
# paths, in Contents/Resources/doc beside the command line (sealed by the
# bundle's signature below).
doc="$app/Contents/Resources/doc"
mkdir -p "$doc/docs" "$doc/rules"
cp README.md "$doc/"
cp docs/*.md "$doc/docs/"
cp rules/README.md "$doc/rules/"
[ -s "$doc/docs/orchestration.md" ] || die "the bundle lacks $doc/docs/orchestration.md, which osfoundry run --help points at"
write_plist "$app/Contents/Info.plist"
printf 'APPL????' >"$app/Contents/PkgInfo"

# Nested code first (the command line), then the bundle, which seals it.
if [ "$(sign_mode)" = identity ]; then
  sign=(codesign --force --options runtime --timestamp --entitlements build/darwin/entitlements.plist --sign "$MACOS_SIGN_IDENTITY")
else
  sign=(codesign --force --sign -)
fi
"${sign[@]}" --identifier com.osfoundry.desktop.cli "$app/Contents/Resources/osfoundry"
"${sign[@]}" "$app"
codesign --verify --strict --verbose=2 "$app"

notarize_file() {
  local file="$1"
  xcrun notarytool submit "$file" --wait \
    --apple-id "$MACOS_NOTARY_APPLE_ID" --team-id "$MACOS_NOTARY_TEAM_ID" --password "$MACOS_NOTARY_PASSWORD"
}

if [ "$notarize" = yes ]; then
  echo "package-macos.sh: notarizing osFoundry.app"
  ditto -c -k --keepParent "$app" "$work/notarize.zip"
  notarize_file "$work/notarize.zip"
  xcrun stapler staple "$app"
fi

ditto -c -k --keepParent "$app" "$base.zip"

stage="$work/dmg"
mkdir -p "$stage"
ditto "$app" "$stage/osFoundry.app"
ln -s /Applications "$stage/Applications"
hdiutil create -volname osFoundry -srcfolder "$stage" -fs HFS+ -format UDZO -ov "$base.dmg"
if [ "$(sign_mode)" = identity ]; then
  codesign --force --timestamp --sign "$MACOS_SIGN_IDENTITY" "$base.dmg"
fi
if [ "$notarize" = yes ]; then
  echo "package-macos.sh: notarizing the disk image"
  notarize_file "$base.dmg"
  xcrun stapler staple "$base.dmg"
fi

echo "package-macos.sh: wrote $app, $base.zip ($(du -k "$base.zip" | cut -f1) KiB) and $base.dmg ($(du -k "$base.dmg" | cut -f1) KiB); signing: $(sign_mode), notarized: $notarize"
