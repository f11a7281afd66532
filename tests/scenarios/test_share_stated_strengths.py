"""``scenarios/_build.share_stated_strengths`` on a small table: stated totals shared among the
units with none, rows that state more than their formation kept, guns by men down to batteries."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scenarios"))

from _build import share_stated_strengths  # noqa: E402

from battlestudio.store.importers.tabular import import_table  # noqa: E402

MAPPING = {
    "hierarchy": {"levels": ["army", "corps", "division", "brigade"]},
    "columns": {"commander": "commander", "men": "men", "guns": "guns", "arm": "arm", "side": "side"},
}
ROWS = """side,army,corps,division,brigade,commander,arm,men,guns
Blue,Army,,,,A,,20000,40
Blue,Army,First,,,F,,10000,16
Blue,Army,First,1st Div,,D1,,,
Blue,Army,First,1st Div,Bde a,a,inf,,
Blue,Army,First,1st Div,Bde b,b,inf,3000,
Blue,Army,First,Cav Div,,C,cav,,
Blue,Army,Second,,,S,,,
Blue,Army,Second,2nd Div,,D2,inf,,
Blue,Army,Second,,Bde c,c,cav,,
Blue,Army,Second,,Guns,g,art,,
Blue,Army,Third,,,T,,1000,
Blue,Army,Third,,Bde d,d,inf,600,
Blue,Army,Third,,Bde e,e,inf,700,
Red,Other,,,,R,,,
Red,Other,Big,,,B,,5000,
"""


def _scenario(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text(ROWS, encoding="utf-8")
    sc = import_table(f, MAPPING).scenario
    levels = {
        "blue-bde-a": 3,
        "blue-bde-b": 3,
        "blue-cav-div": 2,
        "blue-2nd-div": 2,
        "blue-bde-c": 3,
        "blue-guns": 3,
    }
    notes = share_stated_strengths(sc, {"blue-army": (8, 6), "red-other": (8, 6)}, levels)
    return sc, {u.name: u for u in sc.units.values()}, notes


def test_men_are_shared_by_level_and_arm_and_stated_figures_are_kept(tmp_path):
    sc, u, notes = _scenario(tmp_path)
    # First: 10,000 less Bde b's 3,000 = 7,000 to Bde a (1 share) and the cavalry division (2 × ½)
    assert (u["Bde a"].men, u["Bde b"].men, u["Cav Div"].men) == (3500, 3000, 3500)
    # Army: 20,000 less First's 10,000 and Third's 1,300 = 8,700 to the 2nd Div (2) and Bde c (½)
    assert (u["2nd Div"].men, u["Bde c"].men) == (6960, 1740)
    # Third states 1,000 but its brigades 1,300: theirs are kept, and the army counts 1,300
    assert (u["Bde d"].men, u["Bde e"].men) == (600, 700)
    assert any("Third: the rows below state 1,300 men, more than its 1,000" in n for n in notes)
    blue = sum(x.men for x in sc.units.values() if x.side == "blue" and x.arm.value != "artillery")
    assert blue == 20_000
    assert (
        "strength_estimated" not in u["Bde b"].attributes
        and "men: share" in u["Bde a"].attributes["strength_estimated"]
    )
    # a formation that states men and has no rows below gets one unit carrying them
    assert u["Big"].men == 5000 and sc.oob.superior(u["Big"].id) == "red-big"


def test_guns_go_by_men_to_artillery_rows_or_new_batteries(tmp_path):
    sc, u, notes = _scenario(tmp_path)
    guns = {x.name: x.guns for x in sc.units.values() if x.guns}
    assert sum(guns.values()) == 40  # the army's stated guns, all placed
    # First's 16 go to its one sub-formation, 1st Div (the cavalry division is a unit, not a formation)
    assert sum(x.guns for x in sc.units.values() if x.name.startswith("1st Div artillery")) == 16
    assert [x.attributes["gun_category"] for x in sc.units.values() if x.name.startswith("1st Div art")] == ["foot"] * 2
    # the army's other 24 go by men to Second (8,700) and Third (1,300); Second's artillery row takes its share
    second = sum(x.guns for x in sc.units.values() if x.name.startswith("Guns"))
    third = sum(x.guns for x in sc.units.values() if x.name.startswith("Third artillery"))
    assert (second, third) == (21, 3)
    # laid out as batteries of 8 foot guns (at most), so Torden over Europa can count them
    assert all(x.guns <= 8 for x in sc.units.values() if x.arm.value == "artillery")
    assert len([x for x in sc.units.values() if x.name.startswith("Guns")]) == 3
