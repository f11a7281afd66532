"""The Actions dock driven by a ruleset's action specs, in the main window on the bundled
Elchingen: the map and tree selection pick the subject (Shift+click a target), an action not
legal now says why in its own row, the preview shows the exact odds, Roll records the action's
events in the open phase as one undo step, a lost table is entered by the umpire within the
unit's figures, the panel follows the replay cursor, and its Game-menu shortcut clashes with
nothing (on the xcb key table too).

The ruleset is Torden over Europa (the scenario's) with three made-up actions in place of its
own (``PanelRules``), so these tests do not depend on the rulesets' handlers.
"""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any
from collections.abc import Mapping, Sequence

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence

from battlestudio.play.document import PlayDocument
from battlestudio.replay.combat_events import Casualties, Fired, Melee
from battlestudio.replay.state import GameState
from battlestudio.rules import get_ruleset
from battlestudio.rules.actions import (
    ActionHandler,
    ActionOutcome,
    ActionPreview,
    ActionRequest,
    ActionSpec,
    ActionTable,
)
from battlestudio.rules.dice import DiceSource, DiceSpec, ReplayDice, RollRecord
from battlestudio.rules.losses import loss_event
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.session import GameSession
from battlestudio.ui.play import controller
from battlestudio.ui.play.action_panel import NO_SUBJECT
from tests.ui.window_helpers import NO_XVFB, ELCHINGEN, ModalRecorder, make_window, mouse, px

MARCOGNET = "french-bde-de-marcognet"  # 29 figures at (168, 26)
RESERVE = "austrian-reserve-bde"  # 31 figures at (136, 70)
TABLE = "Table 9 (assault), test.assault_table"


def _stamp(state: GameState) -> dict[str, Any]:
    return {"turn": state.turn, "side": state.side, "phase": state.phase}


def _volley_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    u = state.units.get(subject)
    if u is None or u.side != state.side:
        return None
    return ActionSpec(
        "volley",
        "Volley",
        term="Salve",
        rule="T 6.2",
        parameters=(ParameterSpec("target", "enemy_unit", label="Target"),),
        umpire_result=(ParameterSpec("hits", "int", minimum=0, maximum=2, label="Figures hit"),),
    )


def _volley_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    if not req.parameters.get("target"):
        raise RuleRefused("choose the target")
    return ActionPreview(
        req.action,
        req.subject,
        True,
        explanation="1d6: 5 hits one figure, 6 two (T 6.2)",
        odds=(("at least one hit (5+ on 1d6)", Fraction(1, 3)),),
        outcomes=(("no loss", Fraction(2, 3)), ("1 figure", Fraction(1, 6)), ("2 figures", Fraction(1, 6))),
    )


def _volley_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    target = str(req.parameters["target"])
    rolls: tuple[RollRecord, ...] = ()
    if req.umpire_result is not None:
        hits = int(req.umpire_result["hits"])
        why = f"the umpire read {hits} figures hit (T 6.2)"
    else:
        key = f"volley:{state.turn}:{req.subject}:{target}"
        face = dice.roll(key, DiceSpec(1, 6))[0]
        rolls = (RollRecord(key, "Volley", DiceSpec(1, 6), (face,), threshold=5, success=face >= 5),)
        hits = {5: 1, 6: 2}.get(face, 0)
        why = f"{rolls[0].explain()}: {hits} figures hit (T 6.2)"
    events: list[Any] = [
        Fired(**_stamp(state), unit=req.subject, target=target, result=f"{hits} figures", explanation=why)
    ]
    if hits:
        events.append(loss_event(state, target, hits, "fire", _stamp(state)))
    return ActionOutcome("resolved", why, tuple(events), rolls)


def _assault_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    u = state.units.get(subject)
    if u is None or u.side != state.side:
        return None
    return ActionSpec(
        "assault",
        "Assault",
        term="Stormangreb",
        rule="T 7.1",
        parameters=(ParameterSpec("defender", "enemy_unit", label="Defender"),),
        umpire_result=(ParameterSpec("figures_lost", "int", minimum=0, maximum=u.figures, label="Figures lost"),),
        umpire_table=TABLE,
    )


def _assault_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    return ActionPreview(req.action, req.subject, True, explanation=f"{TABLE} is missing", umpire_entry=True)


