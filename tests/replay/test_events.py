"""Concrete battle events: each applies to a GameState, names what it touches, and survives
the store's generic ``to_dict`` / ``event_from_dict`` round trip."""

from __future__ import annotations

import json

import pytest

import battlestudio.replay  # noqa: F401  (registers every kind)
from battlestudio.model.units import Formation
from battlestudio.replay.events import (
    AmmunitionResupplied,
    AmmunitionUsed,
    Annotation,
    BattleEvent,
    Casualties,
    EventError,
    Fired,
    FormationChanged,
    Melee,
    MoraleTest,
    Moved,
    OrderStateChanged,
    PhaseStarted,
    ReinforcementArrived,
    Rotated,
    TurnEnded,
    UnitRemoved,
    event_from_dict,
    event_kinds,
)
from battlestudio.replay.state import GameState

T, FR, PR = 3, "french", "prussian"


def sample_events() -> list[BattleEvent]:
    """One of each kind, as an umpire would record them at Closewitz."""
    return [
        PhaseStarted(T, FR, "movement", name="Bevægelser"),
        Moved(T, FR, "movement", id="vedel", path=((125.0, 60.0), (124.0, 70.0), (122.0, 82.5)), facing=95.0),
        Moved(T, FR, "movement", id="suchet", path=((110.0, 45.0), (112.0, 66.0))),
        Rotated(T, FR, "movement", id="claparede", facing=75.0),
        FormationChanged(T, FR, "movement", unit="vedel", formation="line"),
        Fired(
            T,
            FR,
            "firing",
            unit="zweiffel",
            target="vedel",
            range_cm=9.5,
            roll={"die": "d10", "raw": [7], "modifiers": [["close range", 1]], "outcome": "2 figures"},
            result="2 figures",
            explanation="7 +1 close range = 8 ≥ 6: 2 figures",
        ),
        Casualties(T, FR, "firing", unit="vedel", figures=2, men=200, cause="fire"),
        AmmunitionUsed(T, PR, "firing", unit="suchet-foot", rounds=1),
        AmmunitionResupplied(T, PR, "firing", unit="suchet-foot", ammunition=6),
        Melee(
            T,
            FR,
            "attack",
            attackers=("claparede",),
            defenders=("rosen",),
            winner="attacker",
            explanation="Claparède 8 against Rosen 5",
        ),
        MoraleTest(T, FR, "attack", unit="rosen", passed=False, result="falls back in disorder"),
        OrderStateChanged(T, FR, "attack", unit="rosen", state="U", reason="morale test failed"),
        ReinforcementArrived(
            T,
            PR,
            "orders",
            reinforcement="r-ruchel",
            arrivals=(("ruchel", 4.0, 170.0, 0.0), ("ruchel-inf", 2.0, 165.0, 0.0)),
        ),
        UnitRemoved(T, FR, "reorganisation", id="rosen", reason="routed off the table"),
        Annotation(
            T,
            FR,
            "reorganisation",
            text="The fog lifts over the Landgrafenberg.",
            at=(120.0, 100.0),
            ids=("lannes",),
            title="Fog lifts",
        ),
        TurnEnded(T, "", "reorganisation"),
    ]


def test_every_kind_is_registered_and_sampled():
    sampled = {e.kind for e in sample_events()}
    mine = {k for k, cls in event_kinds().items() if cls.__module__.endswith(("flow_events", "combat_events"))}
    assert mine == sampled


@pytest.mark.parametrize("event", sample_events(), ids=lambda e: e.kind)
def test_round_trip_through_json(event):
    text = json.dumps(event.to_dict())
    back = event_from_dict(json.loads(text))
    assert back == event and type(back) is type(event)


