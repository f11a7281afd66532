"""Club play against a real PostgreSQL server: two umpires recording one game at once, a
window following live, a writer killed mid-action, row-level security for players and
spectators, the scenario lock, publish → fetch, reconnecting after a lost connection."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import networkx as nx
import psycopg
import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.replay.digest import state_digest
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.game import GameLog
from battlestudio.store.club import (
    ClaimTaken,
    ClubConnection,
    ClubError,
    ScenarioLocked,
    StaleLog,
    fetch,
    load_club,
)
from battlestudio.store.club.battles import publish_battle
from battlestudio.store.codec import battle_to_doc
from battlestudio.validate import ERROR, check_battle
from tests.club import pgserver
from tests.club.conftest import ROOT, publish

MOVEMENT = (1, "french", "movement")
START = 8
"""Jena's first 8 events run to the start of the French movement phase of turn 1; the 16 after
them move the V Corps' brigades (and one command state change), one formation at a time."""
END = 24


def _actions(jena: Battle) -> tuple[list[list[BattleEvent]], list[list[BattleEvent]]]:
    """The movement phase's events split between two umpires by formation: the 1st division's
    moves for one, everything else for the other; the V Corps' move and its engagement are one
    action."""
    oob = jena.scenario.oob.graph
    first = {"french-1eme-division", *nx.descendants(oob, "french-1eme-division")}
    a: list[list[BattleEvent]] = []
    b: list[list[BattleEvent]] = []
    events = jena.events[START:END]
    assert all((e.turn, e.side, e.phase) == MOVEMENT for e in events)
    b.append([events[0], events[1]])  # the corps moves and becomes engaged
    for e in events[2:]:
        (a if getattr(e, "id", None) in first else b).append([e])
    assert len(a) >= 3 and len(b) >= 3
    return a, b


def _doc(e: BattleEvent) -> str:
    return repr(sorted(e.to_dict().items()))


def test_two_umpires_record_interleaved_actions_and_a_follower_sees_the_same_game(
    pg: pgserver.Server, jena: Battle
) -> None:
    url = publish(pg, Battle(jena.scenario, list(jena.events[:START])))
    actions_a, actions_b = _actions(jena)
    follower = ClubConnection(url.replace("anne@", "carl@"))  # a third window
    follower.listen()
    followed = load_club(follower.url)
    seen = len(followed.events) - 1
    seqs: dict[str, list[int]] = {"anne": [], "ben": []}
    steps = max(len(actions_a), len(actions_b))
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def record(name: str, actions: list[list[BattleEvent]]) -> None:
        try:
            with ClubConnection(url.replace("anne@", f"{name}@"), name) as conn:
                for i in range(steps):
                    barrier.wait(timeout=20)  # both umpires append at the same moment
                    if i < len(actions):
                        seqs[name] += conn.append_action(actions[i])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
            barrier.abort()

    threads = [
        threading.Thread(target=record, args=("anne", actions_a)),
        threading.Thread(target=record, args=("ben", actions_b)),
    ]
    for t in threads:
        t.start()
    total = sum(map(len, actions_a + actions_b))
    deadline = time.monotonic() + 30
    while seen < START + total - 1 and time.monotonic() < deadline:  # the window's loop
        if follower.poll(timeout=1.0) is not None:
            news = follower.events_after(seen)
            assert [s for s, _ in news] == list(range(seen + 1, seen + 1 + len(news)))
            followed.events = [*followed.events, *(e for _, e in news)]
            seen = news[-1][0] if news else seen
    for t in threads:
        t.join()
    assert not errors, errors
    # every event of both umpires once, each umpire's actions in their order, seqs gapless
    both = seqs["anne"] + seqs["ben"]
    assert sorted(both) == list(range(START, START + total))
    assert seqs["anne"] == sorted(seqs["anne"]) and seqs["ben"] == sorted(seqs["ben"])
    assert min(seqs["ben"]) < max(seqs["anne"]) and min(seqs["anne"]) < max(seqs["ben"]), "not interleaved"
    fresh = load_club(url)
    assert len(fresh.events) == START + total
    assert Counter(map(_doc, fresh.events[START:])) == Counter(map(_doc, jena.events[START:END]))
    assert [e.to_dict() for e in fresh.events[:START]] == [e.to_dict() for e in jena.events[:START]]
    errors_found = [p for p in check_battle(fresh) if p.severity == ERROR]
    assert errors_found == []
    # the follower, fed only by notifications, replays to the state a fresh open replays to
    assert seen == START + total - 1
    assert state_digest(GameLog.from_battle(followed).head) == state_digest(GameLog.from_battle(fresh).head)
    assert state_digest(GameLog.from_battle(fresh).head) != state_digest(
        GameLog.from_battle(Battle(jena.scenario, list(jena.events[:START]))).head
    )
    follower.close()