def _assault_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    assert req.umpire_result is not None
    lost = int(req.umpire_result["figures_lost"])
    ev = Melee(**_stamp(state), attackers=(req.subject,), defenders=(str(req.parameters["defender"]),))
    loss = loss_event(state, req.subject, lost, "melee", _stamp(state))
    return ActionOutcome("resolved", f"umpire's ruling on {TABLE}: {lost} figures lost", (ev, loss))


def _rally_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    u = state.units.get(subject)
    if u is None or u.side != state.side:
        return None
    return ActionSpec("rally", "Rally", rule="T 9.1", unavailable=f"{u.name} is not shaken: only a shaken unit rallies")


def _never(*_a: Any) -> Any:
    raise AssertionError("not legal: never previewed or resolved")


class PanelRules:
    """Torden over Europa with three test actions instead of its own: Volley (rolled, an enemy
    target, 1/3 to hit; the umpire may enter the hits instead), Assault (its table lost: the
    umpire enters the attacker's figures lost) and Rally (never legal here)."""

    def __init__(self) -> None:
        self._inner = get_ruleset("toe")
        self.id = self._inner.id
        self.table = ActionTable(
            [
                ActionHandler("volley", _volley_spec, _volley_preview, _volley_resolve),
                ActionHandler("assault", _assault_spec, _assault_preview, _assault_resolve),
                ActionHandler("rally", _rally_spec, _never, _never),
            ],
            lambda m: RuleParameters.for_ruleset("toe", m),
        )

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def actions(self, state: GameState, params: Mapping[str, Any], subject: str) -> Sequence[ActionSpec]:
        return self.table.actions(state, params, subject)

    def action_subjects(self, state: GameState, params: Mapping[str, Any]) -> Sequence[str]:
        return self.table.action_subjects(state, params)

    def preview_action(self, state: GameState, request: ActionRequest, params: Mapping[str, Any]) -> ActionPreview:
        return self.table.preview_action(state, request, params)

    def resolve_action(
        self, state: GameState, request: ActionRequest, params: Mapping[str, Any], dice: DiceSource
    ) -> ActionOutcome:
        return self.table.resolve_action(state, request, params, dice)


@pytest.fixture
def game(qtbot, tmp_path, monkeypatch):
    """The main window recording Elchingen under ``PanelRules`` (turn 1, French orders)."""

    def session(battle, seed=None, log=None):
        return GameSession(battle, PanelRules(), seed=seed, log=log)  # type: ignore[arg-type]

    monkeypatch.setattr(controller, "GameSession", session)
    ModalRecorder(monkeypatch)  # closing the window with an unsaved game asks nothing
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(ELCHINGEN, ask=False)
    w.play_view.seed = 1805
    w.play_view.actions["start"].trigger()
    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.recording
    assert tuple(doc.session.key) == (1, "french", "orders")
    w.map_view.fit_table()
    return w


def _click_unit(w, uid: str, modifiers=None) -> None:
    at = px(w.map_view, w.document.scenario.units[uid].rect().centre)
    mouse(w.map_view, "press", at, modifiers=modifiers)
    mouse(w.map_view, "release", at, modifiers=modifiers)


def _row(panel, action_id: str):
    return next(panel.list.item(i) for i in range(panel.list.count()) if panel._id_at(i) == action_id)


