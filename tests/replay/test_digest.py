"""state_digest: equal states hash equal (a replayed log, a reloaded file); any change to a
record, a flag or the phase changes the digest."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from battlestudio import store
from battlestudio.replay.digest import state_digest
from battlestudio.replay.game import GameLog

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"


def test_a_replayed_game_and_a_reloaded_file_hash_equal_and_a_change_does_not() -> None:
    battle = store.load(JENA)
    head = GameLog.from_battle(battle).head
    again = GameLog.from_battle(store.load(JENA)).head
    assert state_digest(head) == state_digest(again)
    uid = sorted(head.units)[0]
    u = head.units[uid]
    moved = head.with_unit(replace(u, position=(u.position[0] + 1e-9, u.position[1])))
    assert state_digest(moved) != state_digest(head)
    assert state_digest(head.evolve(flags={**head.flags, "x": 1})) != state_digest(head)
    assert state_digest(head.evolve(phase="other")) != state_digest(head)
