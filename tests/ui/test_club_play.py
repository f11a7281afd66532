"""Club play in real windows against a real PostgreSQL server (issue 25).

Three windows on one published Elchingen 1805 battle, each with its own connection: Ann and Bea
claim a French division each (the order of battle's context menu, the Umpires dock), record
interleaved moves in the French movement phase — Bea's by dragging on the map — without
waiting for each other; Carl only follows. Every window ends on the server's log (seqs gapless,
each move once) and Carl's, followed live, has the state digest of a fresh open. Ann's Next
Phase leaves the phase open until Bea closes it too; a claimed brigade refuses the other umpire.
"""

from __future__ import annotations

from collections import Counter

import pytest

from battlestudio.replay.digest import state_digest
from battlestudio.replay.flow_events import Moved
from battlestudio.replay.game import GameLog
from tests.ui.club_server import club_battle, club_server, club_window  # noqa: F401 - fixtures
from tests.ui.test_side_on_the_move import drag_by
from tests.ui.window_helpers import ModalRecorder

LOISON, MALHER = "french-2eme-division", "french-3eme-division"
ROGUET, VILLATTE = "french-bde-roguet", "french-bde-villatte"  # Loison's
DELABASSEE, MARCOGNET = "french-bde-delabassee", "french-bde-de-marcognet"  # Malher's


def synced(*windows) -> bool:
    """Every window holds the same number of events, none of them unsent."""
    docs = [w.document for w in windows]
    return len({len(d.log) for d in docs}) == 1 and not any(d.pending for d in docs)


@pytest.fixture
def three(qtbot, tmp_path, club_battle, monkeypatch):  # noqa: F811 - the fixture
    modal = ModalRecorder(monkeypatch)
    a = club_window(qtbot, tmp_path, club_battle, "ann", "a")
    b = club_window(qtbot, tmp_path, club_battle, "bea", "b")
    c = club_window(qtbot, tmp_path, club_battle, "carl", "c")
    for w in (a, b, c):
        w.resize(1400, 900)
        w.map_view.fit_table()
    a.play_view.actions["start"].trigger()
    qtbot.waitUntil(lambda: synced(a, b, c) and len(a.document.log) > 0, timeout=3000)
    a.play_view.actions["next_phase"].trigger()  # nobody holds anything yet: it advances at once
    qtbot.waitUntil(lambda: synced(a, b, c) and c.document.session.key.phase == "movement", timeout=3000)
    yield a, b, c, club_battle, modal
    for w in (a, b, c):
        w.club.close()


def test_claims_show_in_every_window_and_refuse_the_other_umpire(qtbot, three):
    a, b, c, _url, _modal = three
    menu = a.oob_panel.context_menu(LOISON)
    claim = next(x for x in menu.actions() if x.text().startswith("Claim "))
    assert claim.text() == "Claim Louis Henri Loison as Umpire"
    claim.trigger()
    b.document.set_selection({MALHER})
    b.club.panel.claim_button.click()
    want = {LOISON: "ann", MALHER: "bea"}
    qtbot.waitUntil(lambda: all(w.document.claims == want for w in (a, b, c)), timeout=3000)
    qtbot.waitUntil(lambda: c.club.panel.tree.topLevelItemCount() == 2, timeout=3000)
    rows = {c.club.panel.tree.topLevelItem(i).text(0): c.club.panel.tree.topLevelItem(i).text(1) for i in range(2)}
    assert rows == {"Louis Henri Loison": "ann", "Jean-Pierre Firmin Malher": "bea"}
    assert "Also here: ann, bea" in c.club.panel.who.text()  # who is connected to the battle
    # Bea cannot claim Loison's division; the dock says who holds it
    b.document.set_selection({LOISON})
    b.club.panel.claim_button.click()
    assert "held by umpire ann" in b.club.panel.note.text()
    assert b.document.claims[LOISON] == "ann"
    # Ann's drag of Bea's brigade is refused, naming Bea; nothing is recorded anywhere
    n = len(a.document.log)
    before = a.document.scenario.units[DELABASSEE].position
    drag_by(a, a.document, DELABASSEE, (6.0, 0.0))
    said = a.statusBar().currentMessage()
    assert "Bde Delabassée" in said and "umpire bea" in said and "only bea may record" in said
    assert a.document.scenario.units[DELABASSEE].position == before and len(a.document.log) == n
    # a released formation is free again
    menu = a.oob_panel.context_menu(LOISON)
    next(x for x in menu.actions() if x.text().startswith("Release ")).trigger()
    qtbot.waitUntil(lambda: b.document.claims == {MALHER: "bea"}, timeout=3000)


