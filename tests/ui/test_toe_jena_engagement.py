"""A recorded two-turn engagement at Jena in the window under Torden over Europa (issue 16's
Done-when): on the bundled Jena scenario, Lannes' 34e Ligne in base contact with von Pelet's
Prussian brigade, the 88e Ligne behind it as its support (7.1), batteries of both sides within
range; two turns played through the Game menu and the Actions dock: fire spending ammunition
(6.1, 6.2), a reaction (5.2), a melee with its support (7.1), the morale test (7.2) and the
winner's advance (7.3); saved, reopened, and the reopened log replays to the same state
(``state_digest``); every roll's explanation names its rule.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtWidgets import QSpinBox

from battlestudio import store
from battlestudio.play.document import PlayDocument
from battlestudio.replay.battle import Battle
import tests.ui.test_every_ruleset_two_turns as two_turns
from tests.ui.test_every_ruleset_two_turns import _digests, _phase_steps
from tests.ui.window_helpers import ModalRecorder, make_window

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"

# the engagement, placed by the designer: front edges touching at y = 190 (French face north)
ENGAGE = {
    "french-34e-ligne": (422.0, 190.0),  # column, its front on von Pelet's front
    "french-88e-ligne": (422.0, 183.0),  # same division, arm and corps, 2.5 cm behind: support (7.1)
    "french-v-corps-foot-guns-1": (404.0, 176.0),  # Lannes' battery, 14 cm from the Prussian guns
}
WANTED = {"fire", "react", "melee", "morale_test", "advance"}
RULE = re.compile(r"\b[1-9]\.\d+(\.\d+)?\b|\bA\d+\b|Table \d+")


def _jena_without_its_game(tmp_path: Path) -> Path:
    battle = store.load(JENA)
    fresh = Battle(battle.scenario, [])
    path = tmp_path / "jena-engagement.battle.json"
    store.save(fresh, path)
    return path


LOSER = "prussian-bde-von-pelet"
WINNER = "french-34e-ligne"
_FILL_UNSET = two_turns._fill_unset


def _play(qtbot, w, last: int, used, offered, failed) -> None:
    """Every phase to the end of turn ``last``; once the Prussians have lost a melee and taken
    their morale test, the umpire drags them back 6 cm (the test's result, Tables 9-11 being
    lost), and the winner follows up (7.3.1)."""
    doc: PlayDocument = w.document
    for _ in range(80):
        _phase_steps(qtbot, w, used, offered, failed)
        k = doc.session.key
        if k.phase == "attack_declaration":  # the reactions the declarations opened (1.2 steps 4.2-4.3, 5.2)
            two_turns._act_all(qtbot, w, used, offered, failed)
        if k.phase == "attack" and "fall back" not in used and any(e.kind == "melee" for e in doc.log.events):
            panel = w.play_view.action_panel
            panel.refresh()
            mine = {"interrupt_attack": 2, "melee": 2}  # the loser's own morale test (7.2), after the melee
            assert panel.set_subject(LOSER)
            two_turns._act_subject(qtbot, w, panel, LOSER, mine, offered, failed)
            assert mine.get("morale_test") == 1, failed
            doc.move([LOSER], 0.0, 6.0, key=("fall back", LOSER))  # the umpire's result: it falls back
            used["fall back"] = 1
            panel.refresh()
            assert panel.set_subject(WINNER)
            two_turns._act_subject(qtbot, w, panel, WINNER, used, offered, failed)  # it follows up (7.3.1)
        if doc.session.next_step().turn > last:
            break
        w.play_view.actions["next_phase"].trigger()
    assert doc.session.key.turn == last


def _fill_with_support(form) -> None:
    """The umpire's choices in an action's form: a choice left unset takes its first value, and
    the melee's support unit (7.1) the first one offered."""
    _FILL_UNSET(form)
    for p in form.specs if form is not None else ():
        if p.name == "distance_cm":  # the winner's full follow-up (7.3.1 'op til 5 cm', A30)
            for box in form.widgets.get(p.name, ()):
                if isinstance(box, QSpinBox):
                    box.setValue(box.maximum())
        if p.name != "support":
            continue
        for box in form.widgets.get(p.name, ()):
            filled = [i for i in range(box.count()) if box.itemData(i) not in (None, "")]
            if filled and box.currentData() in (None, ""):
                box.setCurrentIndex(filled[0])


def test_two_turns_at_jena_fire_reaction_melee_with_support_morale_and_advance(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    monkeypatch.setattr(two_turns, "_fill_unset", _fill_with_support)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(_jena_without_its_game(tmp_path), ask=False)
    doc = w.document
    assert doc.scenario.info.ruleset == "toe"
    for uid, (x, y) in ENGAGE.items():  # the designer's move verb (what a drag calls)
        u = doc.scenario.units[uid]
        doc.move([uid], x - u.position[0], y - u.position[1], key=("engage", uid))
    w.play_view.seed = 1806
    w.play_view.actions["start"].trigger()
    play = w.document
    assert isinstance(play, PlayDocument) and play.recording

    used: dict[str, int] = {"interrupt_attack": 2}  # the umpire lets every declared attack go in (no 5.4 interruption)
    offered: set[str] = set()
    failed: dict[str, str] = {}
    _play(qtbot, w, 2, used, offered, failed)
    missing = WANTED - set(used)
    assert not missing, f"never used {sorted(missing)}; used {sorted(used)}; {failed}"

    events = play.log.events
    assert any(e.kind == "ammunition_used" for e in events)  # 6.2: a battery's shot costs a round
    melees = [e for e in events if e.kind == "melee" and e.attackers == (WINNER,)]
    assert melees and melees[0].roll["support"] == "french-88e-ligne"  # 7.1
    assert "88e Ligne supports 34e Ligne" in melees[0].explanation
    assert any(e.kind == "morale_test" and e.unit == LOSER for e in events)  # 7.2.2
    advanced = [e for e in events if e.kind == "moved" and e.id == WINNER and e.phase == "attack"]
    assert advanced and advanced[0].path[-1][1] - advanced[0].path[0][1] == 5.0  # 7.3.1: 5 cm on
    reacted = [e for e in events if e.kind == "command_state_changed" and e.phase == "attack_declaration"]
    assert reacted  # 5.2: a reaction was rolled
    explained = [e.explanation for e in events if e.kind in ("fired", "melee", "morale_test")]
    explained += [e.reason for e in reacted]
    for text in explained:  # every roll's explanation (or the umpire's entry) names its rule
        assert RULE.search(text), f"an explanation that names no rule: {text}"

    path = tmp_path / "jena-engagement.battle"
    assert w.files.save_to(path)
    recorded = _digests(play)
    assert w.files.open_path(path, ask=False)
    again = w.document
    assert isinstance(again, PlayDocument) and again is not play
    assert _digests(again) == recorded
