"""ChunkedMap behaves as an immutable dict, versions share unchanged chunks, and a game state's
records stay in insertion order through every kind of event."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battlestudio.replay.pmap import CHUNK, FAN, ChunkedMap
from battlestudio.replay.game import GameLog
from battlestudio.replay.state import GameState
from battlestudio.session.synthetic import synthetic_game

KEYS = st.sampled_from([f"u{i}" for i in range(300)])
OPS = st.lists(st.tuples(st.sampled_from(["set", "delete", "many"]), KEYS, st.integers(0, 9)), max_size=80)


@settings(max_examples=200, deadline=None)
@given(start=st.dictionaries(KEYS, st.integers(), max_size=200), ops=OPS)
def test_every_version_reads_like_the_dict_it_models(start, ops):
    m = ChunkedMap.from_mapping(start)
    d = dict(start)
    versions = [(m, dict(d))]
    for op, key, value in ops:
        if op == "set":
            m, d[key] = m.set(key, value), value
        elif op == "many":
            pairs = [(key, value), (f"new{value}", value), (key, value + 1)]
            m = m.set_many(pairs)
            d.update(pairs)
        elif key in d:
            m = m.delete(key)
            del d[key]
        else:
            with pytest.raises(KeyError):
                m.delete(key)
        versions.append((m, dict(d)))
    for version, expected in versions:  # old versions are untouched by later updates
        assert version == expected and expected == version
        assert len(version) == len(expected)
        assert set(version) == set(expected)
        assert dict(version.items()) == expected
        assert sorted(version.values()) == sorted(expected.values())
        for k in ("u0", "u150", "u299", "new3", "absent"):
            assert (k in version) == (k in expected)
            assert version.get(k, "none") == expected.get(k, "none")


def test_iteration_follows_insertion_order_and_replacement_keeps_the_place():
    keys = [f"b{i:04d}" for i in range(2 * FAN * CHUNK + 37)][::-1]  # not sorted: order comes from insertion
    m = ChunkedMap.from_mapping({k: 0 for k in keys})  # three branches, the last one partly filled
    assert list(m) == keys
    m2 = m.set(keys[700], 1).set("zz-new", 2)
    assert list(m2) == keys + ["zz-new"]
    assert list(m2.values())[700] == 1
    assert list(m2.items())[-2:] == [(keys[-1], 0), ("zz-new", 2)]
    m3 = m2.delete(keys[5]).set("zz-other", 3).set(keys[5], 4)  # back to its old place
    assert list(m3) == keys + ["zz-new", "zz-other"]
    assert m3[keys[5]] == 4 and len(m3) == len(keys) + 2


def test_an_update_copies_one_chunk_and_shares_the_rest():
    m = ChunkedMap.from_mapping({f"u{i}": i for i in range(10 * FAN * CHUNK)})
    m2 = m.set("u5", -5)
    assert m2.shares(m) == (10 * FAN - 1, 10 * FAN)
    assert m2.set_many([("u6", 0), ("u7", 0), ("u4000", 0)]).shares(m2) == (10 * FAN - 2, 10 * FAN)
    assert m2.changed_keys(m) == {"u5"}
    assert m2.delete("u600").changed_keys(m2) == {"u600"}
    assert m.set("new", 1).changed_keys(m) == {"new"}


def test_changed_keys_against_another_lineage_compares_identity():
    a, b = object(), object()
    m = ChunkedMap.from_mapping({"x": a, "y": b})
    assert m.changed_keys({"x": a, "y": object()}) == {"y"}
    assert m.changed_keys({"x": a}) == {"y"}


def test_maps_are_read_only_and_survive_copy_and_pickle():
    m = ChunkedMap.from_mapping({"a": 1, "b": 2})
    with pytest.raises(TypeError):
        m["a"] = 3  # type: ignore[index]
    with pytest.raises(TypeError):
        hash(m)
    assert pickle.loads(pickle.dumps(m)) == {"a": 1, "b": 2}
    assert copy.deepcopy(m) == m
    assert repr(m) == "ChunkedMap({'a': 1, 'b': 2})"


def test_game_states_keep_the_scenario_order_through_a_whole_game():
    game = synthetic_game(turns=12, units_per_side=24, seed=7)
    state = GameState.from_scenario(game.scenario)
    for e in game.events:
        state = e.apply(state)
    assert isinstance(state.units, ChunkedMap)
    expected = [u for u in game.scenario.units if u in state.units]
    assert list(state.units) == expected
    assert list(state.commanders) == list(game.scenario.commanders)


def test_evolve_with_a_plain_dict_of_records_gives_a_chunked_map(jena):
    state = GameState.from_scenario(jena)
    moved = state.evolve(units={**state.units, "claparede": state.units["claparede"].moved((1.0, 2.0))})
    assert isinstance(moved.units, ChunkedMap)
    assert moved.units["claparede"].position == (1.0, 2.0)
    assert state.units["claparede"].position != (1.0, 2.0)


def test_synthetic_command_orders_go_through_rolls_and_replay_from_keyframes():
    game = synthetic_game(turns=10, units_per_side=64, seed=3, command_orders=True)
    kinds = [e.kind for e in game.events]
    written = kinds.count("order_written")
    # every roll is followed by the order's delivery or failure; a failed order is rolled again
    # in later order phases until it goes through or is replaced (3.3, A6)
    rolled = [e.order_id for e in game.events if e.kind == "command_roll"]
    assert written >= 10 and len(rolled) >= written
    assert kinds.count("order_delivered") + kinds.count("order_failed") == len(rolled)
    assert {e.order_id for e in game.events if e.kind == "order_written"} == set(rolled)
    log = game.log(keyframe_every=16)
    head = log.head
    assert len(head.orders) == written
    statuses = {o.status.value for o in head.orders.values()}
    assert "delivered" in statuses and statuses <= {"delivered", "failed", "cancelled"}
    state = GameState.from_scenario(game.scenario)
    for p, e in enumerate(game.events, 1):
        state = e.apply(state)
        if p % 97 == 0:
            assert log.state_at(p) == state
    # the same seed gives the same game; without orders none is written
    assert [repr(e) for e in synthetic_game(turns=10, units_per_side=64, seed=3, command_orders=True).events] == [
        repr(e) for e in game.events
    ]
    plain = synthetic_game(turns=10, units_per_side=64, seed=3)
    assert "order_written" not in {e.kind for e in plain.events}


def test_building_a_log_leaves_the_garbage_collector_as_it_found_it():
    import gc

    game = synthetic_game(turns=3, units_per_side=8, seed=2)
    assert gc.isenabled()
    game.log()
    assert gc.isenabled()
    gc.disable()
    try:
        game.log()
        assert not gc.isenabled()
    finally:
        gc.enable()
    bad = list(game.events)
    bad.insert(5, bad[-1])  # an event of the last phase inside the first: refused
    with pytest.raises(ValueError, match=r"game log event \d+: "):
        GameLog.from_scenario(game.scenario, bad)
    assert gc.isenabled()


def test_sibling_versions_do_not_see_each_others_new_keys():
    base = ChunkedMap.from_mapping({f"u{i}": i for i in range(FAN * CHUNK - 3)})  # last branch nearly full
    left = base.set("left", 1).set("left2", 2).set("left3", 3).set("left4", 4)  # the 4th opens a new branch
    right = base.set("right", 5)
    assert "left" not in right and "left4" not in right and right.get("left4", "none") == "none"
    assert list(right)[-2:] == [f"u{FAN * CHUNK - 4}", "right"] and len(right) == len(base) + 1
    assert list(left)[-4:] == ["left", "left2", "left3", "left4"] and len(left) == len(base) + 4
    assert right.changed_keys(left) == {"left", "left2", "left3", "left4", "right"}
    assert left.delete("left4").changed_keys(left) == {"left4"}
    assert dict(right.items()) == {**{f"u{i}": i for i in range(FAN * CHUNK - 3)}, "right": 5}
    with pytest.raises(KeyError):
        right["left"]


def test_in_order_gives_the_held_keys_in_iteration_order_across_versions():
    base = ChunkedMap.from_mapping({f"k{i}": i for i in range(3 * CHUNK)})
    later = base.delete("k5").set("new", -1).set("k2", 99)
    sibling = base.set("other", 7)  # shares the key index: its key is not in ``later``
    wanted = {"new", "k40", "k2", "k5", "other", "missing", "k0"}
    assert later.in_order(wanted) == [k for k in later if k in wanted] == ["k0", "k2", "k40", "new"]
    assert sibling.in_order(wanted) == ["k0", "k2", "k5", "k40", "other"]