def test_interleaved_umpires_and_a_live_follower_agree_with_a_fresh_open(qtbot, three):
    a, b, c, url, modal = three
    a.club.claim([LOISON])
    b.club.claim([MALHER])
    qtbot.waitUntil(lambda: all(len(w.document.claims) == 2 for w in (a, b, c)), timeout=3000)
    start = len(a.document.log)
    # interleaved, nobody waiting for the others' events to arrive first
    assert a.document.move([ROGUET], 6.0, 0.0)
    drag_by(b, b.document, DELABASSEE, (0.0, 8.0))  # a real drag, sent when the mouse is released
    assert a.document.move([VILLATTE], 5.0, 2.0)
    drag_by(b, b.document, MARCOGNET, (3.0, 7.0))
    assert a.document.move([ROGUET], 2.0, 0.0)
    qtbot.waitUntil(lambda: synced(a, b, c) and len(c.document.log) == start + 5, timeout=5000)
    assert not modal.of("warning"), modal.calls
    from battlestudio.store.club import ClubConnection, load_club

    with ClubConnection(url, "check") as conn:
        stored = conn.events_after(-1)
    assert [seq for seq, _ in stored] == list(range(len(stored)))  # gapless, from 0
    moved = Counter(e.id for _s, e in stored[start:] if isinstance(e, Moved))
    assert moved == {ROGUET: 2, DELABASSEE: 1, VILLATTE: 1, MARCOGNET: 1}
    fresh = state_digest(GameLog.from_battle(load_club(url)).head)
    assert {state_digest(w.document.log.head) for w in (a, b, c)} == {fresh}
    # the follower's map shows the state at its live cursor
    assert c.document.timeline.at_end
    assert c.document.scenario.units[MARCOGNET].position == b.document.scenario.units[MARCOGNET].position


def test_the_phase_advances_only_once_both_umpires_closed_it(qtbot, three):
    a, b, c, url, _modal = three
    a.club.claim([LOISON])
    b.club.claim([MALHER])
    qtbot.waitUntil(lambda: all(len(w.document.claims) == 2 for w in (a, b, c)), timeout=3000)
    n = len(a.document.log)
    a.play_view.actions["next_phase"].trigger()
    assert "goes on until bea closes it too" in a.statusBar().currentMessage()
    assert a.document.session.key.phase == "movement" and len(a.document.log) == n
    qtbot.waitUntil(lambda: "waiting for bea" in c.club.panel.phase.text(), timeout=3000)
    assert "waiting for bea" in a.club.strip.text()
    qtbot.waitUntil(lambda: "you still busy" in b.club.panel.phase.text(), timeout=3000)
    b.play_view.actions["next_phase"].trigger()
    qtbot.waitUntil(lambda: synced(a, b, c) and len(a.document.log) > n, timeout=3000)
    assert {w.document.session.key.phase for w in (a, b, c)} == {"visual_contact"}
    starts = [e for e in a.document.log.events if type(e).__name__ == "PhaseStarted" and e.phase == "visual_contact"]
    assert len(starts) == 1  # advanced once, by Bea's window


def test_the_actions_dock_refuses_another_umpires_unit(qtbot, three):
    a, b, c, _url, _modal = three
    for _ in range(3):  # movement, visual contact, attack declaration: nobody holds anything
        a.play_view.actions["next_phase"].trigger()
    qtbot.waitUntil(lambda: synced(a, b, c) and c.document.session.key.phase == "fire", timeout=3000)
    c.club.claim(["austrian-1st-div"])  # Carl umpires von Loudon's division in the Austrian fire
    qtbot.waitUntil(lambda: a.document.claims == {"austrian-1st-div": "carl"}, timeout=3000)
    n = len(a.document.log)
    panel = a.play_view.action_panel
    assert panel.set_subject("austrian-avantgarde") and panel.select_action("morale_test")
    assert panel.roll() is None
    assert "Not recorded" in panel.outcome.toPlainText()
    said = a.statusBar().currentMessage()
    assert "Avantgarde" in said and "umpire carl" in said and "only carl may record" in said
    assert len(a.document.log) == n
    theirs = c.play_view.action_panel
    assert theirs.set_subject("austrian-avantgarde") and theirs.select_action("morale_test")
    assert theirs.roll() is not None
    qtbot.waitUntil(lambda: synced(a, b, c) and len(a.document.log) > n, timeout=3000)