WRITER = """
import sys
from battlestudio import store
from battlestudio.store.club import ClubConnection
jena = store.load(sys.argv[2])
action = [jena.events[10]] * int(sys.argv[3])
conn = ClubConnection(sys.argv[1], "ben")
print("ready", flush=True)
while True:
    conn.append_action(action)
"""


def test_a_writer_killed_mid_action_leaves_no_partial_action(pg: pgserver.Server, jena: Battle) -> None:
    url = publish(pg, Battle(jena.scenario, list(jena.events[:START])))
    size = 400
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            WRITER,
            url.replace("anne@", "ben@"),
            str(ROOT / "scenarios" / "jena-1806.battle.json"),
            str(size),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    battle_id = url.rsplit("=", 1)[1]
    try:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 30
        while int(pg.psql(f"SELECT next_seq FROM club.battle WHERE id = {battle_id}")) < START + 3 * size:
            assert time.monotonic() < deadline and writer.poll() is None, "the writer did not record"
            time.sleep(0.02)
        # Hold club.action: the writer's next action inserts its events, moves the battle's seq
        # counter, then waits for this lock to record the action; kill it there, mid-action.
        with psycopg.connect(pg.url()) as holder:
            holder.execute("LOCK TABLE club.action IN EXCLUSIVE MODE")
            waiting = (
                "SELECT count(*) FROM pg_stat_activity WHERE usename = 'ben' AND wait_event_type = 'Lock' "
                "AND backend_xid IS NOT NULL "
                "AND query LIKE 'INSERT INTO club.action%'"
            )
            while pg.psql(waiting).strip() != "1":
                assert time.monotonic() < deadline, "the writer never reached the end of an action"
                time.sleep(0.01)
            os.kill(writer.pid, signal.SIGKILL)
            writer.wait()
            holder.rollback()
    finally:
        writer.kill()
        writer.wait()
    gone = "SELECT count(*) FROM pg_stat_activity WHERE usename = 'ben'"
    deadline = time.monotonic() + 30
    while pg.psql(gone).strip() != "0" and time.monotonic() < deadline:
        time.sleep(0.05)
    rows = pg.psql(f"SELECT count(*), coalesce(max(seq), -1) FROM battle_{battle_id}.event").strip().split("|")
    count, last = int(rows[0]), int(rows[1])
    assert (count - START) % size == 0 and count >= START + 3 * size  # whole actions only
    assert last == count - 1  # gapless
    assert int(pg.psql(f"SELECT next_seq FROM club.battle WHERE id = {battle_id}")) == count
    recorded = pg.psql(f"SELECT sum(last_seq - first_seq + 1) FROM club.action WHERE battle = {battle_id}")
    assert int(recorded) == count - START
    with ClubConnection(url) as conn:  # the next action goes on from there
        assert conn.append_action([jena.events[10]]) == [count]
    assert len(load_club(url).events) == count + 1


