"""Where the troops stand (Elchingen 1805, Jena 1806): off the table, overlapping, in impassable
terrain or a river, crowding a town; idle commanders; the order of battle's errors first."""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import LineString, Polygon

from battlestudio.model import Formation, TerrainFeature, TerrainKind
from battlestudio.validate import FootprintCache, Problem, check_battle, find_problems
from tests.elchingen import elchingen_scenario
from tests.store.conftest import jena_battle


def found(s, cache=None):
    return find_problems(s, cache)


def codes(s):
    return [(p.severity, p.check, p.subjects) for p in found(s)]


def test_valid_scenarios_have_no_problems():
    assert found(elchingen_scenario()) == []
    assert check_battle(jena_battle()) == []


def test_unit_partly_off_the_table_is_an_error_naming_its_position():
    s = elchingen_scenario()
    # Villatte's line: 34 figures in two ranks, 17 × 2 cm = 34 cm wide, 2 × 1.5 cm deep;
    # centred at x = 10 it sticks out 7 cm
    s.units["u-villatte"] = s.units["u-villatte"].moved((10.0, 55.0))
    assert found(s) == [
        Problem(
            "error",
            "unit.off_table",
            "units['u-villatte'].position: (10, 55) cm puts Bde "
            "Villatte's footprint (x -7.0–27.0, y 52.0–55.0 cm) off the 240 × 180 cm table",
            ("u-villatte",),
        )
    ]


def test_commander_off_the_table():
    s = elchingen_scenario()
    s.commanders["c-riesch"] = s.commanders["c-riesch"].moved((120.0, 181.0))
    assert found(s) == [
        Problem(
            "error",
            "commander.off_table",
            "commanders['c-riesch'].position: (120, 181) cm is off the 240 × 180 cm table (FML Riesch)",
            ("c-riesch",),
        )
    ]


def test_units_of_a_reinforcement_may_wait_off_the_table():
    b = jena_battle()
    s = b.scenario
    s.units["st-hilaire"] = replace(s.units["st-hilaire"], position=(260.0, 40.0))  # Soult's, arrives later
    s.commanders["soult"] = replace(s.commanders["soult"], position=(265.0, 40.0))
    assert check_battle(b) == []
    del s.reinforcements["r-soult"]
    assert [(p.check, p.subjects) for p in check_battle(b)] == [
        ("unit.off_table", ("st-hilaire",)),
        ("commander.off_table", ("soult",)),
    ]
    assert check_battle(b)[1].message == (
        "commanders['soult'].position: (265, 40) cm is off the 240 × 180 cm table (Soult)"
    )


def test_overlapping_units_but_not_touching_ones():
    s = elchingen_scenario()
    # Roguet's line (34 cm) front at x = 130 spans 113–147; put Delabassee's (32 cm) right next to it
    s.units["u-delabassee"] = s.units["u-delabassee"].moved((163.0, 55.0))  # 147–179: touching
    assert codes(s) == []
    s.units["u-delabassee"] = s.units["u-delabassee"].moved((160.0, 55.0))  # 144–176: 3 cm × 3 cm deep overlap
    assert found(s) == [
        Problem(
            "warning",
            "unit.overlap",
            "units['u-roguet'].position: Bde Roguet overlaps Bde Delabassee ('u-delabassee') by 9.0 cm²",
            ("u-roguet", "u-delabassee"),
        )
    ]


def test_unit_in_impassable_terrain():
    s = elchingen_scenario()
    s.terrain["t-quarry"] = TerrainFeature(
        "t-quarry", TerrainKind.IMPASSABLE, Polygon([(185, 45), (200, 45), (200, 60), (185, 60)]), name="Quarry"
    )
    assert ("error", "unit.impassable", ("u-marcognet", "t-quarry")) in codes(s)


