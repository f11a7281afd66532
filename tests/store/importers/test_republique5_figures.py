"""Every republique5 ``.oob`` of the shared data imports with figures for every unit that has
bases (bases × the per-arm placeholder ratio, men estimated from figures and flagged), and unit
details lose no bracket."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlestudio.rules.toe.scale import FIGURES_PER_BASE, MEN_PER_INFANTRY_FIGURE
from battlestudio.store.importers import import_oob
from battlestudio.store.importers.republique5 import import_republique5

OOBS = sorted(Path("/work/shared/data/oob").rglob("*.oob"))


def test_there_are_shared_oob_files():
    assert len(OOBS) >= 40


@pytest.mark.parametrize("path", OOBS, ids=lambda p: p.name)
def test_every_unit_with_bases_gets_figures(path):
    raw = import_republique5([path]).scenario
    res = import_oob([path], "oob")
    sc = res.scenario
    with_bases = [u for u in raw.units.values() if u.bases and u.arm.value != "artillery"]
    for u in with_bases:
        got = sc.units[u.id]
        assert got.figures == u.bases * FIGURES_PER_BASE[u.arm.value] > 0, (path.name, u.name)
        assert got.men > 0 and got.attributes["men_estimated"] is True
    guns = [u for u in sc.units.values() if u.arm.value == "artillery"]
    assert all(u.figures > 0 for u in guns)
    assert sc.info.parameters["toe.placeholder.figures_per_base.infantry"] == FIGURES_PER_BASE["infantry"]


def test_figures_and_estimated_men_of_a_known_line(tmp_path):
    f = tmp_path / "c.oob"
    f.write_text("!French 1806\nIII Corps - Davout\n  1 Div - Morand\n    Bde X - 4 bases (IR 52, 53)\n")
    raw = import_republique5([f]).scenario
    (u,) = raw.units.values()
    assert u.attributes["details"] == "IR 52, 53"  # no stray ")"
    conv = import_oob([f], "oob").scenario.units[u.id]
    assert conv.figures == 4 * FIGURES_PER_BASE["infantry"]
    assert conv.men == conv.figures * MEN_PER_INFANTRY_FIGURE
    assert "estimated" not in u.attributes.get("men_estimate", "") and "bases" in conv.attributes["men_estimate"]
