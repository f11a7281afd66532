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


def test_csv_without_a_mapping_is_guessed_and_unknown_format_is_named(tmp_path):
    res = import_oob([DATA / "waterloo-1815-from-pages.csv"], "csv")
    assert res.warnings[0].severity == "note" and "the columns were guessed" in res.warnings[0].message
    assert len(res.scenario.units) > 50
    bare = tmp_path / "bare.csv"
    bare.write_text("colour,size\nblue,3\n", encoding="utf-8")
    with pytest.raises(OobImportError, match="give a column mapping"):
        import_oob([bare], "csv")
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


def test_a_prussian_brigade_from_a_table_without_a_nation_column_is_read_by_1_3(tmp_path):
    """A table whose side column says "Prussian" and that has no nation column: its brigades are
    Prussian (the side's name gives the nation), so a brigade under a corps acts as a
    division (Torden over Europa 1.3, ``prussian_brigade_years``); before, the nation was empty and
    the brigade stayed a brigade without a note; and the regiment column was not read as an
    echelon (both found by a fresh tester)."""
    src = tmp_path / "kleist.csv"
    src.write_text(
        "side,army,corps,brigade,regiment,commander,men\n"
        "Prussian,Army of Bohemia,,,,Schwarzenberg,\n"
        "Prussian,Army of Bohemia,II Corps,,,Kleist,\n"
        "Prussian,Army of Bohemia,II Corps,9th Brigade,,Klux,\n"
        "Prussian,Army of Bohemia,II Corps,9th Brigade,1st West Prussian,,2400\n"
        "Prussian,Army of Bohemia,II Corps,9th Brigade,6th Reserve,,2600\n",
        encoding="utf-8",
    )
    res = import_oob([src], "csv", year=1813, convert=False)
    klux = next(c for c in res.scenario.commanders.values() if c.name == "Klux")
    assert klux.nation == "Prussia" and klux.echelon == "division"
    assert any("acts as a division (Torden over Europa 1.3)" in w.message for w in res.warnings)
    assert sorted(u.name for u in res.scenario.units.values()) == ["1st West Prussian", "6th Reserve"]
    assert "regiment as level 4" in res.warnings[0].message
    years = {"toe.prussian_brigade_years": [1806, 1813]}  # the assumed reading overridden: a period
    later = import_oob([src], "csv", year=1815, parameters=years, convert=False)
    assert next(c for c in later.scenario.commanders.values() if c.name == "Klux").echelon == "brigade"
