"""No false alarms on generated battles (tests/strategies.py): the generator builds valid
records, references, geometries and reinforcements, so only what it does not avoid is found —
where it drops units (overlapping, at the table edge, in impassable terrain, crowding a town,
a division left without brigades) and the terms it draws from every ruleset at once."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from shapely.geometry import Point

from battlestudio.replay.battle import Battle
from battlestudio.validate import check_battle
from battlestudio.validate.placement import FootprintCache
from tests.strategies import scenarios

PLACEMENT = {
    "unit.overlap",
    "unit.off_table",
    "unit.impassable",
    "unit.in_river",
    "town.over_capacity",
    "commander.idle",
}
RULESET_TERMS = {"unit.unknown_state", "unit.unknown_quality"}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(scenarios(min_units=0, max_units=300))
def test_generated_scenarios_have_only_the_problems_of_random_placement(scenario):
    found = check_battle(Battle(scenario=scenario))
    assert [p for p in found if p.check not in PLACEMENT | RULESET_TERMS] == []
    table = scenario.table()
    footprints = FootprintCache().footprints(scenario)
    for p in found:
        if p.check == "unit.off_table":  # the generator puts every unit's front midpoint on the table
            (uid,) = p.subjects
            assert table.covers(Point(scenario.units[uid].position)) and not table.contains(footprints[uid])
        elif p.check == "unit.overlap":
            a, b = p.subjects
            assert footprints[a].intersection(footprints[b]).area > 0
        elif p.check == "commander.idle":
            assert scenario.oob.subordinates(p.subjects[0]) == []