def test_a_player_cannot_read_the_other_sides_hidden_units_with_plain_sql(pg: pgserver.Server, jena: Battle) -> None:
    hidden = publish(pg, jena, hidden=True)
    open_ = publish(pg, jena, hidden=False)
    h, o = hidden.rsplit("=", 1)[1], open_.rsplit("=", 1)[1]
    french = sum(u.side == "french" for u in jena.scenario.units.values())
    assert 0 < french < len(jena.scenario.units)

    def sides(user: str, battle: str, table: str) -> Counter[str]:
        out = pg.psql(f"SELECT side FROM battle_{battle}.{table}", user=user)
        return Counter(out.split())

    assert sides("pierre", h, "unit") == Counter({"french": french})
    assert set(sides("pierre", h, "commander")) == {"french"}
    assert set(sides("karl", h, "unit")) == {"prussian"}
    assert "prussian" not in sides("pierre", h, "event") and sides("pierre", h, "event")["french"] > 0
    assert set(sides("pierre", o, "unit")) == {"french", "prussian"}  # positions not hidden: all
    prussian = sorted(i for i, u in jena.scenario.units.items() if u.side == "prussian")[:2]
    with ClubConnection(hidden) as umpire:  # contact: the umpire shows two Prussian brigades
        umpire.reveal(prussian, "french")
        seen = pg.psql(f"SELECT id FROM battle_{h}.unit WHERE side = 'prussian' ORDER BY id", user="pierre").split()
        assert seen == prussian
        assert set(sides("karl", h, "unit")) == {"prussian"}  # nothing changes for the other side
        umpire.conceal(prussian[:1], "french")
        assert sides("pierre", h, "unit")["prussian"] == 1
    assert sum(sides("anne", h, "unit").values()) == len(jena.scenario.units)  # the umpire: all
    assert sides("sam", h, "unit") == Counter()  # a spectator: nothing while the game runs
    with pytest.raises(subprocess.CalledProcessError) as err:  # nor may a player record
        pg.psql(f"INSERT INTO battle_{h}.event VALUES (99999, 1, 'french', 'x', 'note', '{{}}')", user="pierre")
    assert "permission denied" in err.value.stderr
    with pytest.raises(ClubError, match="sees part of battle"):
        load_club(hidden.replace("anne@", "pierre@"))
    with ClubConnection(hidden) as conn:
        conn.end_game()
    assert sum(sides("sam", h, "unit").values()) == len(jena.scenario.units)  # after the game: all
    assert len(load_club(hidden.replace("anne@", "sam@")).events) == len(jena.events)


def test_the_scenario_is_locked_while_the_game_runs(pg: pgserver.Server, jena: Battle) -> None:
    url = publish(pg, Battle(jena.scenario, []))
    battle_id = int(url.rsplit("=", 1)[1])
    pg.psql(f"UPDATE battle_{battle_id}.unit SET men = men WHERE id = 'french-40e-ligne'", user="anne")  # setup
    with ClubConnection(url) as conn:
        assert not conn.game_running()
        conn.append_action(jena.events[:3])
        assert conn.game_running()
        with pytest.raises(subprocess.CalledProcessError) as err:
            pg.psql(f"UPDATE battle_{battle_id}.unit SET men = 1", user="anne")
        assert "cannot be edited while its game runs" in err.value.stderr
        with pytest.raises(subprocess.CalledProcessError):
            pg.psql(f"DELETE FROM battle_{battle_id}.event", user="anne")
        with pytest.raises(ScenarioLocked, match="cannot be republished"):
            publish_battle(jena, conn.url.__class__.parse(pg.url(battle=battle_id)))
        conn.end_game()
        assert not conn.game_running()
        with pytest.raises(ClubError, match="game has ended"):
            conn.append_action(jena.events[3:4])
    assert publish_battle(jena, conn.url.__class__.parse(pg.url(battle=battle_id))) == battle_id  # now it may
    assert len(load_club(url).events) == len(jena.events)


def test_publish_then_fetch_gives_back_the_file(pg: pgserver.Server, jena: Battle, tmp_path: Path) -> None:
    url = publish(pg, jena)
    fetch(url, tmp_path / "copy.battle.json")
    store.save(jena, tmp_path / "original.battle.json")
    assert (tmp_path / "copy.battle.json").read_bytes() == (tmp_path / "original.battle.json").read_bytes()
    fetched = fetch(url, tmp_path / "copy.battle")
    assert battle_to_doc(store.load(tmp_path / "copy.battle")) == battle_to_doc(jena) == battle_to_doc(fetched)
    data = (tmp_path / "copy.battle").read_bytes()
    assert b"postgresql://" not in data and f":{pg.port}/".encode() not in data  # nothing of the server's
    with ClubConnection(url) as conn:  # plus the events recorded since
        conn.append_action(jena.events[:2])
    again = fetch(url, tmp_path / "later.battle")
    assert len(again.events) == len(jena.events) + 2


