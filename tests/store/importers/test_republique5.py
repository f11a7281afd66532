"""The republique5 .oob importer on every real file, and on malformed lines."""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

import pytest

from battlestudio.model.units import Arm, Echelon, Quality, Subtype
from battlestudio.store.importers.common import OobImportError
from battlestudio.store.importers.republique5 import import_republique5

DATA = Path("/work/shared/data/oob")
OOB_FILES = sorted((DATA / "republique5" / "scenarios").glob("*/*.oob")) + [DATA / "leipzig-1813-french.oob"]


def _count_lines(path: Path) -> tuple[int, int]:
    """(unit lines, command lines) counted straight from the text."""
    units = commands = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        s = line.strip()
        if not s or s.startswith("!"):
            continue
        if re.search(r" - \d+ bases?\b", s) or re.search(r" - (HvF|MdF|LtF|MdH|LtH)\b", s):
            units += 1
        else:
            commands += 1
    return units, commands


def test_all_files_found():
    assert len(OOB_FILES) == 44  # 12 Jena-Auerstedt, 31 Leipzig allied, 1 Leipzig French


@pytest.mark.parametrize("path", OOB_FILES, ids=lambda p: p.name)
def test_every_oob_file_imports_with_counts_matching_its_lines(path: Path):
    res = import_republique5(path)
    units, commands = _count_lines(path)
    assert len(res.scenario.units) == units
    assert len(res.scenario.commanders) == commands
    assert res.summary.batteries == sum(1 for u in res.scenario.units.values() if u.arm is Arm.ARTILLERY)
    assert res.scenario.validate_oob() == []
    # nothing but notes, except the one real indentation slip in the Russian 1st Cavalry Corps file
    expected_problems = 3 if path.name == "Russian-1-Cavalry-Corps.oob" else 0
    assert len(res.problems()) == expected_problems


