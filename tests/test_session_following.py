"""Troops following their general (``session.umpire.follow_moves``) on the bundled Jena
scenario: with ``keep_apart_cm`` they halt behind friendly formations instead of stacking on
them, with ``wheel`` a formation turns to face its advance about its own generals, and
``free_of_friends`` shortens the umpire's single-unit moves.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.session import GameSession
from battlestudio.rules.following import follow_moves, free_of_friends

JENA = Path(__file__).resolve().parents[1] / "scenarios" / "jena-1806.battle.json"
LANNES, SUCHET, GAZAN = "french-v-corps", "french-1eme-division", "french-2eme-division"


@pytest.fixture(scope="module")
def session() -> GameSession:
    s = GameSession(Battle(store.load(JENA).scenario, []), seed=3)
    s.advance_to("movement")
    return s


def _units(state, commander):
    return [n for n in state.oob.all_subordinates(commander) if n in state.units and n not in state.off_table]


def test_suchet_moved_onto_gazan_halts_beside_him(session):
    st = session.state
    # Suchet's division stands about 30 cm east of Gazan's; pushed 60 cm west it would run through it
    delta = (-60.0, 0.0)
    stacked = follow_moves(st, SUCHET, delta, turn=1, side="french", phase="movement", table=session.table)
    apart = follow_moves(
        st, SUCHET, delta, turn=1, side="french", phase="movement", table=session.table, keep_apart_cm=0.5
    )
    gazan = [st.units[u].footprint() for u in _units(st, GAZAN)]

    def ends(events):
        after = st
        for e in events:
            after = e.apply(after)
        return [after.units[u].footprint() for u in _units(st, SUCHET)]

    assert any(a.intersection(g).area > 1.0 for a in ends(stacked) for g in gazan)
    after = ends(apart)
    assert all(a.distance(g) >= 0.5 - 1e-6 for a in after for g in gazan)
    assert all(a.intersection(b).area < 1e-6 for i, a in enumerate(after) for b in after[i + 1 :])
    # the front of the block went as far as it could, not nowhere
    moved = [e for e in apart if e.id in st.units]
    assert moved and max(math.dist(*e.path) for e in moved) > 5.0


def test_a_formation_wheels_to_face_its_advance_about_its_generals(session):
    st = session.state
    # V Corps faces north (90); an advance to the west wheels every unit to face west (180)
    events = follow_moves(
        st,
        LANNES,
        (-10.0, 0.0),
        turn=1,
        side="french",
        phase="movement",
        table=session.table,
        keep_off_cm=1.0,
        keep_apart_cm=0.5,
        wheel=True,
    )
    after = st
    for e in events:
        after = e.apply(after)
    units = _units(st, LANNES)
    assert {after.units[u].facing for u in units} == {180.0}
    # each unit keeps its distance to its own general (it wheeled about him), generals keep their places
    for u in _units(st, SUCHET):
        g0, g1 = st.commanders[SUCHET].position, after.commanders[SUCHET].position
        assert math.dist(st.units[u].position, g0) == pytest.approx(math.dist(after.units[u].position, g1), abs=0.05)
    assert after.commanders[SUCHET].position == pytest.approx(
        (st.commanders[SUCHET].position[0] - 10.0, st.commanders[SUCHET].position[1])
    )
    shapes = [after.units[u].footprint() for u in units]
    assert all(a.intersection(b).area < 1e-6 for i, a in enumerate(shapes) for b in shapes[i + 1 :])
    # moving backwards (south) is no about-face: facings are kept
    back = follow_moves(
        st, LANNES, (0.0, -10.0), turn=1, side="french", phase="movement", table=session.table, wheel=True
    )
    assert all(e.facing is None for e in back)


def test_free_of_friends_stops_a_unit_short_of_its_neighbour(session):
    st = session.state
    a, b = _units(st, GAZAN)[:2]
    ua, ub = st.units[a], st.units[b]
    gap = ua.footprint().distance(ub.footprint())
    towards = (ub.position[0] - ua.position[0], ub.position[1] - ua.position[1])
    f = free_of_friends(st, a, towards, keep_apart_cm=0.5)
    n = math.hypot(*towards)
    assert 0.0 <= f < 1.0
    assert f * n == pytest.approx(gap - 0.5, abs=0.05)
    assert free_of_friends(st, a, (0.0, -5.0)) == pytest.approx(0.8, abs=0.01)  # 4.5 cm to the row behind
    assert free_of_friends(st, a, (0.0, 5.0)) == 1.0  # forwards, no friend in the way