def test_the_selection_picks_the_subject_and_a_shift_click_the_target(game, qtbot):
    w = game
    panel = w.play_view.action_panel
    assert w.play_view.action_dock.isVisible()
    assert "Turn 1" in panel.where.text() and "French Empire" in panel.where.text()
    # who can act now: the French units, each with Volley and Assault; the phase has nothing
    subjects = [panel.subject.itemData(i) for i in range(panel.subject.count())]
    french = {u.id for u in w.document.session.state.units.values() if u.side == "french"}
    assert set(subjects) == french and panel.subject.findText(NO_SUBJECT) < 0

    _click_unit(w, MARCOGNET)
    assert w.document.selection == {MARCOGNET}
    assert (
        panel.subject.currentData() == MARCOGNET and panel.subject.currentText() == "Bde de Marcognet · French Empire"
    )
    assert [panel._id_at(i) for i in range(panel.list.count())] == ["volley", "assault", "rally"]
    assert _row(panel, "volley").text() == "Volley (Salve) — T 6.2"
    rally = _row(panel, "rally")
    assert rally.text() == "Rally — T 9.1\nNot now: Bde de Marcognet is not shaken: only a shaken unit rallies"
    assert not rally.flags() & Qt.ItemFlag.ItemIsEnabled
    assert panel.spec.id == "volley"
    # the target: enemies of the subject, nearest first, with the distance; Shift+click picks one
    target = panel.form.widgets["target"][0]
    assert target.objectName() == "action_param_target"
    names = [target.itemData(i) for i in range(target.count())]
    assert names and all(w.document.session.state.units[n].side == "austrian" for n in names)
    _click_unit(w, RESERVE, Qt.KeyboardModifier.ShiftModifier)
    assert w.document.selection == {MARCOGNET, RESERVE}
    assert panel.subject.currentData() == MARCOGNET and target.currentData() == RESERVE
    assert target.currentText().startswith("Reserve Bde (von Loudon) (")  # display_names tell the two apart

    # the order-of-battle tree: clicking the Austrian unit makes it the subject; nothing for it now
    tree = w.oob_panel.tree
    idx = w.oob_panel.index_of(RESERVE)
    tree.scrollTo(idx)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(idx).center())
    assert w.document.selection == {RESERVE}
    assert panel.subject.currentData() == RESERVE and panel.list.count() == 0
    assert "no action is offered to it in this phase" in panel.preview.toPlainText()
    assert not panel.roll_button.isEnabled()
    # with "Follow the selection" off the subject stays
    panel.follow.setChecked(False)
    _click_unit(w, MARCOGNET)
    assert panel.subject.currentData() == RESERVE


def test_odds_roll_and_undo(game, qtbot):
    w = game
    panel, doc = w.play_view.action_panel, w.document
    _click_unit(w, MARCOGNET)
    _click_unit(w, RESERVE, Qt.KeyboardModifier.ShiftModifier)
    text = panel.preview.toPlainText()
    assert "Legal — Volley (Salve) — T 6.2" in text and "1d6: 5 hits one figure, 6 two (T 6.2)" in text
    assert "• at least one hit (5+ on 1d6): 33.3 % (1/3)" in text
    assert (
        "• no loss: 66.7 % (2/3)" in text and "• 1 figure: 16.7 % (1/6)" in text and "• 2 figures: 16.7 % (1/6)" in text
    )
    assert panel.roll_button.isVisible() and panel.roll_button.isEnabled() and not panel.enter_button.isVisible()
    assert panel.instead.isVisible()  # the umpire may enter the hits instead

    doc.session.dice = ReplayDice([(f"volley:1:{MARCOGNET}:{RESERVE}", (6,))])
    before, figures = len(doc.log), doc.session.state.units[RESERVE].figures
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    new = doc.log.events[before:]
    assert [type(e) for e in new] == [Fired, Casualties]
    assert all((e.turn, e.side, e.phase) == (1, "french", "orders") for e in new)
    assert (new[0].unit, new[0].target, new[0].result) == (MARCOGNET, RESERVE, "2 figures")
    assert (new[1].unit, new[1].figures) == (RESERVE, 2)
    assert doc.session.state.units[RESERVE].figures == figures - 2
    shown = panel.outcome.toPlainText()
    assert panel.outcome.isVisible() and "Volley by Bde de Marcognet: recorded (2 events, odds 33.3 % (1/3))" in shown
    assert panel.result.explanation in shown and "2 figures hit (T 6.2)" in panel.result.explanation
    assert w.statusBar().currentMessage() == f"Volley by Bde de Marcognet: {panel.result.explanation}"
    # the panel kept subject, action and target through the refresh the recording brought
    assert panel.subject.currentData() == MARCOGNET and panel.spec.id == "volley"
    assert panel.form.widgets["target"][0].currentData() == RESERVE

    # one undo step takes both events back
    assert w.actions["undo"].text() == "&Undo Volley by Bde de Marcognet"
    w.actions["undo"].trigger()
    assert len(doc.log) == before and doc.session.state.units[RESERVE].figures == figures
    assert panel.roll_button.isEnabled()
    # the result box no longer shows the volley as recorded; Redo brings it back
    qtbot.waitUntil(lambda: panel.outcome.toPlainText().startswith("Undone: Volley by Bde de Marcognet."))
    w.actions["redo"].trigger()
    qtbot.waitUntil(lambda: "Volley by Bde de Marcognet: recorded" in panel.outcome.toPlainText())
    w.actions["undo"].trigger()
    assert len(doc.log) == before

    # the umpire enters the hits instead: within the spin box's limit, recorded without a roll
    panel.instead.setChecked(True)
    assert panel.enter_button.isVisible() and not panel.roll_button.isVisible()
    hits = panel.umpire_form.widgets["hits"][0]
    assert (hits.minimum(), hits.maximum()) == (0, 2)
    hits.setValue(1)
    qtbot.mouseClick(panel.enter_button, Qt.MouseButton.LeftButton)
    new = doc.log.events[before:]
    assert [type(e) for e in new] == [Fired, Casualties] and new[1].figures == 1
    assert w.actions["undo"].text() == "&Undo Volley by Bde de Marcognet (umpire's result)"

    # replaying the past: nothing can be done, and the panel says why
    doc.timeline.step_event(-1)
    assert not doc.recording and "Replaying" in panel.where.text() and panel.list.count() == 0
    assert not panel.roll_button.isEnabled()
    doc.timeline.to_end()
    assert panel.list.count() == 3 and panel.subject.currentData() == MARCOGNET