def test_counts_agree_with_the_derived_csv():
    ref = Counter()
    with open(DATA / "republique5" / "oob_units.csv", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            ref[(r["file"], "command" if r["kind"] == "command" else "unit")] += 1
    for path in OOB_FILES[:-1]:
        sc = import_republique5(path).scenario
        assert (len(sc.units), len(sc.commanders)) == (ref[(path.name, "unit")], ref[(path.name, "command")]), path.name


def test_vi_corps_1806_structure_and_grades():
    res = import_republique5(DATA / "republique5/scenarios/jena-auerstadt-1806/VI-Corps.oob")
    sc = res.scenario
    [root] = res.roots
    ney = sc.commanders[root]
    assert (ney.name, ney.echelon, ney.side, ney.nation) == ("Ney", "corps", "france", "France")
    divs = [sc.commanders[c] for c in sc.oob.subordinates(root) if c in sc.commanders]
    assert [d.name for d in divs] == ["Charbanais", "Corps Artillery", "Marchand", "Gardanne"]
    marchand = divs[2]
    assert marchand.echelon == Echelon.DIVISION.value
    units = [sc.units[u] for u in sc.oob.subordinates(marchand.id)]
    assert [(u.name, u.bases, u.quality, u.subtype) for u in units] == [
        ("6eme Legere", 4, "veteran", Subtype.LIGHT_INFANTRY),
        ("39eme Ligne", 4, "veteran", Subtype.LINE_INFANTRY),
        ("69eme Ligne", 4, "regular", Subtype.LINE_INFANTRY),
        ("76eme Ligne", 4, "regular", Subtype.LINE_INFANTRY),
    ]
    hussars = next(u for u in sc.units.values() if u.name == "9eme Hussars")
    assert (hussars.arm, hussars.subtype, hussars.bases) == (Arm.CAVALRY, Subtype.LIGHT_CAVALRY, 1)
    bty = next(u for u in sc.units.values() if u.name == "1eme Bty")
    assert bty.arm is Arm.ARTILLERY and bty.attributes["gun_category"] == "foot"
    assert res.summary.units_by_arm == {"artillery": 2, "cavalry": 2, "infantry": 8}
    assert res.summary.commanders_by_echelon == {"corps": 1, "division": 4}


def test_default_grade_and_battery_grade():
    sc = import_republique5(DATA / "republique5/scenarios/jena-auerstadt-1806/Imperial-Guard-Corps.oob").scenario
    horse = next(u for u in sc.units.values() if u.name == "Horse Bty")
    assert horse.subtype is Subtype.HORSE_ARTILLERY and horse.quality == Quality.ELITE.value
    fd = next(u for u in sc.units.values() if u.name == "Foot Dragoons")
    assert fd.quality == "guard"
    sc3 = import_republique5(DATA / "republique5/scenarios/jena-auerstadt-1806/III-Corps.oob").scenario
    assert next(u for u in sc3.units.values() if u.name == "51eme Ligne").quality == "veteran"  # !Veteran default


def test_prussian_1813_brigade_acts_as_division():
    res = import_republique5(DATA / "republique5/scenarios/leipzig-1813/Prussian-Corps.oob")
    sc = res.scenario
    klux = next(c for c in sc.commanders.values() if c.name == "Klux")
    assert klux.echelon == "division" and klux.attributes["source_echelon"] == "brigade"
    assert any("Prussian brigade acts as a division" in w.message and w.line == 4 for w in res.warnings)
    bde12 = import_republique5(DATA / "republique5/scenarios/leipzig-1813/Prussian-12-Bde.oob").scenario
    lines = [c for c in bde12.commanders.values() if c.name in ("First Line", "Second Line")]
    assert [c.echelon for c in lines] == ["brigade", "brigade"]
    assert bde12.validate_oob() == []


def test_cavalry_from_name_when_no_type_word():
    sc = import_republique5(DATA / "leipzig-1813-french.oob").scenario
    cav = next(u for u in sc.units.values() if u.name == "III Corps Cavalry")
    assert cav.arm is Arm.CAVALRY and cav.bases == 6
    assert sum(u.bases for u in sc.units.values() if u.arm is not Arm.ARTILLERY) == 251


def test_malformed_lines_warn_with_file_and_line_and_the_rest_imports(tmp_path):
    f = tmp_path / "bad.oob"
    f.write_text(
        "!French 1806\n"
        "!Indent 2\n"
        "!Sparkly\n"
        "VI-Corps - Ney\n"
        "   1eme Division - Marchand\n"  # 3 spaces: bad indentation
        "    6eme Legere - 4 bases superduper light\n"  # unknown grade
        "    39eme Ligne - -3 bases veteran line\n"  # negative strength
        "    69eme Ligne - 4 bazes line\n"  # not understood
        "    Bty - XxF\n"  # unknown battery code
        "        76eme Ligne - 4 bases line\n"  # jumps two levels
        "  2nd Division - Gardanne\n"
        "    25eme Legere - 4 bases veteran light\n",
        encoding="utf-8",
    )
    res = import_republique5(f)
    by_line = {w.line: w for w in res.problems()}
    assert set(by_line) == {3, 5, 6, 7, 8, 9, 10}
    assert all(w.file == str(f) for w in by_line.values())
    assert "unknown directive" in by_line[3].message
    assert "bad indentation" in by_line[5].message
    assert "superduper" in by_line[6].message
    assert "negative strength -3" in by_line[7].message
    assert "not understood" in by_line[8].message
    assert "XxF" in by_line[9].message
    assert str(by_line[7]).startswith(f"{f}:7: warning:")
    sc = res.scenario
    names = sorted(u.name for u in sc.units.values())
    assert names == ["25eme Legere", "39eme Ligne", "6eme Legere", "76eme Ligne"]
    assert next(u for u in sc.units.values() if u.name == "39eme Ligne").bases == 0
    assert next(u for u in sc.units.values() if u.name == "6eme Legere").subtype is Subtype.LIGHT_INFANTRY
    assert sc.validate_oob() == []


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(OobImportError, match="nothere.oob"):
        import_republique5(tmp_path / "nothere.oob")
