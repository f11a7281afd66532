"""The one entry point behind ``battlestudio import-oob``."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.rules.toe.scale import FIGURES_PER_BASE
from battlestudio.store.importers import OobImportError, import_oob

DATA = Path("/work/shared/data/oob")
JENA = DATA / "republique5/scenarios/jena-auerstadt-1806"


def test_oob_files_into_one_scenario_and_saved(tmp_path):
    res = import_oob([JENA / "V-Corps.oob", JENA / "Hohenlohe.oob"], "oob")
    sc = res.scenario
    assert set(sc.sides) == {"france", "prussia"}
    assert sc.validate_oob() == []
    assert all(
        u.figures == u.bases * FIGURES_PER_BASE[u.arm.value] > 0
        for u in sc.units.values()
        if u.arm.value != "artillery"
    )  # bases → figures (issue 20)
    assert any("figures per base (placeholder)" in w.message for w in res.warnings)  # the estimate is noted
    out = tmp_path / "jena.battle.json"
    store.save(Battle(sc), out)
    assert store.load(out).scenario.units == sc.units


def test_fogofwar_by_scenario_id_converted():
    res = import_oob([DATA / "fogofwar"], "fogofwar", scenario_id=18)
    assert res.summary.men == 38_620
    assert res.summary.batteries == 2  # gun models after the one-third rule
    assert any(w.file.startswith("conversion") for w in res.warnings)
    assert not [w for w in res.warnings if w.message.startswith("order of battle: ")]


def test_fogofwar_unconverted_keeps_batteries():
    res = import_oob([DATA / "fogofwar" / "force.csv"], "fogofwar", scenario_id=18, convert=False)
    assert res.summary.batteries == 7 and res.summary.guns == 38


def test_csv_needs_a_mapping_and_unknown_format_is_named():
    with pytest.raises(OobImportError, match="needs a column mapping"):
        import_oob([DATA / "waterloo-1815-from-pages.csv"], "csv")
    with pytest.raises(OobImportError, match="unknown format 'json'"):
        import_oob([DATA / "waterloo-1815-from-pages.csv"], "json")


def test_csv_with_mapping_reports_validation_problems_as_warnings():
    res = import_oob(
        [DATA / "waterloo-1815-from-pages.csv"], "csv", mapping=Path(__file__).parent / "data" / "waterloo_levels.toml"
    )
    sc = res.scenario
    crews = sum(n for c in sc.commanders.values() for n in c.attributes.get("unrepresented_men", {}).values())
    assert res.summary.men + crews == 46_412
    assert crews == 1_202  # Prussian IV Corps artillery: one battery row, no guns given -> no gun model
