"""Where BattleStudio's bundled files live: the one place that knows.

In a source checkout ``resources/`` and ``scenarios/`` sit at the repository root; in an
installed wheel they are packaged as ``battlestudio/resources`` and ``battlestudio/scenarios``
(pyproject ``force-include``); in a PyInstaller bundle (``sys.frozen``) they are data files
under ``sys._MEIPASS/battlestudio`` (packaging/battlestudio.spec). Everything else asks this module.
"""

from __future__ import annotations

import sys
from pathlib import Path

_FROZEN = (
    Path(sys._MEIPASS) / "battlestudio"  # PyInstaller's unpacked bundle
    if getattr(sys, "frozen", False) and hasattr(sys, "_MEIPASS")
    else None
)
_PACKAGE = Path(__file__).resolve().parents[1]  # .../battlestudio
_REPO = _PACKAGE.parents[1]  # .../<repo> when running from src/

DEFAULT_SCENARIO = "elchingen-1805.battle.json"
"""The scenario opened when the app starts with no file (the tutorial scenario)."""

SCENARIO_SUFFIXES = (".battle", ".battle.json")
"""File name endings of BattleStudio documents."""


def _first_dir(name: str) -> Path | None:
    for base in (_FROZEN, _PACKAGE, _REPO):
        if base is None:
            continue
        p = base / name
        if p.is_dir():
            return p
    return None


def resources_dir() -> Path | None:
    """The ``resources/`` folder (icons, rulesets), or None if neither location has one."""
    return _first_dir("resources")


def scenarios_dir() -> Path | None:
    """The ``scenarios/`` folder of bundled scenarios, or None if there is none."""
    return _first_dir("scenarios")


def is_battle_file(path: str | Path) -> bool:
    """True if ``path`` ends in ``.battle`` or ``.battle.json`` (case-insensitive)."""
    return str(path).lower().endswith(SCENARIO_SUFFIXES)


def is_bundled(path: str | Path) -> bool:
    """True if ``path`` is one of the bundled scenarios (a template the editor never overwrites)."""
    d = scenarios_dir()
    if d is None:
        return False
    try:
        return Path(path).resolve().parent == d.resolve()
    except OSError:
        return False


def bundled_scenarios() -> list[Path]:
    """Every bundled scenario file, sorted by name (empty when none are installed)."""
    d = scenarios_dir()
    if d is None:
        return []
    return sorted(p for p in d.iterdir() if p.is_file() and is_battle_file(p.name))


def default_scenario() -> Path | None:
    """The scenario to open when no file is given: ``DEFAULT_SCENARIO`` if bundled, else the
    first bundled scenario, else None."""
    found = bundled_scenarios()
    for p in found:
        if p.name == DEFAULT_SCENARIO:
            return p
    return found[0] if found else None


def resource(*parts: str) -> Path | None:
    """Path of a file under ``resources/`` (e.g. ``resource("icons", "app.svg")``), or None."""
    d = resources_dir()
    if d is None:
        return None
    p = d.joinpath(*parts)
    return p if p.exists() else None
