#!/bin/sh
# After install, upgrade or removal: let the desktop see the entry, the
# osfoundry:// handler and the icons. The user's data (~/.config/osfoundry)
# is never touched. A running window keeps running the version it started
# with; the next start runs the new one.
# DPKG_ROOT is set when dpkg installs into another root folder.
root="${DPKG_ROOT:-}"
if command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database -q "$root/usr/share/applications" || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1; then
  gtk-update-icon-cache -q -t -f "$root/usr/share/icons/hicolor" || true
fi
exit 0