def test_apply_changes_only_what_the_event_says(jena):
    s0 = GameState.from_scenario(jena)
    assert s0.off_table == {"ruchel", "ruchel-inf"}
    s = s0
    for e in sample_events():
        s = e.apply(s)
    vedel = s.units["vedel"]
    assert vedel.position == (122.0, 82.5) and vedel.facing == 95.0
    assert vedel.formation is Formation.LINE
    assert (vedel.figures, vedel.men) == (22, 2200)
    assert s.commanders["suchet"].position == (112.0, 66.0)
    assert s.units["claparede"].facing == 75.0
    assert s.units["suchet-foot"].ammunition == 6
    assert "rosen" not in s.units and "rosen" in s.oob
    assert s.off_table == frozenset()
    assert s.units["ruchel-inf"].position == (2.0, 165.0)
    assert s.commanders["ruchel"].position == (4.0, 170.0)
    assert (s.turn, s.side, s.phase) == (T, FR, "movement")
    # untouched records are the very same objects: states share what did not change
    assert s.units["zweiffel"] is s0.units["zweiffel"]
    # the initial state is not mutated
    assert s0.units["vedel"].figures == 24 and "rosen" in s0.units


def test_casualties_and_ammunition_floor_at_zero(jena):
    s = GameState.from_scenario(jena)
    s = Casualties(T, FR, "firing", unit="rosen", figures=50, men=9999).apply(s)
    assert (s.units["rosen"].figures, s.units["rosen"].men) == (0, 0)
    s = AmmunitionUsed(T, FR, "firing", unit="suchet-foot", rounds=10).apply(s)
    assert s.units["suchet-foot"].ammunition == 0


def test_events_on_unknown_or_unfit_units_say_which(jena):
    s = GameState.from_scenario(jena)
    with pytest.raises(
        EventError, match=r"'moved' \(turn 3, side french, phase movement\): no unit or commander 'davout'"
    ):
        Moved(T, FR, "movement", id="davout", path=((0, 0),)).apply(s)
    with pytest.raises(EventError, match="'vedel' does not count ammunition"):
        AmmunitionUsed(T, FR, "firing", unit="vedel").apply(s)
    with pytest.raises(EventError, match="no unit 'lannes'"):
        Casualties(T, FR, "firing", unit="lannes", figures=1).apply(s)


@pytest.mark.parametrize(
    "data, message",
    [
        ({"kind": "moved", "turn": 1, "side": "f", "phase": "m", "id": "x", "path": []}, "path of 'x' is empty"),
        (
            {"kind": "formation_changed", "turn": 1, "side": "f", "phase": "m", "unit": "x", "formation": "wedge"},
            "unknown formation 'wedge'",
        ),
        (
            {"kind": "casualties", "turn": 1, "side": "f", "phase": "m", "unit": "x", "figures": -1},
            "figures lost must be >= 0",
        ),
        ({"kind": "melee", "turn": 1, "side": "f", "phase": "m", "winner": "nobody"}, "winner must be"),
        (
            {"kind": "reinforcement_arrived", "turn": 1, "side": "f", "phase": "m", "arrivals": [["x", 1]]},
            "arrivals must be",
        ),
        ({"kind": "rotated", "turn": 1, "side": "f", "phase": "m", "bearing": 3}, "no field"),
    ],
)
def test_bad_stored_events_are_refused_with_their_field(data, message):
    with pytest.raises(ValueError, match=message):
        event_from_dict(data)


def test_touched_and_positions():
    m = Moved(T, FR, "movement", id="vedel", path=((1, 2), (3, 4)))
    assert m.touched() == ("vedel",) and m.positions_of("vedel") == ((1.0, 2.0), (3.0, 4.0))
    assert m.positions_of("claparede") == ()
    f = Fired(T, FR, "firing", unit="zweiffel", target="vedel")
    assert f.touched() == ("zweiffel", "vedel")
    r = ReinforcementArrived(T, PR, "orders", arrivals=(("a", 1, 2, 0), ("b", 3, 4, 90)))
    assert r.positions_of("b") == ((3.0, 4.0),)