def test_a_window_that_lost_its_connection_catches_up_from_its_last_seq(qtbot, tmp_path, club_battle, club_server):  # noqa: F811
    from battlestudio.store.club import ClubConnection

    b = club_window(qtbot, tmp_path, club_battle, "bea", "b")
    with ClubConnection(club_battle, "ann") as writer:
        from battlestudio.session import GameSession
        from battlestudio.store.club import load_club

        session = GameSession(load_club(club_battle), seed=4)
        session.start()
        writer.append_action(list(session.battle.events))
        qtbot.waitUntil(lambda: len(b.document.log) == len(session.battle.events), timeout=3000)
        # the network drops Bea's connections; Ann goes on recording meanwhile
        cut = club_server.psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'battlestudio%bea' "
            "AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'"
        )
        assert cut.split() == ["t"], cut  # Bea's listening connection, the one that was cut
        seen = len(session.battle.events)
        session.next_phase()
        unit = session.state.units["french-bde-delabassee"]
        session.move("french-bde-delabassee", [unit.position, (unit.position[0], unit.position[1] + 9.0)])
        writer.append_action(list(session.battle.events[seen:]), after=seen - 1)
        qtbot.waitUntil(lambda: len(b.document.log) == len(session.battle.events), timeout=5000)
    assert state_digest(b.document.log.head) == state_digest(session.state)
    assert (
        b.document.scenario.units["french-bde-delabassee"].position
        == session.state.units["french-bde-delabassee"].position
    )
    b.club.close()


def test_ending_the_game_stops_recording_in_every_window(qtbot, three):
    a, b, c, url, modal = three
    modal.question_answer = modal.question_answer.Yes
    b.club.panel.end_button.click()
    asked = modal.of("question")
    assert asked and asked[-1][1] == "End club game"
    ended = b.document.ENDED
    qtbot.waitUntil(lambda: all(w.document.finished for w in (a, b, c)), timeout=3000)
    for w in (a, b, c):
        assert not w.play_view.actions["next_phase"].isEnabled()
        assert w.club.panel.phase.text() == f"<i>{ended}</i>"
    n = len(a.document.log)
    assert a.document.move([ROGUET], 3.0, 0.0) == []
    assert a.statusBar().currentMessage() == ended and len(a.document.log) == n
    from battlestudio.store.club import ClubConnection

    with ClubConnection(url, "check") as conn:
        assert not conn.game_running() and conn.last_seq() == n - 1


def test_a_late_next_phase_does_not_close_the_phase_the_others_opened(qtbot, three):
    a, b, c, _url, _modal = three
    a.club.claim([LOISON])
    b.club.claim([MALHER])
    qtbot.waitUntil(lambda: all(len(w.document.claims) == 2 for w in (a, b, c)), timeout=3000)
    b.play_view.actions["next_phase"].trigger()  # Bea is done; Ann is not
    assert b.document.session.key.phase == "movement"
    a.play_view.actions["next_phase"].trigger()  # Ann closes last: her window opens the next phase
    assert a.document.session.key.phase == "visual_contact"
    b.play_view.actions["next_phase"].trigger()  # Bea presses again before her window has seen it
    said = b.statusBar().currentMessage()
    assert "movement of turn 1 was closed meanwhile; now visual_contact" in said, said
    assert b.document.session.key.phase == "visual_contact"
    assert "bea" in b.document.busy()  # she has not closed the new phase
    qtbot.waitUntil(lambda: synced(a, b, c), timeout=3000)
    starts = [e for e in c.document.log.events if type(e).__name__ == "PhaseStarted" and e.phase == "visual_contact"]
    assert len(starts) == 1


def test_a_resting_drag_is_sent_and_a_window_replaying_the_past_stays_there(qtbot, three):
    a, b, c, _url, _modal = three
    c.document.timeline.seek(1)  # Carl looks back at the start of the game
    n = len(a.document.log)
    a.document.move([VILLATTE], 2.0, 0.0, key="drag")  # a drag held still, mouse not yet released
    assert a.document.pending == 1
    qtbot.waitUntil(lambda: a.document.pending == 0, timeout=2000)  # sent after it rested
    qtbot.waitUntil(lambda: len(c.document.log) == n + 1 and len(b.document.log) == n + 1, timeout=3000)
    assert c.document.timeline.position == 1  # the past stays on Carl's map
    assert b.document.timeline.at_end and b.document.scenario.units[VILLATTE].position == (
        a.document.scenario.units[VILLATTE].position
    )
    assert c.play_view.actions["resume"].isEnabled()
    c.play_view.actions["resume"].trigger()
    assert c.document.timeline.at_end
    assert c.document.scenario.units[VILLATTE].position == a.document.scenario.units[VILLATTE].position
