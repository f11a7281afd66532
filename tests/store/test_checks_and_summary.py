"""The checks behind ``battlestudio check`` and the counts behind ``battlestudio info``."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from shapely.geometry import Polygon, box

from battlestudio.model import Reinforcement, TerrainFeature, TerrainKind, TownZone
from battlestudio.replay.battle import Battle
from battlestudio.store.checks import Problem, check_battle
from battlestudio.store.summary import summarize
from tests.store.conftest import jena_battle
from tests.strategies import battles, scenarios

_SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_SETTINGS
@given(scenarios(min_units=0, max_units=300))
def test_generated_scenarios_are_clean(scenario):
    """No false alarms: the strategies build valid scenarios, so check finds nothing."""
    assert check_battle(Battle(scenario=scenario)) == []


@_SETTINGS
@given(battles(scenarios(min_units=0, max_units=300), max_events=200))
def test_summary_totals_add_up(battle):
    info = summarize(battle)
    s = battle.scenario
    assert info["units"] == len(s.units) == sum(v["units"] for v in info["arms"].values())
    assert info["men"] == sum(u.men for u in s.units.values()) == sum(v["men"] for v in info["sides"].values())
    assert info["guns"] == sum(v["guns"] for v in info["arms"].values())
    assert info["commanders"] == sum(info["commanders_per_echelon"].values()) == sum(v["commanders"] for v in info["sides"].values())
    assert info["terrain_features"] == sum(info["terrain_per_kind"].values())
    assert info["events"] == len(battle.events) == sum(info["events_per_kind"].values())
    assert info["turns_logged"] == battle.turns_logged
    for key in ("commanders", "units", "men", "guns", "terrain_features", "town_zones", "turns", "events"):
        assert type(info[key]) is int


def test_units_of_a_reinforcement_may_wait_off_the_table():
    b = jena_battle()
    s = b.scenario
    s.units["st-hilaire"] = replace(s.units["st-hilaire"], position=(260.0, 40.0))  # Soult's, arrives later
    s.commanders["soult"] = replace(s.commanders["soult"], position=(265.0, 40.0))
    assert check_battle(b) == []
    del s.reinforcements["r-soult"]
    assert check_battle(b) == [
        Problem("off the table (260, 40 cm; table is 240 × 180 cm)", "units['st-hilaire'].position"),
        Problem("off the table (265, 40 cm; table is 240 × 180 cm)", "commanders['soult'].position"),
    ]


def test_invalid_and_empty_geometries():
    b = jena_battle()
    bowtie = Polygon([(0, 0), (10, 10), (10, 0), (0, 10)])
    b.scenario.terrain["bad-wood"] = TerrainFeature("bad-wood", TerrainKind.WOODS, bowtie)
    b.scenario.towns["nowhere"] = TownZone("nowhere", "Nowhere", Polygon())
    found = check_battle(b)
    assert Problem("empty Polygon", "towns['nowhere'].polygon") in found
    assert any(p.where == "terrain['bad-wood'].geometry" and p.what.startswith("invalid Polygon: Self-intersection") for p in found)


def test_towns_that_only_touch_do_not_overlap():
    b = jena_battle()
    b.scenario.towns = {"a": TownZone("a", "A", box(0, 0, 15, 15)), "b": TownZone("b", "B", box(15, 0, 30, 15))}
    assert check_battle(b) == []
    b.scenario.towns["b"] = TownZone("b", "B", box(14, 0, 29, 15))
    assert check_battle(b) == [Problem("town zones 'a' and 'b' overlap by 15.0 cm²", "towns['a'].polygon")]


def test_reinforcement_probability_and_record_stored_under_another_id():
    b = jena_battle()
    r = b.scenario.reinforcements["r-soult"]
    b.scenario.reinforcements["r-soult"] = replace(r, probability=1.5)
    b.scenario.reinforcements["r-copy"] = Reinforcement("r-other", "french", "soult", 4, 8, (240.0, 40.0))
    assert check_battle(b) == [
        Problem("stored under 'r-copy' but its id is 'r-other'", "reinforcements['r-copy']"),
        Problem("probability 1.5 is not between 0 and 1", "reinforcements['r-soult'].probability"),
    ]
