#!/usr/bin/env bash
# Build BattleStudio as a one-folder desktop application: dist/BattleStudio/.
#
#   bash packaging/build.sh            # from any directory of a checkout
#
# Needs only Python >= 3.11 (python3, or the interpreter named by $PYTHON) and access to PyPI.
# Everything is installed into a venv of its own (build/packaging-venv, or $BATTLESTUDIO_BUILD_VENV),
# never into the development venv: the project itself (not editable, so its metadata and entry
# points are those of the wheel) and PyInstaller. Runs on Linux and macOS, and on Windows from
# Git Bash; the bundle is for the platform it is built on. Then run packaging/check_bundle.py.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"  # may carry arguments, e.g. "py -3.11" on Windows
read -r -a PY_CMD <<< "$PYTHON"
VENV="${BATTLESTUDIO_BUILD_VENV:-$ROOT/build/packaging-venv}"
PYINSTALLER_SPEC="${PYINSTALLER_SPEC:-pyinstaller>=6.10,<7}"
start=$(date +%s)

say() { printf '[build.sh] %s\n' "$*"; }

"${PY_CMD[@]}" - <<'PY' || { say "Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)"; exit 2; }
import sys
sys.exit(0 if sys.version_info >= (3, 11) else 1)
PY

if [ ! -d "$VENV" ]; then
    say "creating $VENV"
    "${PY_CMD[@]}" -m venv "$VENV"
fi
if [ -x "$VENV/Scripts/python.exe" ]; then VPY="$VENV/Scripts/python.exe"; else VPY="$VENV/bin/python"; fi

say "installing BattleStudio and PyInstaller into $VENV"
"$VPY" -m pip install --quiet --upgrade pip
"$VPY" -m pip install --quiet --upgrade "$ROOT" "$PYINSTALLER_SPEC"
"$VPY" -m PyInstaller --version | sed 's/^/[build.sh] PyInstaller /'

say "building dist/BattleStudio"
cd "$ROOT"
"$VPY" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$ROOT/dist" --workpath "$ROOT/build/pyinstaller" \
    "$ROOT/packaging/battlestudio.spec"

end=$(date +%s)
size=$(du -sh "$ROOT/dist/BattleStudio" | cut -f1)
say "done in $((end - start)) s: dist/BattleStudio ($size)"
say "check it with: $VPY packaging/check_bundle.py"
