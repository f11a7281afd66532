"""The counts behind ``battlestudio info``."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from battlestudio.store.summary import summarize
from tests.strategies import battles, scenarios

_SETTINGS = settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@_SETTINGS
@given(battles(scenarios(min_units=0, max_units=300), max_events=200))
def test_summary_totals_add_up(battle):
    info = summarize(battle)
    s = battle.scenario
    assert info["units"] == len(s.units) == sum(v["units"] for v in info["arms"].values())
    assert info["men"] == sum(u.men for u in s.units.values()) == sum(v["men"] for v in info["sides"].values())
    assert info["guns"] == sum(v["guns"] for v in info["arms"].values())
    assert (
        info["commanders"]
        == sum(info["commanders_per_echelon"].values())
        == sum(v["commanders"] for v in info["sides"].values())
    )
    assert info["terrain_features"] == sum(info["terrain_per_kind"].values())
    assert info["events"] == len(battle.events) == sum(info["events_per_kind"].values())
    assert info["turns_logged"] == battle.turns_logged
    for key in ("commanders", "units", "men", "guns", "terrain_features", "town_zones", "turns", "events"):
        assert type(info[key]) is int
