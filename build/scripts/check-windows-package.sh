#!/usr/bin/env bash
# Checks the Windows installer that build/scripts/package-windows.sh wrote,
# on Linux: it is an NSIS-built PE; the programs inside it are the window
# app (GUI subsystem, with icon, version and a manifest declaring
# per-monitor-v2 DPI awareness and Common Controls 6) and the command line
# (console subsystem, with icon and version). Every failed check is printed
# with what to do; the exit status is non-zero if any failed.
# Needs file, 7z (p7zip-full), wrestool (icoutils): `make deps-test`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"


for tool in file 7z wrestool; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "check-windows-package.sh: $tool is missing: run 'make deps-test' (apt-get install file p7zip-full icoutils)" >&2
    exit 1
  }
done
# package-windows.sh leaves exactly one installer (it removes older ones);
# its name carries the version the programs inside must report.
shopt -s nullglob
installers=(build/dist/osFoundry-*-windows-amd64-setup.exe)
shopt -u nullglob
if [ "${#installers[@]}" -ne 1 ]; then
  echo "check-windows-package.sh: expected one build/dist/osFoundry-*-windows-amd64-setup.exe, found ${#installers[@]}: run 'make package-windows'" >&2
  exit 1
fi
installer="${installers[0]}"
VERSION="${installer#build/dist/osFoundry-}"
VERSION="${VERSION%-windows-amd64-setup.exe}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
ok() { echo "  ok   $*"; }
fail() { echo "  FAIL $*" >&2; failures=$((failures + 1)); }

# expect_file_type FILE WORDS... — `file` describes FILE with every one of WORDS.
expect_file_type() {
  local f="$1" desc w
  shift
  desc="$(file -b "$f")"
  for w in "$@"; do
    if [[ "$desc" != *"$w"* ]]; then
      fail "${f#"$work/"}: 'file' says \"$desc\", expected it to mention \"$w\""
      return
    fi
  done
  ok "${f#"$work/"}: $desc"
}

# expect_resources EXE TYPE:NAME... — wrestool lists a resource of each type.
expect_resources() {
  local exe="$1" name list spec
  name="${exe#"$work/"}"
  shift
  if ! list="$(wrestool -l "$exe" 2>&1)"; then
    fail "$name: wrestool cannot read its resources: $list"
    return
  fi
  for spec in "$@"; do
    if grep -q -- "--type=${spec%%:*} " <<<"$list"; then
      ok "$name: has a ${spec#*:} resource (type ${spec%%:*})"
    else
      fail "$name: no ${spec#*:} resource (type ${spec%%:*}); build/windows/winres*.json and go-winres put them in (package-windows.sh)"
    fi
  done
}

echo "check-windows-package.sh: $installer"
# `file` names only 32-bit NSIS stubs; 7z reads the NSIS header of both.
expect_file_type "$installer" "PE32+" "x86-64" "(GUI)" "MS Windows"
expect_resources "$installer" "14:group icon" "16:version"

listing="$(7z l "$installer" 2>&1)" || fail "$installer: 7z cannot list it: $listing"
if grep -q "^Type = Nsis" <<<"$listing"; then
  ok "installer is an NSIS archive ($(grep -m1 '^SubType = ' <<<"$listing" | cut -d' ' -f3-))"
else
  fail "$installer is not an NSIS archive according to 7z; build it with makensis (package-windows.sh)"
fi
# One "Path = NAME" line per file in the archive (the header lines above
# also name files, e.g. a PE's original file name).
paths="$(7z l -slt -ba "$installer" 2>/dev/null | sed -n 's/^Path = //p')"
for want in osfoundry-desktop.exe osfoundry.exe; do
  if grep -qxF -- "$want" <<<"$paths"; then
    ok "installer contains $want"
  else
    fail "installer does not contain $want; see the File lines in build/windows/installer.nsi"
  fi
done
# The documents the command line's help pages point at (its doc folder).
for want in README.md docs/*.md rules/README.md; do
  if grep -qxF -- "doc/$want" <<<"$paths" || grep -qxF -- "doc\\${want//\//\\}" <<<"$paths"; then
    ok "installer contains doc/$want"
  else
    fail "installer does not contain doc/$want, which osfoundry --help points at; see the doc lines in build/windows/installer.nsi"
  fi
done
7z e -y -o"$work" "$installer" osfoundry-desktop.exe osfoundry.exe >/dev/null 2>&1 || true

app="$work/osfoundry-desktop.exe"
cli="$work/osfoundry.exe"
if [ -f "$app" ] && [ -f "$cli" ]; then
  expect_file_type "$app" "PE32+" "x86-64" "(GUI)"
  expect_file_type "$cli" "PE32+" "x86-64" "(console)"
  expect_resources "$app" "14:group icon" "16:version" "24:manifest"
  expect_resources "$cli" "14:group icon" "16:version"

  # Windows reads the manifest's values case-insensitively (go-winres
  # writes "permonitorv2").
  manifest="$(wrestool -x --raw --type=24 "$app" 2>/dev/null | tr -d '\0' || true)"
  for want in "PerMonitorV2" "Microsoft.Windows.Common-Controls" 'version="6.0.0.0"' 'level="asInvoker"'; do
    if grep -qiF -- "$want" <<<"$manifest"; then
      ok "manifest of osfoundry-desktop.exe has $want"
    else
      fail "manifest of osfoundry-desktop.exe lacks $want; see RT_MANIFEST in build/windows/winres.json"
    fi
  done

  # VERSIONINFO strings are UTF-16LE.
  version_text="$(wrestool -x --raw --type=16 "$app" 2>/dev/null | iconv -f UTF-16LE -t UTF-8 2>/dev/null | tr -d '\0' || true)"
  for want in "ProductName" "osFoundry" "$VERSION"; do
    if [[ "$version_text" == *"$want"* ]]; then
      ok "version resource of osfoundry-desktop.exe has \"$want\""
    else
      fail "version resource of osfoundry-desktop.exe lacks \"$want\"; see RT_VERSION in build/windows/winres.json"
    fi
  done
else
  fail "could not extract osfoundry-desktop.exe and osfoundry.exe from $installer with 7z"
fi

if [ "$failures" -gt 0 ]; then
  echo "check-windows-package.sh: $failures check(s) failed" >&2
  exit 1
fi
echo "check-windows-package.sh: all checks passed"
