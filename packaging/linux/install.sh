#!/usr/bin/env bash
# Install a built BattleStudio bundle for one user (default) or system-wide, with its menu
# entry, icons, AppStream metadata and the .battle / .battle.json file types.
#
#   bash packaging/linux/install.sh                 # into ~/.local
#   sudo PREFIX=/usr/local bash packaging/linux/install.sh
#   DIST=/path/to/BattleStudio bash packaging/linux/install.sh
#
# Copies DIST (default dist/BattleStudio) to $PREFIX/lib/battlestudio, links
# $PREFIX/bin/battlestudio to its executable, and installs under $PREFIX/share:
# applications/, metainfo/, mime/packages/, icons/hicolor/<N>x<N>/apps/ and scalable/apps/.
# Every installed path is listed in $PREFIX/lib/battlestudio/install-manifest.txt, so
# uninstalling is: xargs rm -f < manifest, then rm -r $PREFIX/lib/battlestudio.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PREFIX="${PREFIX:-$HOME/.local}"
DIST="${DIST:-$ROOT/dist/BattleStudio}"
APP_ID=io.github.battlestudio.BattleStudio
SHARE="$PREFIX/share"
LIB="$PREFIX/lib/battlestudio"

if [ ! -x "$DIST/battlestudio" ]; then
    echo "install.sh: $DIST/battlestudio not found; build it first with: bash packaging/build.sh" >&2
    exit 2
fi

manifest=()
put() {  # put SOURCE DEST: copy a file, remember it
    install -D -m 0644 "$1" "$2"
    manifest+=("$2")
}

rm -rf "$LIB"
mkdir -p "$LIB" "$PREFIX/bin"
cp -a "$DIST/." "$LIB/"
ln -sfn "$LIB/battlestudio" "$PREFIX/bin/battlestudio"
manifest+=("$PREFIX/bin/battlestudio")

put "$HERE/$APP_ID.desktop" "$SHARE/applications/$APP_ID.desktop"
put "$HERE/$APP_ID.metainfo.xml" "$SHARE/metainfo/$APP_ID.metainfo.xml"
put "$HERE/$APP_ID.xml" "$SHARE/mime/packages/$APP_ID.xml"
put "$ROOT/resources/icons/battlestudio.svg" "$SHARE/icons/hicolor/scalable/apps/$APP_ID.svg"
for png in "$ROOT"/resources/icons/battlestudio-*.png; do
    n="${png##*-}"; n="${n%.png}"
    put "$png" "$SHARE/icons/hicolor/${n}x${n}/apps/$APP_ID.png"
done
# the desktop entry runs `battlestudio`: point it at the installed link when bin is not on PATH
sed -i "s|^Exec=battlestudio |Exec=$PREFIX/bin/battlestudio |; s|^TryExec=battlestudio$|TryExec=$PREFIX/bin/battlestudio|" \
    "$SHARE/applications/$APP_ID.desktop"

printf '%s\n' "${manifest[@]}" > "$LIB/install-manifest.txt"

# refresh the caches that exist on this system (each is optional)
command -v update-mime-database >/dev/null && update-mime-database "$SHARE/mime" || true
command -v update-desktop-database >/dev/null && update-desktop-database -q "$SHARE/applications" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t -f "$SHARE/icons/hicolor" || true

echo "installed BattleStudio in $LIB; run: $PREFIX/bin/battlestudio"
