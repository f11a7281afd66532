"""Keyframes in a ``.battle`` file (issue 26): the state at the last phase start (and every
``KEYFRAME_EVERY_PHASES`` phases) is stored on save and append, read back equal to the replayed
state, covered by the checksum and the schema check; an older file without the table opens, and
appending to it upgrades it; a tampered keyframe loses against the replay."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.replay.digest import state_digest
from battlestudio.replay.game import GameLog
from battlestudio.store import BattleFileError, checksum
from battlestudio.store.keyframes import KEYFRAME_EVERY_PHASES, decode_state, encode_state, keyframe_positions
from battlestudio.store.rows import KEYFRAMES_SINCE

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"


def jena_battle() -> Battle:
    """The bundled recorded game of Jena (a fresh copy)."""
    return store.load(JENA)


def _unfinished(battle: Battle) -> Battle:
    last = max(e.turn for e in battle.events)
    return Battle(battle.scenario, [e for e in battle.events if e.turn <= last // 2])


def _meta(path) -> dict[str, str]:
    con = sqlite3.connect(path)
    try:
        return dict(con.execute("SELECT key, value FROM meta"))
    finally:
        con.close()


def _rows(path) -> list[tuple]:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT seq, position, turn, side, phase FROM keyframe ORDER BY seq").fetchall()
    finally:
        con.close()


@pytest.fixture
def half(tmp_path):
    battle = _unfinished(jena_battle())
    path = tmp_path / "half.battle"
    store.save(battle, path)
    return battle, path


def test_positions_are_every_nth_phase_start_and_the_last():
    starts = list(range(0, 10 * (2 * KEYFRAME_EVERY_PHASES + 5), 10))  # 2N + 5 phases of 10 events
    assert keyframe_positions(starts) == [
        starts[KEYFRAME_EVERY_PHASES],
        starts[2 * KEYFRAME_EVERY_PHASES],
        starts[-1],
    ]
    assert keyframe_positions([0]) == [] and keyframe_positions([0, 7]) == [7]


def test_the_last_phase_start_is_stored_and_reads_back_as_the_replayed_state(half):
    battle, path = half
    log = GameLog.from_battle(battle)
    last_start = log.phase_range(log.phases()[-1])[0]
    rows = _rows(path)
    assert rows[-1][1] == last_start and tuple(rows[-1][2:]) == tuple(log.phases()[-1])
    assert _meta(path)["schema_version"] == str(KEYFRAMES_SINCE)

    back = store.load(path, lazy_events=True)
    assert [k.position for k in back.keyframes] == [r[1] for r in rows]
    for k in back.keyframes:
        assert state_digest(k.state()) == state_digest(log.state_at(k.position))


def test_a_state_with_tuples_and_removed_records_round_trips_exactly():
    battle = jena_battle()
    log = GameLog.from_battle(battle)
    state = log.head
    uid = next(iter(state.units))
    state = state.without(uid).evolve(flags={"score": (1, 2), "nested": {"a": [(3, 4)]}})
    back = decode_state(encode_state(state, battle.scenario), battle.scenario)
    assert uid not in back.units and back.flags["score"] == (1, 2) and back.flags["nested"] == {"a": [(3, 4)]}
    assert state_digest(back) == state_digest(state) and dict(back.units) == dict(state.units)


def test_a_lazy_log_from_the_keyframe_reaches_the_same_end_and_verifies(half):
    battle, path = half
    back = store.load(path, lazy_events=True)
    log = GameLog.lazy_from_battle(back)
    assert log.verifying_keyframe and log.validated == 0
    head = log.head  # from the keyframe: the events before it are not replayed
    assert log.validated == 0 and back.events.built_count() < len(back.events)
    while not log.validate(100):
        pass
    assert not log.verifying_keyframe and log.keyframe_problem == ""
    ref = GameLog.from_battle(battle)
    assert state_digest(head) == state_digest(ref.head)
    assert log.keyframe_positions() == ref.keyframe_positions()
    assert log._touch == ref._touch  # the per-unit index merged in order (trails, events of a unit)
    for p in (0, 1, len(ref) // 3, len(ref) - 1):
        assert state_digest(log.state_at(p)) == state_digest(ref.state_at(p))


def _tamper(path, change) -> None:
    """Rewrite the last keyframe's state with ``change(doc)`` and store fresh checksums (as a
    tool that rewrites them would, or a keyframe of an older ruleset)."""
    con = sqlite3.connect(path)
    seq, text = con.execute("SELECT seq, state FROM keyframe ORDER BY position DESC LIMIT 1").fetchone()
    doc = json.loads(text)
    change(doc)
    con.execute("UPDATE keyframe SET state = ? WHERE seq = ?", (json.dumps(doc), seq))
    con.commit()
    rec = json.loads(dict(con.execute("SELECT key, value FROM meta"))["checksums"])
    rec["tables"]["keyframe"] = checksum.table_digest(con, "keyframe")
    checksum.store(con, rec)
    con.commit()
    con.close()


def test_a_tampered_keyframe_is_found_by_the_replay_which_wins(half):
    battle, path = half

    def move_a_unit(doc):
        unit = doc["units"][0]
        unit["position"] = [unit["position"][0] + 50.0, unit["position"][1]]

    _tamper(path, move_a_unit)
    back = store.load(path, lazy_events=True)
    log = GameLog.lazy_from_battle(back)
    said: list[str] = []
    log.keyframe_rejected.connect(said.append)
    tampered_head = log.head
    while not log.validate(100):
        pass
    ref = GameLog.from_battle(battle)
    key = ref.phases()[-1]
    assert said == [log.keyframe_problem]
    assert log.keyframe_problem.startswith(
        f"the keyframe saved at the start of turn {key.turn}, {key.side} {key.phase} (event "
    )
    assert "does not match the replayed game (unit " in log.keyframe_problem
    assert log.keyframe_problem.endswith("differs); the replay is used")
    assert state_digest(tampered_head) != state_digest(ref.head)
    assert state_digest(log.head) == state_digest(ref.head)  # the replay won
    assert log._touch == ref._touch and log.keyframe_positions() == ref.keyframe_positions()


def test_a_keyframe_changed_without_its_checksum_is_damage(half):
    _battle, path = half
    con = sqlite3.connect(path)
    con.execute("UPDATE keyframe SET state = replace(state, '\"v\":1', '\"v\":1 ') WHERE seq = 0")
    con.commit()
    con.close()
    with pytest.raises(BattleFileError, match="table keyframe"):
        store.load(path)


def test_an_unreadable_keyframe_is_not_used(half):
    _battle, path = half
    _tamper(path, lambda doc: doc["units"][0].update(facing="north"))
    back = store.load(path, lazy_events=True)
    log = GameLog.lazy_from_battle(back)
    assert not log.verifying_keyframe
    assert "cannot be read" in log.keyframe_problem and "keyframe seq=" in log.keyframe_problem
    assert "facing" in log.keyframe_problem


def test_a_file_without_a_game_has_no_keyframe_table_and_the_old_version(tmp_path):
    battle = Battle(jena_battle().scenario, [])
    store.save(battle, tmp_path / "plain.battle")
    con = sqlite3.connect(tmp_path / "plain.battle")
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    con.close()
    assert "keyframe" not in tables and int(_meta(tmp_path / "plain.battle")["schema_version"]) < KEYFRAMES_SINCE


def _old_schema_copy(battle: Battle, path) -> None:
    """``battle`` as a schema-3 file (before keyframes): saved, its keyframe table dropped, the
    version and checksums as BattleStudio 3 wrote them."""
    store.save(battle, path)
    con = sqlite3.connect(path)
    con.execute("DROP TABLE keyframe")
    con.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    con.execute("PRAGMA user_version = 1")
    con.commit()
    rec = json.loads(dict(con.execute("SELECT key, value FROM meta"))["checksums"])
    del rec["tables"]["keyframe"]
    rec["tables"]["meta"] = checksum.table_digest(con, "meta")
    checksum.store(con, rec)
    con.commit()
    con.close()


def test_an_old_schema_file_opens_and_saving_adds_the_keyframes(tmp_path):
    battle = _unfinished(jena_battle())
    path = tmp_path / "old.battle"
    _old_schema_copy(battle, path)
    back = store.load(path, lazy_events=True)
    assert back.keyframes == [] and list(back.events) == list(battle.events)
    log = GameLog.lazy_from_battle(back)
    assert not log.verifying_keyframe and log.keyframe_problem == ""  # opens as before: by replay
    store.save(back, path)
    assert _meta(path)["schema_version"] == str(KEYFRAMES_SINCE) and store.load(path).keyframes


def test_appending_stores_the_keyframes_the_new_events_reach_and_upgrades_an_old_file(tmp_path):
    full = jena_battle()
    log = GameLog.from_battle(full)
    starts = [log.phase_range(k)[0] for k in log.phases()]
    cut = starts[len(starts) // 2]
    first = Battle(full.scenario, list(full.events[:cut]))
    path = tmp_path / "app.battle"
    _old_schema_copy(first, path)

    n = store.append_events(path, full.events[cut:], after=cut, game=full, states=log.state_at)

    assert n == len(full.events)
    assert _meta(path)["schema_version"] == str(KEYFRAMES_SINCE)
    back = store.load(path, lazy_events=True)  # the checksums cover the new table and version
    assert [k.position for k in back.keyframes] == [p for p in keyframe_positions(starts) if p >= cut]
    for k in back.keyframes:
        assert state_digest(k.state()) == state_digest(log.state_at(k.position))
    more = store.append_events(path, [], after=n, game=full, states=log.state_at)  # nothing new
    assert more == n and len(_rows(path)) == len(back.keyframes)


def test_appending_without_states_keeps_the_keyframes(half):
    battle, path = half
    full = jena_battle()
    before = _rows(path)
    store.append_events(path, full.events[len(battle.events) :], after=len(battle.events))
    assert _rows(path) == before
    back = store.load(path)
    assert len(back.events) == len(full.events) and [k.position for k in back.keyframes] == [r[1] for r in before]


def test_the_schema_check_refuses_a_changed_keyframe_table(half):
    _battle, path = half
    con = sqlite3.connect(path)
    con.execute("ALTER TABLE keyframe ADD COLUMN extra VARCHAR")
    con.commit()
    con.close()
    with pytest.raises(BattleFileError, match="unknown column keyframe.extra"):
        store.load(path)
