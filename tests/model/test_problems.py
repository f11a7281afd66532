"""Scenario problems for the Problems dock: each check fires on a realistic fault and names the
records at fault; a valid scenario has none."""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import Polygon

from battlestudio.model import Formation, TerrainFeature, TerrainKind
from battlestudio.model.problems import find_problems
from tests.elchingen import elchingen_scenario


def codes(s):
    return [(p.severity, p.code, p.ids) for p in find_problems(s)]


def test_valid_scenario_has_no_problems():
    assert find_problems(elchingen_scenario()) == []


def test_unit_partly_off_the_table_is_an_error():
    s = elchingen_scenario()
    # Villatte's line is 17 figures × 2 cm = 34 cm wide: centred at x = 10 it sticks out 7 cm
    s.units["u-villatte"] = s.units["u-villatte"].moved((10.0, 55.0))
    assert codes(s) == [("error", "off-table", ("u-villatte",))]
    assert find_problems(s)[0].message == "Bde Villatte is off the table"


def test_commander_off_the_table():
    s = elchingen_scenario()
    s.commanders["c-riesch"] = s.commanders["c-riesch"].moved((120.0, 181.0))
    assert codes(s) == [("error", "off-table", ("c-riesch",))]


def test_overlapping_units_but_not_touching_ones():
    s = elchingen_scenario()
    # Roguet's line (34 cm) front at x = 130 spans 113–147; put Delabassee's (32 cm) right next to it
    s.units["u-delabassee"] = s.units["u-delabassee"].moved((163.0, 55.0))  # 147–179: touching
    assert codes(s) == []
    s.units["u-delabassee"] = s.units["u-delabassee"].moved((160.0, 55.0))  # 144–176: 3 cm overlap
    assert codes(s) == [("warning", "overlap", ("u-roguet", "u-delabassee"))]


def test_unit_in_impassable_terrain():
    s = elchingen_scenario()
    s.terrain["t-quarry"] = TerrainFeature("t-quarry", TerrainKind.IMPASSABLE,
                                           Polygon([(185, 45), (200, 45), (200, 60), (185, 60)]), name="Quarry")
    assert ("error", "impassable", ("u-marcognet", "t-quarry")) in codes(s)


def test_town_over_capacity_and_idle_commander():
    s = elchingen_scenario()
    # two brigades in Unter-Elchingen (15 × 15 cm, capacity 1), one in column
    s.units["u-villatte"] = replace(s.units["u-villatte"].moved((120.0, 84.0)), formation=Formation.COLUMN)
    s.units["u-roguet"] = replace(s.units["u-roguet"].moved((120.0, 76.0)), formation=Formation.COLUMN, facing=270.0)
    s.oob.add("c-malher", "u-villatte")
    s.oob.add("c-malher", "u-roguet")
    s.oob.add("c-malher", "u-loison-bty")
    got = codes(s)
    assert ("warning", "town-capacity", ("z-unter", "u-villatte", "u-roguet")) in got
    assert ("warning", "no-subordinates", ("c-loison",)) in got


def test_oob_problems_come_first_as_errors():
    s = elchingen_scenario()
    s.oob.remove("c-colbert")
    got = codes(s)
    assert got[0][0] == "error" and all(c[1].startswith("oob:") for c in got[:3])
    assert ("error", "oob:unit-no-commander", ("u-10chass",)) in got
    assert ("error", "oob:roots", ("c-ney", "c-colbert")) in got
