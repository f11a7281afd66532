"""The layering of DESIGN.md holds: import-linter contracts, and no Qt below the ui package."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import battlestudio

ROOT = Path(__file__).resolve().parents[1]


def non_ui_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(battlestudio.__path__, "battlestudio."):
        if info.name.startswith("battlestudio.ui") or info.name == "battlestudio.__main__":
            continue
        names.append(info.name)
    return names


def test_import_linter_contracts_hold() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broken" not in result.stdout.lower().replace("0 broken", "")


def test_every_non_ui_module_imports_without_qt() -> None:
    modules = non_ui_modules()
    assert "battlestudio.model.scenario" in modules and "battlestudio.cli" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'PySide6')\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"PySide6 loaded by non-ui modules: {result.stdout}"