def test_a_lost_table_is_entered_by_the_umpire_within_the_units_figures(game, qtbot):
    w = game
    panel, doc = w.play_view.action_panel, w.document
    _click_unit(w, MARCOGNET)
    assert panel.select_action("assault")
    assert not panel.select_action("rally")  # not legal: cannot be chosen
    assert not panel.roll_button.isVisible() and panel.enter_button.isVisible() and not panel.instead.isVisible()
    assert panel.umpire_line.isVisible()
    assert panel.umpire_line.text().startswith(f"<b>Table missing:</b> {TABLE} is not in the rules text")
    assert _row(panel, "assault").text() == "Assault (Stormangreb) — T 7.1\nThe umpire enters the result"
    lost = panel.umpire_form.widgets["figures_lost"][0]
    assert lost.objectName() == "action_result_figures_lost" and lost.maximum() == 29
    # typing more than the unit's 29 figures is not accepted
    lost.setFocus()
    lost.selectAll()
    qtbot.keyClicks(lost, "40")
    assert lost.value() == 4
    lost.selectAll()
    qtbot.keyClicks(lost, "3")
    assert lost.value() == 3
    defender = panel.form.widgets["defender"][0]
    defender.setCurrentIndex(defender.findData(RESERVE))
    assert panel.enter_button.isEnabled()
    before = len(doc.log)
    qtbot.mouseClick(panel.enter_button, Qt.MouseButton.LeftButton)
    new = doc.log.events[before:]
    assert [type(e) for e in new] == [Melee, Casualties]
    assert new[0].attackers == (MARCOGNET,) and new[0].defenders == (RESERVE,)
    assert (new[1].unit, new[1].figures, new[1].cause) == (MARCOGNET, 3, "melee")
    assert all((e.turn, e.side, e.phase) == (1, "french", "orders") for e in new)
    assert doc.session.state.units[MARCOGNET].figures == 26
    assert f"umpire's ruling on {TABLE}: 3 figures lost" in panel.outcome.toPlainText()
    assert panel.outcome.isVisible()
    # the next phase refreshes the panel (the form now allows the 26 figures left) and the last
    # phase's outcome is no longer shown
    w.play_view.actions["next_phase"].trigger()
    assert not panel.outcome.isVisible()
    assert doc.session.key.phase != "orders" and doc.session.key.phase in panel.where.text().lower()
    assert panel.select_action("assault") and panel.umpire_form.widgets["figures_lost"][0].maximum() == 26


def test_the_game_menu_shows_the_panel_with_a_shortcut_of_its_own(game):
    w = game
    pv = w.play_view
    a = pv.actions["action_panel"]
    assert a.shortcut() == QKeySequence("Ctrl+Shift+T") and a.isEnabled()
    assert a in w.findChild(type(pv.menu), "menu_game").actions()
    pv.action_dock.hide()
    a.trigger()
    assert pv.action_dock.isVisible() and pv.action_panel.isVisible()
    others = [x for x in w.findChildren(QAction) if x is not a]
    assert all(a.shortcut() not in x.shortcuts() for x in others)
    assert all(a.shortcut() not in QKeySequence.keyBindings(k) for k in QKeySequence.StandardKey)


