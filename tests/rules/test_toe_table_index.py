"""Torden over Europa's table index (``rules.toe.table_index``) and the measures built on it
answer as the plain scans of every unit, on the states of a played synthetic game: the index
updated from the changed keys equals one built from scratch, and the nearest enemy, contact,
attachment, march exclusion and enemy lists are the scans' answers."""

from __future__ import annotations

import numpy
import pytest
import shapely

from battlestudio.model.command_geometry import march_order_violations
from battlestudio.model.units import Arm
from battlestudio.replay.state import GameState
from battlestudio.rules.toe.common import enemies_near, enemies_of, on_table_units, params_for, shape_of
from battlestudio.rules.toe.contact import enemies_within, in_contact, on_table, units_near
from battlestudio.rules.toe.melee import attached_to
from battlestudio.rules.toe.orders import nearest_enemy_point, nearest_enemy_point_scan
from battlestudio.rules.toe.table_index import TableIndex, table_index
from battlestudio.session.synthetic import synthetic_game


@pytest.fixture(scope="module")
def game():
    return synthetic_game(turns=24, units_per_side=48, seed=1813, command_orders=True)


@pytest.fixture(scope="module")
def sampled(game):
    """Every 150th state of the game, walking the events forward (the index is updated in
    between, as a replay or a session updates it)."""
    out = []
    state = GameState.from_scenario(game.scenario)
    for i, e in enumerate(game.events):
        state = e.apply(state)
        if i % 150 == 0:
            table_index(state)
            out.append(state)
    assert len(out) >= 10
    return out


def _same_index(a: TableIndex, b: TableIndex) -> None:
    n = len(b.keys)
    assert a.keys[:n] == b.keys
    assert [u is v for u, v in zip(a.units, b.units, strict=False)] == [True] * n
    assert numpy.array_equal(a.on_table[:n], b.on_table) and numpy.array_equal(a.in_fight[:n], b.in_fight)
    assert numpy.array_equal(a.bounds[:n], b.bounds)
    assert [x.equals(y) if x is not None else y is None for x, y in zip(a.shapes, b.shapes, strict=False)] == [True] * n


def test_the_index_updated_from_changes_equals_one_built_from_scratch(game, sampled):
    # forward, then back to an early state and forward again: both directions are updates
    for st in [*sampled, sampled[1], sampled[-1]]:
        _same_index(table_index(st), TableIndex(st))
    assert sum(len(st.off_table) > 0 for st in sampled) >= 1  # the reinforcement waits, then arrives
    assert sum(len(st.off_table) == 0 for st in sampled) >= 1


def test_enemies_of_and_near_are_the_scans(game, sampled):
    p = params_for(game.scenario.info.parameters)
    del p
    for st in sampled:
        for side in ("french", "prussian"):
            scan = [u for u in on_table_units(st) if u.side != side]
            assert enemies_of(st, side) == scan
        for cid in list(st.commanders)[::7]:
            c = st.commanders[cid]
            base = shape_of(st, cid)
            near = [e.id for e in enemies_near(st, c.side, base, 10.0)]
            scan_ids = [e.id for e in on_table_units(st) if e.side != c.side]
            assert set(near) <= set(scan_ids)
            assert near == [i for i in scan_ids if i in set(near)]  # state order
            every = [e for e in on_table_units(st) if e.side != c.side]
            fast = march_order_violations(base, [e.footprint() for e in enemies_near(st, c.side, base, 10.0)], 10.0)
            slow = march_order_violations(base, [e.footprint() for e in every], 10.0)
            assert bool(fast.size) == bool(slow.size)
            assert sorted(enemies_near(st, c.side, base, 10.0)[k].id for k in fast) == sorted(every[k].id for k in slow)


def test_the_nearest_enemy_point_is_the_scans(game, sampled):
    seen = 0
    for st in sampled:
        for node in [*st.commanders, *list(st.units)[::5]]:
            if node in st.off_table:
                continue
            assert nearest_enemy_point(st, node) == nearest_enemy_point_scan(st, node)
            seen += 1
    assert seen > 500


def test_contact_and_attachment_are_the_scans(game, sampled):
    p = params_for(game.scenario.info.parameters)
    tol = float(p.get("contact_tolerance_cm"))
    touching = attached = 0
    for st in sampled:
        for u in st.units.values():
            if not on_table(st, u):
                continue
            for cm in (tol, 5.0, 20.0):
                scan = [
                    e
                    for e in st.units.values()
                    if e.side != u.side and on_table(st, e) and shapely.distance(u.footprint(), e.footprint()) <= cm
                ]
                assert enemies_within(st, u, cm) == scan
            near = units_near(st, u, tol)
            scan_all = [e for e in st.units.values() if on_table(st, e) and in_contact(p, u, e)]
            assert [e for e in near if in_contact(p, u, e)] == scan_all
            touching += len(scan_all) > 1
            if u.arm is Arm.ARTILLERY:
                plain = next(
                    (
                        e
                        for e in st.units.values()
                        if e.side == u.side
                        and e.arm in (Arm.INFANTRY, Arm.CAVALRY)
                        and on_table(st, e)
                        and in_contact(p, e, u)
                    ),
                    None,
                )
                assert attached_to(st, p, u) is plain
                attached += plain is not None
    assert touching >= 3 and attached >= 1