def test_claims_are_shared_and_a_phase_closes_when_every_umpire_has_closed_it(
    pg: pgserver.Server, jena: Battle
) -> None:
    url = publish(pg, Battle(jena.scenario, list(jena.events[:START])))
    with ClubConnection(url, "anne") as anne, ClubConnection(url.replace("anne@", "ben@"), "ben") as ben:
        ben.listen()
        assert anne.present() == ["anne", "ben"]  # who is connected to this battle
        anne.claim("french-1eme-division")
        anne.claim("french-1eme-division")  # again: harmless
        ben.claim("french-2eme-division")
        with pytest.raises(ClaimTaken) as taken:
            ben.claim("french-1eme-division")
        assert taken.value.holder == "anne" and "held by umpire 'anne'" in str(taken.value)
        with pytest.raises(ClubError, match="no formation 'french-9th-army'"):
            ben.claim("french-9th-army")
        assert anne.claims() == ben.claims() == {"french-1eme-division": "anne", "french-2eme-division": "ben"}
        ben.poll(timeout=1.0)
        assert "claims" in ben.changes()
        held = anne.holders()
        assert held["french-1eme-division"] == held["french-40e-ligne"] == "anne"  # a brigade of the division
        assert held["french-2eme-division"] == "ben" and "french-v-corps" not in held
        assert anne.busy(*MOVEMENT) == ["anne", "ben"]
        assert anne.busy(1, "prussian", "movement") == []  # nobody holds a Prussian formation
        anne.close_phase(*MOVEMENT)
        assert ben.busy(*MOVEMENT) == ["ben"]
        ben.close_phase(*MOVEMENT)
        assert anne.busy(*MOVEMENT) == []
        anne.release("french-1eme-division")
        ben.claim("french-1eme-division")
        assert anne.claims()["french-1eme-division"] == "ben"


def test_an_append_after_events_the_caller_has_not_seen_writes_nothing(pg: pgserver.Server, jena: Battle) -> None:
    url = publish(pg, Battle(jena.scenario, list(jena.events[:START])))
    with ClubConnection(url) as conn:
        assert conn.append_action(jena.events[START : START + 1], after=START - 1) == [START]
        with pytest.raises(StaleLog, match="nothing recorded"):
            conn.append_action(jena.events[START + 1 : START + 2], after=START - 1)
        assert conn.last_seq() == START


def test_a_lost_connection_is_retried_and_a_listener_catches_up(pg: pgserver.Server, jena: Battle) -> None:
    url = publish(pg, Battle(jena.scenario, list(jena.events[:START])))
    with ClubConnection(url) as writer, ClubConnection(url.replace("anne@", "ben@")) as follower:
        follower.listen()
        assert writer.append_action(jena.events[START : START + 2]) == [START, START + 1]
        pg.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename IN ('anne', 'ben')")
        time.sleep(0.2)
        assert writer.append_action(jena.events[START + 2 : START + 3]) == [START + 2]  # retried on a new connection
        assert follower.poll(timeout=1.0) == START + 2  # reconnected: says where the log is now
        assert [s for s, _ in follower.events_after(START - 1)] == [START, START + 1, START + 2]
        writer.append_action(jena.events[START + 3 : START + 4])
        assert follower.poll(timeout=2.0) == START + 3  # and listens again


def test_a_bad_event_or_an_unknown_side_is_refused_whole(pg: pgserver.Server, jena: Battle) -> None:
    from dataclasses import replace

    url = publish(pg, Battle(jena.scenario, list(jena.events[:START])))
    with ClubConnection(url) as conn:
        bad = replace(jena.events[START], side="martians")
        with pytest.raises(ClubError, match="unknown side 'martians'"):
            conn.append_action([jena.events[START], bad])
        assert conn.last_seq() == START - 1


def test_a_player_may_not_record(pg: pgserver.Server, jena: Battle) -> None:
    url = publish(pg, Battle(jena.scenario, list(jena.events[:START])))
    with ClubConnection(url.replace("anne@", "pierre@")) as player:
        with pytest.raises(ClubError, match="not allowed"):
            player.append_action(jena.events[START : START + 1])
        assert player.last_seq() == START - 1