XCB_CHECK = """
import sys
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv)
assert app.platformName() == "xcb", app.platformName()
from battlestudio.ui.main_window import MainWindow
from battlestudio.ui.recovery import RecoveryStore
from battlestudio.ui.settings import Settings
w = MainWindow(Settings.at(sys.argv[1] + "/s.ini"), RecoveryStore(sys.argv[1] + "/rec"))
a = w.play_view.actions["action_panel"]
keys = a.shortcut()
taken = [k.name for k in QKeySequence.StandardKey if keys in QKeySequence.keyBindings(k)]
taken += [x.objectName() for x in w.findChildren(QAction) if x is not a and keys in x.shortcuts()]
print(keys.toString(), taken)
"""


@pytest.mark.skipif(NO_XVFB, reason="needs xvfb-run for the xcb platform")
def test_the_shortcut_is_free_on_the_xcb_key_table(tmp_path):
    """On X11 Ctrl+Shift+A is Deselect: the panel's key must be free there too."""
    env = {**os.environ, "QT_QPA_PLATFORM": "xcb", "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        ["xvfb-run", "-a", sys.executable, "-c", XCB_CHECK, str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "Ctrl+Shift+T []"


def test_a_unit_parameter_with_choices_offers_only_those_units(qtbot):
    from battlestudio import store
    from battlestudio.rules.protocol import ParameterSpec
    from battlestudio.ui.play.param_form import ParameterForm
    from tests.ui.window_helpers import ELCHINGEN

    scenario = store.load(ELCHINGEN).scenario
    state = GameState.from_scenario(scenario)
    shooter = "austrian-avantgarde"
    allowed = ("french-bde-villatte", "french-bde-roguet")
    form = ParameterForm(
        [ParameterSpec("target", "enemy_unit", label="Target", choices=allowed)], state, subject=shooter
    )
    qtbot.addWidget(form)
    (combo,) = form.widgets["target"]
    offered = [combo.itemData(i) for i in range(combo.count()) if combo.itemData(i)]
    assert sorted(offered) == sorted(allowed)
    free = ParameterForm([ParameterSpec("target", "enemy_unit", label="Target")], state, subject=shooter)
    qtbot.addWidget(free)
    (all_combo,) = free.widgets["target"]
    assert sum(bool(all_combo.itemData(i)) for i in range(all_combo.count())) > len(allowed)


def test_the_wheel_leaves_an_unfocused_combo_and_spin_box_alone(qtbot):
    """A fresh tester scrolling the Actions dock changed the values he scrolled past."""
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    from battlestudio import store
    from battlestudio.ui.play.param_form import ParameterForm
    from tests.ui.window_helpers import ELCHINGEN

    state = GameState.from_scenario(store.load(ELCHINGEN).scenario)
    form = ParameterForm(
        [
            ParameterSpec("target", "enemy_unit", label="Target"),
            ParameterSpec("damage", "int", minimum=0, maximum=20, label="Damage"),
        ],
        state,
        subject="austrian-avantgarde",
    )
    qtbot.addWidget(form)
    form.show()
    qtbot.waitExposed(form)
    (combo,) = form.widgets["target"]
    (spin,) = form.widgets["damage"]

    def wheel(widget) -> None:
        at = QPointF(widget.rect().center())
        QApplication.sendEvent(
            widget,
            QWheelEvent(
                at,
                QPointF(widget.mapToGlobal(QPoint(int(at.x()), int(at.y())))),
                QPoint(0, 0),
                QPoint(0, -120),
                Qt.MouseButton.NoButton,
                Qt.KeyboardModifier.NoModifier,
                Qt.ScrollPhase.NoScrollPhase,
                False,
            ),
        )

    before = (combo.currentIndex(), spin.value())
    wheel(combo)
    wheel(spin)
    assert (combo.currentIndex(), spin.value()) == before
    assert combo.focusPolicy() == Qt.FocusPolicy.StrongFocus  # a click or Tab gives the focus, not the wheel
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    spin.setValue(5)
    wheel(spin)  # focused: the wheel works
    assert spin.value() != 5