def test_unit_in_a_river_away_from_its_crossings():
    s = elchingen_scenario()
    u = s.units["u-marcognet"]
    s.terrain["t-iller"] = TerrainFeature(
        "t-iller",
        TerrainKind.RIVER,
        LineString([(u.position[0] - 40, u.position[1]), (u.position[0] + 40, u.position[1])]),
        name="Iller",
        width=3.0,
    )
    assert ("error", "unit.in_river", ("u-marcognet", "t-iller")) in codes(s)
    # a bridge under the whole unit: it stands at a crossing
    s.terrain["t-bridge"] = TerrainFeature("t-bridge", TerrainKind.BRIDGE, u.footprint().buffer(1.0), name="Pont")
    assert ("error", "unit.in_river", ("u-marcognet", "t-iller")) not in codes(s)
    # a stream is waded: no problem
    del s.terrain["t-bridge"]
    s.terrain["t-iller"] = replace(s.terrain["t-iller"], kind=TerrainKind.STREAM)
    assert not [c for c in codes(s) if c[1] == "unit.in_river"]


def test_town_over_capacity_and_idle_commander():
    s = elchingen_scenario()
    # two brigades in Unter-Elchingen (15 × 15 cm, capacity 1), one in column
    s.units["u-villatte"] = replace(s.units["u-villatte"].moved((120.0, 84.0)), formation=Formation.COLUMN)
    s.units["u-roguet"] = replace(s.units["u-roguet"].moved((120.0, 76.0)), formation=Formation.COLUMN, facing=270.0)
    s.oob.add("c-malher", "u-villatte")
    s.oob.add("c-malher", "u-roguet")
    s.oob.add("c-malher", "u-loison-bty")
    got = codes(s)
    assert ("warning", "town.over_capacity", ("z-unter", "u-villatte", "u-roguet")) in got
    assert ("warning", "commander.idle", ("c-loison",)) in got
    assert Problem(
        "warning",
        "town.over_capacity",
        "towns['z-unter'].capacity: 1, but Unter-Elchingen holds 2 units",
        ("z-unter", "u-villatte", "u-roguet"),
    ) in found(s)


def test_oob_problems_come_first_as_errors():
    s = elchingen_scenario()
    s.oob.remove("c-colbert")
    got = codes(s)
    assert got[0][0] == "error" and all(c[1].startswith("oob.") for c in got[:3])
    assert ("error", "oob.unit_no_commander", ("u-10chass",)) in got
    assert ("error", "oob.roots", ("c-ney", "c-colbert")) in got
    assert [p.severity for p in found(s)] == sorted((p.severity for p in found(s)), key=lambda v: v != "error")


def test_the_footprint_cache_recomputes_only_changed_units_and_gives_the_same_verdict():
    s = elchingen_scenario()
    cache = FootprintCache()
    first = cache.footprints(s)
    s.units["u-villatte"] = s.units["u-villatte"].moved((10.0, 55.0))
    second = cache.footprints(s)
    assert second["u-roguet"] is first["u-roguet"]
    assert second["u-villatte"] is not first["u-villatte"] and second["u-villatte"].bounds[0] == -7.0
    assert found(s, cache) == found(s)


def test_an_undeployed_import_is_one_warning_and_checks_in_linear_time():
    import time

    s = elchingen_scenario()
    base = s.units["u-roguet"]
    for i in range(3000):  # an import puts every unit at one spot until it is deployed
        s.units[f"u-{i}"] = replace(base, id=f"u-{i}", name=f"Bde {i}").moved((60.0, 50.0))
    t = time.monotonic()
    stacked = [p for p in found(s) if p.check == "unit.overlap" and p.subjects[0] == "u-0"]
    assert time.monotonic() - t < 5  # 4.5 million pairs measured one by one took minutes
    assert len(stacked) == 1 and stacked[0].message.startswith(
        "units['u-0'].position: 3000 units stand one on another at (60, 50) cm (Bde 0, Bde 1, Bde 2, Bde 3, ...)"
    )
    assert len(stacked[0].subjects) == 50


def test_a_few_units_on_one_spot_are_still_named_pair_by_pair():
    s = elchingen_scenario()
    base = s.units["u-roguet"]
    for i in range(3):
        s.units[f"u-{i}"] = replace(base, id=f"u-{i}", name=f"Bde {i}").moved((60.0, 50.0))
    pairs = [p.subjects for p in found(s) if p.check == "unit.overlap" and p.subjects[1][2:3].isdigit()]
    assert {("u-0", "u-1"), ("u-0", "u-2"), ("u-1", "u-2")} <= set(pairs)
    assert not any("stand one on another" in p.message for p in found(s))