def test_a_club_administrator_who_is_no_superuser_sets_up_and_publishes(pg: pgserver.Server, jena: Battle) -> None:
    from battlestudio.store.club import publish, serve_init

    for statement in ("CREATE ROLE clubadmin LOGIN CREATEROLE", "CREATE DATABASE club2 OWNER clubadmin"):
        pg.psql(statement, database="postgres")
    admin = pg.url(database="club2", user="clubadmin")
    serve_init(admin)
    serve_init(admin)  # again: harmless
    battle_id = publish(JENA_FILE, admin)
    umpire = pg.url(database="club2", user="anne", battle=battle_id)
    with ClubConnection(umpire) as conn:
        assert conn.append_action(jena.events[:1]) == [len(jena.events)]
    assert len(load_club(umpire).events) == len(jena.events) + 1
    pg.psql("CREATE ROLE nobody_special LOGIN", database="postgres")
    with pytest.raises(ClubError, match="may create schemas and roles"):
        serve_init(pg.url(database="club2", user="nobody_special"))


JENA_FILE = ROOT / "scenarios" / "jena-1806.battle.json"


def test_a_bad_value_on_the_server_is_named_like_a_bad_value_in_a_file(pg: pgserver.Server, jena: Battle) -> None:
    url = publish(pg, Battle(jena.scenario, list(jena.events[:START])))
    battle_id = int(url.rsplit("=", 1)[1])
    pg.psql(f"UPDATE club.battle SET status = 'finished' WHERE id = {battle_id}")
    pg.psql(f"UPDATE battle_{battle_id}.unit SET men = -5 WHERE id = 'french-40e-ligne'")
    with pytest.raises(ClubError) as err:
        load_club(url)
    assert f"battle={battle_id}: unit id='french-40e-ligne'.men:" in str(err.value)
    pg.psql(f"UPDATE battle_{battle_id}.unit SET men = 100 WHERE id = 'french-40e-ligne'")
    pg.psql(f"""UPDATE battle_{battle_id}.event SET payload = '{{"path": "north"}}' WHERE seq = 3""")
    with pytest.raises(ClubError, match="event seq=3"):
        load_club(url)
    pg.psql(f"DELETE FROM battle_{battle_id}.event WHERE seq = 3")
    with pytest.raises(ClubError, match="event seq=3: missing"):
        load_club(url)


def test_a_server_gone_for_good_is_reported_and_the_action_is_whole_or_absent(
    pg: pgserver.Server, jena: Battle
) -> None:
    from battlestudio.store.club import ClubURL, ServerUnavailable

    url = publish(pg, Battle(jena.scenario, list(jena.events[:START])))
    conn = ClubConnection(url)
    conn.url = ClubURL.parse(url.replace(f":{pg.port}/", f":{pgserver.free_port()}/"))  # reconnects go nowhere
    pg.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'anne'")
    time.sleep(0.2)
    with pytest.raises(ServerUnavailable) as err:
        conn.append_action(jena.events[START : START + 2])
    assert "start PostgreSQL" in str(err.value) and "recorded whole or not at all" in str(err.value)
    conn.close()
    assert len(load_club(url).events) == START  # here: not at all


def test_the_listening_socket_becomes_readable_when_another_umpire_records(pg: pgserver.Server, jena: Battle) -> None:
    import select

    url = publish(pg, Battle(jena.scenario, list(jena.events[:START])))
    with ClubConnection(url) as window, ClubConnection(url.replace("anne@", "ben@")) as other:
        window.listen()
        assert select.select([window.fileno()], [], [], 0.2)[0] == []  # nothing yet
        assert window.poll() is None
        other.append_action(jena.events[START : START + 3])
        assert select.select([window.fileno()], [], [], 2.0)[0] == [window.fileno()]  # what a QSocketNotifier sees
        assert window.poll() == START + 2
        other.close_phase(*MOVEMENT)
        assert select.select([window.fileno()], [], [], 2.0)[0]
        assert window.poll() is None and window.changes() == {"phases"} and window.changes() == set()


def test_the_server_and_login_may_come_from_the_pg_environment_as_for_psql(
    pg: pgserver.Server, jena: Battle, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = publish(pg, Battle(jena.scenario, list(jena.events[:START])))
    battle_id = int(url.rsplit("=", 1)[1])
    for key, value in {"PGHOST": "127.0.0.1", "PGPORT": str(pg.port), "PGUSER": "ben", "PGDATABASE": "club"}.items():
        monkeypatch.setenv(key, value)
    with ClubConnection(f"postgresql://?battle={battle_id}") as conn:
        assert conn.login == "ben" and conn.umpire == "ben"
        assert conn.last_seq() == START - 1
    assert len(load_club(f"postgresql:///club?battle={battle_id}").events) == START
