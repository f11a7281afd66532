"""CSV/XLSX orders of battle through a TOML column mapping: real tables and malformed rows."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl
import pytest

from battlestudio.model.units import Arm
from battlestudio.store.importers.common import OobImportError
from battlestudio.store.importers.tabular import import_table, load_mapping

DATA = Path("/work/shared/data/oob")
MAPS = Path(__file__).parent / "data"


def test_fogofwar_force_unit_as_a_table_keeps_every_man_and_gun():
    res = import_table(DATA / "fogofwar/force_unit.csv", MAPS / "fogofwar_force_unit.toml")
    with open(DATA / "fogofwar/force_unit.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    sc = res.scenario
    men = sum(u.men for u in sc.units.values()) + sum(c.attributes.get("stated_men", 0) for c in sc.commanders.values())
    guns = sum(u.guns for u in sc.units.values()) + sum(
        c.attributes.get("stated_guns", 0) for c in sc.commanders.values()
    )
    assert men == sum(int(r["bayonets"]) + int(r["sabres"]) for r in rows)
    assert guns == sum(int(r["guns"]) for r in rows) == 497 + 92 + 38  # Jena-Auerstedt, Eylau, Elchingen
    forces = {r["force_id"] for r in rows}
    assert len(res.roots) == len(forces)  # one command created per force_id prefix
    marcognet = next(u for u in sc.units.values() if u.name == "Bde de Marcognet")
    assert (marcognet.men, marcognet.arm, marcognet.quality) == (2900, Arm.INFANTRY, "crack")
    # rows nested under battery rows: the battery row becomes a command and the nesting is reported
    assert any(w.severity == "note" and "read as a command" in w.message for w in res.warnings)
    # the mapping gives no echelon for levels 5 and 6: a warning per such row, naming the row
    rows5 = [n for n, r in enumerate(rows, start=2) if r["utype"] == "1" and r["cmd_level"] in ("5", "6")]
    assert sorted(w.line for w in res.problems() if "unknown echelon" in w.message) == rows5
    assert sc.sources[-1].licence.startswith("MIT")


def test_waterloo_from_level_columns():
    res = import_table(DATA / "waterloo-1815-from-pages.csv", MAPS / "waterloo_levels.toml")
    sc = res.scenario
    # the only problems: units whose men and guns cells are empty, one warning each, naming the row
    source = list(csv.DictReader(open(DATA / "waterloo-1815-from-pages.csv", encoding="utf-8")))
    empty = sorted(u.attributes["source_row"] for u in sc.units.values() if u.men == 0 and u.guns == 0)
    blank = [w for w in res.problems() if "has no men and no guns" in w.message]
    assert sorted(w.line for w in blank) == empty and len(empty) == 67
    assert all("has no men and no guns (column(s) 'men' empty or 0)" in w.message for w in blank)
    # and command rows whose stated totals the units under them do not reach, each named with both numbers
    stated = {w.line: w.message for w in res.problems() if w not in blank}
    assert all("they disagree" in m for m in stated.values()) and len(stated) == 13
    assert stated[2].startswith("Armée du Nord: 73,000 men stated, 0 in the units under it; 252 guns stated")
    assert stated[91].startswith("IV Corps: 32,000 men stated, 34,052 in the units under it")
    iv_row = next(c for c in sc.commanders.values() if c.attributes.get("source_row") == 91)
    assert iv_row.attributes["stated_men"] == 32000
    assert all(not source[n - 2]["men"] and not source[n - 2]["guns"] for n in empty)
    assert sum(1 for u in sc.units.values() if u.men == 0 and u.side == "french") == 36
    assert sc.validate_oob() == []
    napoleon = next(c for c in sc.commanders.values() if c.name == "Napoleon")
    assert (napoleon.echelon, napoleon.side, napoleon.attributes["stated_men"]) == ("army", "french", 73000)
    assert napoleon.attributes["stated_guns"] == 252
    iv = next(c for c in sc.commanders.values() if c.attributes["formation"] == "IV Corps" and c.side == "prussian")
    brigades = sorted(
        sc.units[u].men for u in sc.oob.all_subordinates(iv.id) if u in sc.units and sc.units[u].arm is Arm.INFANTRY
    )
    assert brigades == [6423, 6560, 7138, 7143]
    # two Old Guard brigade rows (Friant, Morand) stay two units
    old_guard = [u for u in sc.units.values() if u.name == "Old Guard brigade"]
    assert sorted(u.attributes["commander"] for u in old_guard) == ["Friant", "Morand"]
    assert set(sc.sides) == {"french", "allied", "prussian"}


ID_MAPPING = {
    "hierarchy": {"id": "id", "parent": "parent"},
    "columns": {
        "name": "name",
        "commander": "general",
        "men": "men",
        "guns": "guns",
        "arm": "arm",
        "quality": "grade",
        "echelon": "level",
    },
    "defaults": {"side": "prussian", "nation": "Prussia", "year": 1813},
}
ROWS = [
    ["id", "parent", "name", "general", "men", "guns", "arm", "grade", "level"],
    ["1", "", "Prussian Corps", "von Kleist", "", "", "", "", "corps"],
    ["2", "1", "9th Brigade", "Klux", "", "", "", "", "brigade"],
    ["3", "2", "1st W.Prussian line regiment", "", "2,400", "", "inf", "veteran", ""],
    ["4", "2", "6th reserve regiment", "", "lots", "", "inf", "green", ""],
    ["5", "2", "Neumark Dragoons", "", "-300", "", "cav", "regular", ""],
    ["6", "2", "9 Bty", "", "", "8", "art", "superb", ""],
    ["7", "99", "Lost battalion", "", "500", "", "inf", "", ""],
    ["8", "2", "Silesian Schutzen", "", "600", "", "rifles", "", ""],
]


def _check_id_import(res, file: Path) -> None:
    sc = res.scenario
    probs: dict[int, str] = {}
    for w in res.problems():
        probs[w.line] = probs.get(w.line, "") + w.message + "; "
    assert set(probs) == {5, 6, 7, 8, 9}
    assert all(w.file == str(file) for w in res.problems())
    assert "'lots' is not a number" in probs[5]
    assert "negative strength -300" in probs[6]
    assert "unknown quality 'superb'" in probs[7]
    assert "parent id '99' not found" in probs[8]
    assert "unknown arm 'rifles'" in probs[9]
    klux = next(c for c in sc.commanders.values() if c.name == "Klux")
    assert klux.echelon == "division"  # a Prussian brigade acts as a division (Torden over Europa 1.3)
    assert next(u for u in sc.units.values() if u.name.startswith("1st W.")).men == 2400
    assert next(u for u in sc.units.values() if u.name == "9 Bty").guns == 8
    assert len(sc.units) == 6 and len(sc.commanders) == 2
    assert res.summary.units_by_arm == {"artillery": 1, "cavalry": 1, "infantry": 4}


def test_id_parent_csv_with_bad_rows(tmp_path):
    f = tmp_path / "kleist.csv"
    with open(f, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(ROWS)
    _check_id_import(import_table(f, ID_MAPPING), f)


def test_id_parent_xlsx_with_bad_rows(tmp_path):
    f = tmp_path / "kleist.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "OOB"
    for r in ROWS:
        ws.append([int(c) if c.isdigit() else c for c in r])
    wb.save(f)
    _check_id_import(import_table(f, {**ID_MAPPING, "hierarchy": {**ID_MAPPING["hierarchy"], "sheet": "OOB"}}), f)


def test_bad_mappings_and_files_name_the_culprit(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[hierarchy]\npath = "path"\n[columns]\nname = "name"\n[values.arm]\n"1" = "dragons"\n')
    with pytest.raises(OobImportError, match=r"bad.toml: values.arm.1 = 'dragons'"):
        load_mapping(bad)
    bad.write_text("[hierarchy\n")
    with pytest.raises(OobImportError, match="bad.toml: not valid TOML"):
        load_mapping(bad)
    with pytest.raises(OobImportError, match="exactly one of path, id"):
        load_mapping({"hierarchy": {}, "columns": {"name": "n"}})
    with pytest.raises(OobImportError, match=r"column\(s\) 'nosuch'"):
        import_table(
            DATA / "waterloo-1815-from-pages.csv", {"hierarchy": {"levels": ["army"]}, "columns": {"men": "nosuch"}}
        )
    with pytest.raises(OobImportError, match="missing.csv"):
        import_table(tmp_path / "missing.csv", ID_MAPPING)
    junk = tmp_path / "junk.xlsx"
    junk.write_text("not a workbook")
    with pytest.raises(OobImportError, match="junk.xlsx: not a readable XLSX"):
        import_table(junk, ID_MAPPING)


MAP_DOC = Path(__file__).resolve().parents[3] / "docs" / "import-mapping.md"


@pytest.mark.parametrize(
    "toml,message",
    [
        (
            "[hierarchy]\nlevels = 5\n[columns]\nmen = 7\n",
            r"bad.toml: \[hierarchy\] levels = 5: expected a list of column names",
        ),
        (
            '[hierarchy]\nlevels = ["army"]\n[columns]\nmen = 7\n',
            r"bad.toml: \[columns\] men = 7: expected a column name or a list of them",
        ),
        (
            '[hierarchy]\nlevels = ["army", "army"]\n',
            r"bad.toml: \[hierarchy\] levels = \['army', 'army'\]: column 'army' is named twice",
        ),
        (
            '[hierarchy]\nlevels = ["army"]\n[bogus]\nx = 1\n',
            r"bad.toml: unknown section \[bogus\]; known sections: \[hierarchy\], \[columns\], \[values\], "
            r"\[defaults\], \[source\]",
        ),
        (
            '[hierarchy]\nlevels = ["army"]\n[columns]\nmenn = "men"\n',
            r"bad.toml: unknown key 'menn' in \[columns\]; known keys: name, commander, men",
        ),
        (
            '[hierarchy]\nlevels = ["army"]\n[values.side]\nFrench = 5\n',
            r"bad.toml: \[values.side\] 'French' = 5: expected a side name",
        ),
        (
            '[hierarchy]\nlevels = ["army"]\n[values.colour]\nred = "x"\n',
            r"bad.toml: unknown key 'colour' in \[values\]; known keys: arm, subtype, quality, echelon, side",
        ),
        (
            '[hierarchy]\npath = "path"\nseparator = 1\n[columns]\nname = "name"\n',
            r"bad.toml: \[hierarchy\] separator = 1: expected a separator",
        ),
        (
            '[hierarchy]\nlevels = ["army"]\n[defaults]\nyear = "eighteen-six"\n',
            r"bad.toml: \[defaults\] year = 'eighteen-six': expected a year",
        ),
        (
            '[hierarchy]\nlevels = ["army"]\n[defaults]\nquality = "heroic"\n',
            r"bad.toml: \[defaults\] quality = 'heroic' is not one of guard, elite",
        ),
        ("hierarchy = 3\n", r"bad.toml: \[hierarchy\] = 3: expected a table"),
    ],
)
def test_malformed_mappings_are_refused_naming_file_key_and_value(tmp_path, toml, message):
    bad = tmp_path / "bad.toml"
    bad.write_text(toml, encoding="utf-8")
    with pytest.raises(OobImportError, match=message):
        load_mapping(bad)


def test_the_documented_example_mapping_is_valid_and_imports_waterloo(tmp_path):
    text = MAP_DOC.read_text(encoding="utf-8")
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    f = tmp_path / "example.toml"
    f.write_text(example, encoding="utf-8")
    m = load_mapping(f)
    assert m.mode == "levels" and m.defaults["year"] == 1815
    res = import_table(DATA / "waterloo-1815-from-pages.csv", f)
    assert {"french", "allied", "prussian"} <= set(res.scenario.sides)
    assert all(u.bases is None for u in res.scenario.units.values())  # no bases column mapped


def test_a_bases_column_gives_units_without_a_head_count_their_battalions():
    # the Leipzig French table gives some brigades battalions and no men (Millar's brigades of III Corps)
    mapping = Path(__file__).resolve().parents[3] / "scenarios" / "leipzig-1813-french.map.toml"
    res = import_table(DATA / "leipzig-1813-french-from-pages.csv", mapping)
    sc = res.scenario
    bony = next(u for u in sc.units.values() if u.name == "Brigade Bony")
    assert (bony.men, bony.bases, bony.arm) == (0, 7, Arm.INFANTRY)
    warned = {w.message.split("'")[1] for w in res.problems() if "has no men and no guns" in w.message}
    assert "Brigade Bony" not in warned and "Brigade Vandeden" in warned  # Vandeden: no battalion count
    vandeden = next(u for u in sc.units.values() if u.name == "Brigade Vandeden")
    assert vandeden.bases is None  # an empty cell is "not given", not 0 bases
    from battlestudio.rules.toe.scale import convert_to_toe

    toe, _ = convert_to_toe(sc)
    assert (toe.units[bony.id].figures, toe.units[bony.id].men) == (42, 4200)  # 7 bases x 6 figures x 100 men
