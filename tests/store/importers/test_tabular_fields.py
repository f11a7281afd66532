"""A mapping built column by column (the Import dialog's table), estimates such as "c. 400",
command rows' stated totals checked against their units, and what the conversion to Torden over
Europa's scale takes off the order of battle, each a warning."""

from __future__ import annotations

import tomllib
from pathlib import Path

from battlestudio.model.units import Arm, Subtype
from battlestudio.store.importers import import_oob
from battlestudio.store.importers.tabular import estimate, import_table, read_header
from battlestudio.store.importers.tabular_mapping import (
    as_spec,
    dump_mapping,
    fields_of,
    guess_fields,
    load_mapping,
    spec_from_fields,
)

ODD = Path(__file__).parents[2] / "data/import/odd-headers.csv"
FIELDS = {
    "Ref": "id",
    "Reports To": "parent",
    "Formation": "name",
    "Général": "commander",
    "Troop Type": "arm",
    "Kind": "subtype",
    "Bayonets": "men",
    "Sabres": "men",
    "Canons": "guns",
    "Figs": "figures",
    "Camp": "side",
}
DOCS = Path(__file__).parents[3] / "docs/import-mapping.md"


def test_estimates_read_as_their_number():
    assert [
        estimate(t) for t in ("c. 400", "c.400", "ca 400", "~400", "~ 2,500", "400?", "about 1,200", "circa 30")
    ] == [
        400,
        400,
        400,
        400,
        2500,
        400,
        1200,
        30,
    ]
    assert [estimate(t) for t in ("400", "c.", "four hundred", "-400?", "400 men")] == [None] * 5


def test_the_guess_reads_odd_headers_and_the_rest_is_left_unread():
    header, first = read_header(ODD, "csv", rows=2)
    assert header[:3] == ["Ref", "Reports To", "Formation"]
    assert [r["Formation"] for r in first] == ["Armee de Boheme (part)", "Brigade Mohr"]
    guess = guess_fields(header)
    assert guess == {**FIELDS, "Ref": "", "Camp": ""}  # no id column found, no side word
    # level columns are numbered in header order; bayonets and sabres are both men
    g = guess_fields(["side", "army", "corps", "division", "brigade", "commander", "arm", "men", "guns", "Bayonets"])
    assert [g[c] for c in ("army", "corps", "division", "brigade")] == ["level 1", "level 2", "level 3", "level 4"]
    assert (g["side"], g["men"], g["Bayonets"], g["guns"]) == ("side", "men", "men", "guns")


def test_fields_to_toml_and_back():
    keep = {"defaults": {"year": 1813, "nation": "Austria"}, "source": {"title": 'Klenau "part" \\ test'}}
    spec = spec_from_fields(FIELDS, keep)
    assert spec["hierarchy"] == {"id": "Ref", "parent": "Reports To"}
    assert spec["columns"]["men"] == ["Bayonets", "Sabres"]
    text = dump_mapping(spec, "made in the Import dialog")
    assert text.startswith("# made in the Import dialog\n\n[hierarchy]\n")
    again = load_mapping(tomllib.loads(text))
    assert as_spec(again) == spec and fields_of(again) == FIELDS
    # the documented example survives the same round trip
    example = DOCS.read_text(encoding="utf-8").split("```toml\n")[1].split("```")[0]
    m = load_mapping(tomllib.loads(example))
    assert load_mapping(tomllib.loads(dump_mapping(as_spec(m)))) == m
    assert spec_from_fields(fields_of(m), as_spec(m)) == as_spec(m)


def test_estimates_subtypes_figures_and_stated_totals_from_a_hand_made_table():
    res = import_table(ODD, spec_from_fields(FIELDS, {"defaults": {"nation": "Austria", "year": 1813}}))
    sc = res.scenario
    by_name = {u.name: u for u in sc.units.values()}
    karl = by_name["IR Erzherzog Karl"]
    assert (karl.men, karl.subtype, karl.attributes["men_estimated"]) == (2400, Subtype.LINE_INFANTRY, True)
    assert by_name["Grenz-Jäger"].men == 1800 and by_name["Grenz-Jäger"].subtype is Subtype.LIGHT_INFANTRY
    chev = by_name["Chevaulegers Hohenzollern"]
    assert (chev.arm, chev.subtype, chev.men, chev.figures) == (Arm.CAVALRY, Subtype.LIGHT_CAVALRY, 720, 6)
    est = [(w.line, w.message) for w in res.problems() if "estimate" in w.message]
    assert (4, "column 'Bayonets': 'c. 2400' read as an estimate of 2,400") in est
    assert (5, "column 'Bayonets': '1,800?' read as an estimate of 1,800") in est
    assert sorted({n for n, _ in est}) == [2, 4, 5, 6]  # each estimate named by its row (the header is row 1)
    klenau = next(c for c in sc.commanders.values() if c.attributes["formation"] == "Armee de Boheme (part)")
    assert klenau.attributes["stated_men"] == 26500 and klenau.attributes["stated_estimated"] is True
    stated = {w.line: w for w in res.warnings if "stated" in w.message}
    assert stated[2].severity == "warning" and stated[2].message.startswith(
        "Armee de Boheme (part): 26,500 men stated, 5,530 in the units under it; 40 guns stated, 24 in the units"
    )
    assert stated[7].message.startswith("Artillery Reserve: 1,202 men stated, 180 in the units under it")


def test_the_conversion_warns_for_every_battery_row_and_command_it_removes_and_keeps_horse_as_horse():
    res = import_oob([ODD], "csv", mapping=spec_from_fields(FIELDS, {"defaults": {"nation": "Austria"}}))
    sc = res.scenario
    dropped = [w for w in res.problems() if w.file == "conversion to Torden over Europa scale"]
    rows = {w.message.split(" (")[0]: w.message for w in dropped}
    assert set(rows) == {
        "12-pdr Position Bty 1",
        "Reitende Batterie 2",
        "Cavalry battery",
        "6-pdr Brigade Bty 3",
        "Artillery Reserve",
    }
    assert (
        "row 8; 180 men, 6 guns): battery row removed: its 1 12-pdr artillery batteries of Artillery Reserve "
        "make no gun model" in rows["12-pdr Position Bty 1"]
    )
    assert (
        "row 9; 160 men, 6 guns): battery row removed: regrouped with the 2 horse artillery"
        in rows["Reitende Batterie 2"]
    )
    reserve = rows["Artillery Reserve"]
    assert "row 7; 180 men in its batteries, 1,202 men stated): artillery command removed" in reserve
    assert reserve.endswith("its unrepresented guns and men moved to Klenau")
    assert not any(c.attributes.get("formation") == "Artillery Reserve" for c in sc.commanders.values())
    cats = [u.attributes["gun_category"] for u in sc.units.values() if u.arm is Arm.ARTILLERY]
    assert cats == ["horse"]  # the two horse batteries make one horse gun model, not foot
    guns = sum(u.guns for u in sc.units.values()) + sum(
        sum(c.attributes.get("unrepresented_guns", {}).values()) for c in sc.commanders.values()
    )
    assert guns == 24  # every real gun accounted for: 12 in the model, 12 unrepresented
    chev = next(u for u in sc.units.values() if u.name == "Chevaulegers Hohenzollern")
    assert chev.figures == 6  # the source's figures are kept
