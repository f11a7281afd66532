"""Every bundled battle is what its scripts make of the shared data, byte for byte: the build
script's scenario, with the game its record script plays (if it has one), saved as
``.battle.json``. A rules change that alters a recorded game shows here; rerun the scripts."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle

SCEN = Path(__file__).resolve().parents[2] / "scenarios"
BUNDLED = [
    ("elchingen-1805.battle.json", "build_elchingen", None),
    ("jena-1806.battle.json", "build_jena", "record_jena"),
    ("auerstedt-1806.battle.json", "build_auerstedt", None),
    ("leipzig-1813.battle.json", "build_leipzig", "record_leipzig"),
    ("waterloo-1815.battle.json", "build_waterloo", None),
]


def script(name: str):
    """The module ``scenarios/<name>.py`` (its folder on the path for ``_build`` and friends)."""
    if str(SCEN) not in sys.path:
        sys.path.insert(0, str(SCEN))
    spec = importlib.util.spec_from_file_location(name, SCEN / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_bundled_file_is_listed():
    assert sorted(p.name for p in SCEN.glob("*.battle.json")) == sorted(f for f, _, _ in BUNDLED)


@pytest.mark.parametrize("name,build,record", BUNDLED, ids=[f for f, _, _ in BUNDLED])
def test_the_committed_file_is_byte_for_byte_what_its_scripts_make(name, build, record, tmp_path):
    battle = Battle(script(build).build(), [])
    if record is not None:
        script(record).record(battle)
    out = tmp_path / name
    store.save(battle, out)
    assert out.read_bytes() == (SCEN / name).read_bytes()
