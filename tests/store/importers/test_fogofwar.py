"""The fogofwar tables importer on the real Jena-Auerstedt, Eylau and Elchingen data."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from battlestudio.model.units import Arm, Subtype
from battlestudio.store.importers.common import OobImportError
from battlestudio.store.importers.fogofwar import import_fogofwar

FOW = Path("/work/shared/data/oob/fogofwar")


def _source_totals(force_ids: set[str]) -> tuple[int, int, int]:
    bay = sab = guns = 0
    with open(FOW / "force_unit.csv", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["force_id"] in force_ids:
                bay += int(r["bayonets"] or 0)
                sab += int(r["sabres"] or 0)
                guns += int(r["guns"] or 0)
    return bay, sab, guns


def _forces_of(scenario_id: int) -> set[str]:
    with open(FOW / "force.csv", encoding="utf-8") as f:
        return {r["id"] for r in csv.DictReader(f) if r["scenario_id"] == str(scenario_id)}


@pytest.mark.parametrize("sid", [1, 17, 18])
def test_totals_match_the_tables(sid):
    res = import_fogofwar(FOW, scenario_id=sid)
    bay, sab, guns = _source_totals(_forces_of(sid))
    s = res.summary
    assert (s.men, s.guns) == (bay + sab, guns)
    assert s.horses == sab
    problems = [p for p in res.scenario.validate_oob() if p.code != "roots"]
    assert problems == []


def test_jena_auerstedt_matches_sources_md():
    s = import_fogofwar(FOW, scenario_id=1).summary
    assert s.guns == 497
    assert s.men == 231_100 + 38_882


def test_elchingen_oob():
    res = import_fogofwar(FOW, scenario_id=18)
    sc = res.scenario
    ney, riesch = (sc.commanders[r] for r in res.roots)
    assert (ney.name, ney.echelon, ney.side, ney.command_ability) == ("Marshal Michel Ney", "corps", "france", 1)
    assert ney.attributes["fogofwar_cmd_rating"] == "Highly Efficient"
    assert (riesch.name, riesch.side, riesch.command_ability) == ("FML Riesch", "austria", 0)
    loison = next(c for c in sc.commanders.values() if c.name == "Louis Henri Loison")
    assert sc.oob.superior(loison.id) == ney.id and loison.echelon == "division"
    marcognet = next(u for u in sc.units.values() if u.name == "Bde de Marcognet")
    assert (marcognet.men, marcognet.arm, marcognet.subtype) == (2900, Arm.INFANTRY, Subtype.LINE_INFANTRY)
    assert "25th Light" in marcognet.attributes["description"]
    # the horse battery nested under the foot battery row goes to Loison's division
    horse = next(u for u in sc.units.values() if u.name == "Horse Bty" and u.side == "france")
    assert sc.oob.superior(horse.id) == loison.id and horse.subtype is Subtype.HORSE_ARTILLERY
    assert any(w.line == 327 and "nested under unit row" in w.message for w in res.warnings)
    # Riesch's mixed brigades are split into infantry and cavalry
    avant = [
        u
        for u in sc.units.values()
        if u.name.startswith("Avantgarde") and u.side == "austria" and u.attributes["source_id"] == "force_unit:1294"
    ]
    assert sorted((u.arm.value, u.men) for u in avant) == [("cavalry", 300), ("infantry", 3400)]
    cuir = next(u for u in avant if u.arm is Arm.CAVALRY)
    assert cuir.subtype is Subtype.LIGHT_CAVALRY  # Blankenstein hussars
    assert res.problems() == []


def test_battalion_guns_and_attached_batteries():
    res = import_fogofwar(FOW, force_ids=[11])
    sc = res.scenario
    belv = next(u for u in sc.units.values() if u.name == "Bde Belvilaqua")
    assert belv.guns == 0
    bty = next(u for u in sc.units.values() if u.name == "Bde Belvilaqua battery")
    assert bty.arm is Arm.ARTILLERY and bty.guns == 6
    res10 = import_fogofwar(FOW, force_ids=[10])
    mueff = next(u for u in res10.scenario.units.values() if u.attributes["source_id"] == "force_unit:222")
    assert (mueff.guns, mueff.attributes["battalion_guns"]) == (2, 2)


def test_bad_rows_warn_with_row_numbers(tmp_path):
    d = tmp_path / "fow"
    shutil.copytree(FOW, d)
    rows = list(csv.reader(open(d / "force_unit.csv", encoding="utf-8")))
    header = rows[0]
    i_bay, i_rating, i_util = header.index("bayonets"), header.index("rating"), header.index("utype")
    target = next(n for n, r in enumerate(rows) if r[0] == "1318")  # Bde de Marcognet
    rows[target][i_bay] = "lots"
    other = next(n for n, r in enumerate(rows) if r[0] == "1319")
    rows[other][i_rating] = "42"
    third = next(n for n, r in enumerate(rows) if r[0] == "1315")
    rows[third][i_util] = "9"
    with open(d / "force_unit.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    res = import_fogofwar(d, scenario_id=18)
    probs = {w.line: w.message for w in res.problems()}
    assert "'lots' is not a whole number" in probs[target + 1]
    assert "unknown rating code '42'" in probs[other + 1]
    assert "unknown utype '9'" in probs[third + 1]
    assert all(w.file.endswith("force_unit.csv") for w in res.problems())
    assert not any(u.name == "Bde Roguet" for u in res.scenario.units.values())
    assert next(u for u in res.scenario.units.values() if u.name == "Bde de Marcognet").men == 0


def test_missing_tables_and_unknown_force(tmp_path):
    with pytest.raises(OobImportError, match="force.csv"):
        import_fogofwar(tmp_path)
    with pytest.raises(OobImportError, match="no force with id 999"):
        import_fogofwar(FOW, force_ids=[999])


def test_the_editors_copy_suffix_is_dropped_with_a_note_and_the_rows_kept():
    rows = {r["id"]: r for r in csv.DictReader(open(FOW / "force_unit.csv", encoding="utf-8"))}
    assert rows["108"]["name"] == "9e Hussar_Copy" and rows["97"]["name"] == "Corsican Legere_Copy"
    res = import_fogofwar(FOW, force_ids=[4, 5])
    by_source = {u.attributes["source_id"]: u for u in res.scenario.units.values()}
    hussars, corsicans = by_source["force_unit:108"], by_source["force_unit:97"]
    assert (hussars.name, hussars.men, hussars.arm) == ("9e Hussar", int(rows["108"]["sabres"]), Arm.CAVALRY)
    assert (corsicans.name, corsicans.men) == ("Corsican Legere", int(rows["97"]["bayonets"]))
    assert not any("_Copy" in u.name for u in res.scenario.units.values())
    notes = [w for w in res.warnings if "copy suffix" in w.message]
    assert sorted(w.line for w in notes) == [77, 100]  # the rows' line numbers in force_unit.csv
    assert all(w.severity == "note" and w.file.endswith("force_unit.csv") for w in notes)


def test_a_unit_row_with_no_strength_is_warned_with_its_row(tmp_path):
    d = tmp_path / "fow"
    shutil.copytree(FOW, d)
    rows = list(csv.reader(open(d / "force_unit.csv", encoding="utf-8", newline="")))
    head = rows[0]
    n = next(i for i, r in enumerate(rows) if r[0] == "108")  # 9e Hussar_Copy, 600 sabres
    rows[n][head.index("sabres")] = "0"
    m = next(i for i, r in enumerate(rows) if r[0] == "107")  # 10e Hussar: no sabres but 3 guns (crashed before)
    rows[m][head.index("sabres")], rows[m][head.index("guns")] = "0", "3"
    with open(d / "force_unit.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    res = import_fogofwar(d, force_ids=[5])
    probs = [w for w in res.problems() if "no bayonets, sabres or guns" in w.message]
    assert [(w.line, w.file) for w in probs] == [(n + 1, str(d / "force_unit.csv"))]
    assert "unit '9e Hussar' has no bayonets, sabres or guns; row skipped" in probs[0].message
    assert not any(u.attributes["source_id"] == "force_unit:108" for u in res.scenario.units.values())
    ten = [u for u in res.scenario.units.values() if u.attributes["source_id"] == "force_unit:107"]
    assert [(u.arm, u.guns) for u in ten] == [(Arm.ARTILLERY, 3)]
    assert not [w for w in import_fogofwar(FOW, scenario_id=1).problems() if "no bayonets" in w.message]


def test_a_repeated_force_or_unit_id_is_skipped_with_its_row(tmp_path):
    """A force row given twice (the fuzz run appended 1,943 copies of VI Corps) would import its
    whole subtree once per copy; the repeat is a warning naming its line, the first row is kept."""
    d = tmp_path / "fow"
    shutil.copytree(FOW, d)
    before = import_fogofwar(FOW, scenario_id=18).scenario
    for name, key in (("force.csv", "101"), ("force_unit.csv", "1318")):
        rows = list(csv.reader(open(d / name, encoding="utf-8")))
        n = next(i for i, r in enumerate(rows) if r[0] == key)
        rows[n + 1 : n + 1] = [rows[n]] * 3
        with open(d / name, "w", encoding="utf-8", newline="") as f:
            csv.writer(f).writerows(rows)
        last = n + 1 + 3  # the last copy's line in the file (header is line 1)
    res = import_fogofwar(d, scenario_id=18)
    repeats = [w for w in res.problems() if "given already" in w.message]
    assert len(repeats) == 6
    assert {w.file.rsplit("/", 1)[-1] for w in repeats} == {"force.csv", "force_unit.csv"}
    assert any(w.line == last and "'1318' was given already" in w.message for w in repeats)
    assert len(res.scenario.units) == len(before.units)
    assert len(res.scenario.commanders) == len(before.commanders)
