"""A game state's flags as a ``FlagMap`` (``replay.flags``) read, iterate, compare and store as
the dict the events built before: every version, old and new, on random updates and on the
flags of a played synthetic game."""

from __future__ import annotations

import pickle
import random

from battlestudio.replay.flags import COMPACT_MIN, FlagMap, flags_with
from battlestudio.replay.state import GameState
from battlestudio.session.synthetic import synthetic_game
from battlestudio.store.keyframes import decode_state, encode_state


def test_every_version_reads_and_iterates_as_the_dict_built_by_copying():
    rng = random.Random(26)
    for _ in range(60):
        d = {f"k{i}": i for i in range(rng.randint(0, 3 * COMPACT_MIN))}
        f = FlagMap(d)
        versions = [(d, f)]
        for _ in range(300):
            k = f"k{rng.randint(0, 4 * COMPACT_MIN)}"
            d = dict(d)
            if rng.random() < 0.4:
                d.pop(k, None)
                f = f.updated(remove=[k])
            else:
                v = rng.random()
                d[k] = v
                f = f.updated({k: v})
            versions.append((d, f))
        for d, f in versions:  # the old versions are untouched by the later updates
            assert list(f.items()) == list(d.items())
            assert list(f) == list(d) and list(f.values()) == list(d.values())
            assert len(f) == len(d) and f == d and d == f
            for k in [*list(d)[:4], "absent"]:
                assert f.get(k, "none") == d.get(k, "none") and (k in f) == (k in d)


def test_a_key_removed_and_set_again_goes_to_the_end_as_in_a_dict():
    f = flags_with({"a": 1, "b": 2, "c": 3}, remove=["a"]).updated({"a": 9, "b": 5})
    assert list(f.items()) == [("b", 5), ("c", 3), ("a", 9)]
    assert pickle.loads(pickle.dumps(f)) == f


def test_a_played_games_flags_store_and_compare_as_before():
    game = synthetic_game(turns=12, units_per_side=24, seed=1813, command_orders=True)
    state = GameState.from_scenario(game.scenario)
    plain: dict = dict(state.flags)
    kinds = set()
    for e in game.events:
        before = state.flags
        state = e.apply(state)
        if state.flags is not before:
            kinds.add(e.kind)
            assert isinstance(state.flags, FlagMap)
            plain = dict(state.flags)
    assert {"toe_combat_marked", "command_state_changed"} <= kinds
    assert list(state.flags.items()) == list(plain.items())
    back = decode_state(encode_state(state, game.scenario), game.scenario)
    assert list(back.flags.items()) == list(state.flags.items()) and back == state


def test_keys_with_a_prefix_follow_every_update():
    rng = random.Random(16)
    f = FlagMap({f"{p}:{i}": i for p in ("attack_declared", "toe_mark") for i in range(40)})
    d = dict(f.items())
    for step in range(2000):
        if step % 50 == 0:  # sometimes asked on a fresh version, sometimes carried over
            assert f.keys_with_prefix("attack_declared:") == {k for k in d if k.startswith("attack_declared:")}
        k = f"{rng.choice(('attack_declared', 'toe_mark', 'engaged'))}:{rng.randint(0, 60)}"
        if rng.random() < 0.4:
            d.pop(k, None)
            f = f.updated(remove=(x for x in [k]))
        else:
            d[k] = step
            f = f.updated({k: step})
        assert f.keys_with_prefix("attack_declared:") == {k for k in d if k.startswith("attack_declared:")}
    assert list(f.items()) == list(d.items())
