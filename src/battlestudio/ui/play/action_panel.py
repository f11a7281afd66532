"""The Actions dock: what the ruleset lets a subject do in the open phase, its odds, the roll.

Driven entirely by the ruleset's action specs (``rules.actions``, ``GameSession.actions``,
``preview_action``, ``act``), so a new ruleset needs no dialog of its own:

- the **subject**: the unit or commander selected on the map or in the order of battle (while
  "Follow the selection" is on), or one picked from "who can act now" (``action_subjects``), or
  the phase's actions without a subject. Shift+clicking another unit while the subject stays
  selected fills the action's first unit field that offers it (a target) instead;
- the **actions** offered to it, each with its term and rule section; those not legal now are
  disabled and say why in their own text (``ActionSpec.unavailable``);
- a **form** from the action's ``parameters`` (``ParameterForm``);
- the **preview**: legality, the explanation, the exact odds as percentages and fractions, the
  outcomes of a table roll, the assumed readings — recomputed whenever subject or form change;
- **Roll** records the action through ``PlayDocument.run`` as one undo step and shows the
  outcome's explanation here and in the status bar (``status``). When the seed lost the table
  (``umpire_table``), Roll gives way to **Enter result** with a form of the ``umpire_result``
  fields and a line naming the missing table; a rollable action with ``umpire_result`` fields
  offers "Enter result instead".

It follows its ``PlayDocument``: recorded events (a roll, Next Phase, undo, redo), the replay
cursor and the selection. While replaying it says why nothing can be done.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from battlestudio.model.names import display_names
from battlestudio.play.document import PlayDocument
from battlestudio.rules.actions import ActionRequest, ActionSpec
from battlestudio.rules.odds import pct
from battlestudio.rules.params import RuleRefused
from battlestudio.session import SessionError
from battlestudio.ui.play.param_form import ParameterForm
from battlestudio.ui.play.idle_slice import IdleSlice

if TYPE_CHECKING:
    from battlestudio.document import Document
    from battlestudio.ui.map_view import MapView

NO_SUBJECT = "— the phase (no subject)"


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br>")


def chance(p: Fraction) -> str:
    """``Fraction(1, 3)`` → ``"33.3 % (1/3)"``: the percentage and the exact fraction."""
    return f"{pct(p)} ({p.numerator}/{p.denominator})"


def action_title(spec: ActionSpec) -> str:
    """The label, the ruleset's term where it differs and the section: "Volley (Salve) — 7.2"."""
    term = f" ({spec.term})" if spec.term and spec.term != spec.label else ""
    rule = f" — {spec.rule}" if spec.rule else ""
    return f"{spec.label}{term}{rule}"


class ActionPanel(QWidget):
    """The Actions dock's widget (see the module docstring); ``view`` is the map, for picking
    points. ``set_document`` binds it to the shown document.

    Signals
    -------
    status(str, int)
        a message for the status bar and how long to show it (ms).
    """

    status = Signal(str, int)

    def __init__(self, view: MapView | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("action_panel")
        self.view = view
        self.doc: PlayDocument | None = None
        # while the replay plays, the panel follows a step in a slice of its own
        self._later = IdleSlice(self.refresh, lambda: self.doc is not None and self.doc.timeline.playing, self)
        self.result: Any = None  # the last IssueResult
        self.form: ParameterForm | None = None
        self.umpire_form: ParameterForm | None = None
        self._specs: dict[str, ActionSpec] = {}
        self._selection: frozenset[str] = frozenset()
        self._filling = False
        self._chosen: str | None = None  # the subject chosen last (kept while replaying)

        self.where = QLabel(self)
        self.where.setObjectName("action_where")
        self.where.setWordWrap(True)
        self.subject = QComboBox(self)
        self.subject.setObjectName("action_subject")
        self.subject.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.subject.setMinimumContentsLength(18)
        self.subject.setToolTip("Who acts: units and commanders with a legal action now, and the selected one")
        self.follow = QCheckBox("Follow the selection", self)
        self.follow.setObjectName("action_follow")
        self.follow.setChecked(True)
        self.follow.setToolTip("The unit or commander selected on the map or in the order of battle is the subject")
        self.list = QListWidget(self)
        self.list.setObjectName("action_list")
        self.list.setWordWrap(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.list.setMinimumHeight(80)
        self.note = QLabel(self)
        self.note.setObjectName("action_note")
        self.note.setWordWrap(True)
        self.form_host = QVBoxLayout()
        self.preview = QTextBrowser(self)
        self.preview.setObjectName("action_preview")
        self.preview.setMinimumHeight(90)
        self.umpire_line = QLabel(self)
        self.umpire_line.setObjectName("action_umpire_line")
        self.umpire_line.setWordWrap(True)
        self.instead = QCheckBox("Enter result instead", self)
        self.instead.setObjectName("action_enter_instead")
        self.instead.setToolTip("Enter the table's result by hand instead of rolling")
        self.umpire_host = QVBoxLayout()
        self.roll_button = QPushButton("Roll", self)
        self.roll_button.setObjectName("action_roll")
        self.enter_button = QPushButton("Enter result", self)
        self.enter_button.setObjectName("action_enter")
        self.outcome = QTextBrowser(self)
        self.outcome.setObjectName("action_outcome")
        self.outcome.setMinimumHeight(60)
        self.outcome.hide()

        top = QHBoxLayout()
        top.addWidget(QLabel("Subject", self))
        top.addWidget(self.subject, 1)
        inner = QWidget(self)  # scrolls rather than squeezing its rows into each other
        lay = QVBoxLayout(inner)
        lay.setContentsMargins(4, 4, 4, 4)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # wrap to the dock's width
        scroll.setWidget(inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        lay.addWidget(self.where)
        lay.addLayout(top)
        lay.addWidget(self.follow)
        lay.addWidget(self.list, 1)
        lay.addWidget(self.note)
        lay.addLayout(self.form_host)
        lay.addWidget(self.preview, 1)
        lay.addWidget(self.umpire_line)
        lay.addWidget(self.instead)
        lay.addLayout(self.umpire_host)
        buttons = QHBoxLayout()  # below the scrolled part: always in reach on a short screen
        buttons.setContentsMargins(4, 2, 4, 4)
        buttons.addStretch(1)
        buttons.addWidget(self.enter_button)
        buttons.addWidget(self.roll_button)
        outer.addLayout(buttons)
        lay.addWidget(self.outcome, 1)

        self.subject.currentIndexChanged.connect(self._on_subject)
        self.list.currentRowChanged.connect(self._on_action)
        self.instead.toggled.connect(lambda _on: self._show_entry())
        self.roll_button.clicked.connect(self.roll)
        self.enter_button.clicked.connect(self.enter_result)
        self.refresh()

    # -- binding ------------------------------------------------------------------------------
    def set_document(self, doc: Document | None) -> None:
        """Follow ``doc`` when it is a game (``PlayDocument``); otherwise show nothing to do."""
        old = self.doc
        if old is not None:
            old.recorded.disconnect(self.refresh)
            old.selection_changed.disconnect(self.follow_selection)
            old.timeline.position_changed.disconnect(self._on_position)
        self.doc = doc if isinstance(doc, PlayDocument) else None
        self._selection = frozenset()
        self._chosen = None
        self.outcome.hide()
        if self.doc is not None:
            self.doc.recorded.connect(self.refresh)
            self.doc.selection_changed.connect(self.follow_selection)
            self.doc.timeline.position_changed.connect(self._on_position)
            self._selection = self.doc.selection
        self.refresh()

    def _on_position(self, _pos: int) -> None:
        self._later()

    @property
    def session(self) -> Any:
        return self.doc.session if self.doc is not None else None

    def _why_not(self) -> str:
        if self.doc is None:
            return "No game: Game ▸ Start Game records one."
        return self.doc.why_not_recording()

    # -- subjects -----------------------------------------------------------------------------
    def refresh(self) -> None:
        """Rebuild from the open phase: subjects (keeping the chosen one), its actions (keeping
        the chosen action) and the form (keeping the values it can)."""
        why = self._why_not()
        s = self.session
        keep = self._chosen
        if why or s is None or getattr(self, "_outcome_key", None) != tuple(s.key):
            self.outcome.hide()  # the last outcome belongs to the phase it was recorded in
        else:
            self._show_outcome_as_logged()
        self._filling = True
        self.subject.clear()
        if why or s is None:
            self.where.setText(f"<i>{_esc(why)}</i>")
            self._filling = False
            self._fill_actions()
            return
        k = s.key
        try:
            phase = s.step().spec.name
        except SessionError:
            phase = k.phase
        side = self.doc.base.scenario.sides.get(k.side) if self.doc is not None else None
        self.where.setText(
            f"<b>Turn {k.turn}</b> · {_esc(side.name.split(':')[0] if side else k.side)} · {_esc(phase)}"
        )
        try:
            ids = list(s.action_subjects())
            if "" not in ids and s.actions(""):
                ids.insert(0, "")
        except RuleRefused as exc:
            ids = []
            self.where.setText(self.where.text() + f"<br>{_esc(str(exc))}")
        state = s.state
        sel = [i for i in sorted(self._selection) if i in state.units or i in state.commanders]
        for i in sel:
            if i not in ids:
                ids.append(i)
        names = display_names(state)
        for i in ids:
            self.subject.addItem(self._subject_text(i, names), i)
        want = keep if keep is not None and self.subject.findData(keep) >= 0 else (sel[0] if sel else None)
        j = self.subject.findData(want) if want is not None else -1
        self.subject.setCurrentIndex(j if j >= 0 else 0)
        self._chosen = self.subject.currentData()
        self._filling = False
        self._fill_actions()

    def _subject_text(self, rid: str, names: dict[str, str]) -> str:
        if not rid:
            return NO_SUBJECT
        s = self.session
        rec = s.state.record(rid)
        side = self.doc.base.scenario.sides.get(rec.side) if self.doc is not None and rec is not None else None
        who = side.name.split(":")[0] if side else (rec.side if rec is not None else "")
        return f"{names.get(rid, rid)} · {who}" if who else names.get(rid, rid)

    def set_subject(self, rid: str) -> bool:
        """Make ``rid`` the subject (added to the list when it has no legal action now, so its
        actions show why); False when it is no unit or commander on the table."""
        s = self.session
        if s is None or self._why_not() or (rid and s.state.record(rid) is None):
            return False
        j = self.subject.findData(rid)
        if j < 0:
            self.subject.addItem(self._subject_text(rid, display_names(s.state)), rid)
            j = self.subject.count() - 1
        if j == self.subject.currentIndex():
            return True
        self.subject.setCurrentIndex(j)
        return True

    def follow_selection(self, ids: frozenset[str]) -> None:
        """The map's or the tree's selection is now ``ids``: a unit added to a selection that
        still holds the subject fills a unit field of the form (a target); otherwise the newly
        selected unit or commander becomes the subject (while "Follow the selection" is on)."""
        added = sorted(ids - self._selection)
        self._selection = frozenset(ids)
        s = self.session
        if not self.follow.isChecked() or s is None or self._why_not():
            return
        state = s.state
        added = [i for i in added if i in state.units or i in state.commanders]
        current = self.subject.currentData()
        if added and current and current in ids and self.form is not None and self.form.offer_unit(added[0]):
            return
        pick = added or [i for i in sorted(ids) if i in state.units or i in state.commanders]
        if pick:
            self.set_subject(pick[0])

    def _on_subject(self, _i: int) -> None:
        if not self._filling:
            self._chosen = self.subject.currentData()
            self._fill_actions()

    # -- actions ------------------------------------------------------------------------------
    def _fill_actions(self) -> None:
        keep = self._current_id()
        self.list.blockSignals(True)
        self.list.clear()
        self._specs = {}
        s = self.session
        subject = self.subject.currentData()
        specs: list[ActionSpec] = []
        if s is not None and subject is not None and not self._why_not():
            try:
                specs = list(s.actions(subject))
            except RuleRefused as exc:
                self.note.setText(_esc(str(exc)))
        for spec in specs:
            self._specs[spec.id] = spec
            text = action_title(spec)
            if spec.unavailable:
                text += f"\nNot now: {spec.unavailable}"
            elif spec.umpire_table:
                text += "\nThe umpire enters the result"
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, spec.id)
            item.setToolTip(spec.unavailable or spec.note or spec.label)
            if spec.unavailable:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled & ~Qt.ItemFlag.ItemIsSelectable)
            self.list.addItem(item)
        legal = [i for i in range(self.list.count()) if self._specs[self._id_at(i)].legal]
        rows = [i for i in legal if self._id_at(i) == keep] or legal
        self.list.setCurrentRow(rows[0] if rows else -1)
        self.list.blockSignals(False)
        self._build_forms()

    def _id_at(self, row: int) -> str:
        item = self.list.item(row)
        return str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else ""

    def _current_id(self) -> str:
        return self._id_at(self.list.currentRow())

    @property
    def spec(self) -> ActionSpec | None:
        """The action chosen now (None: none legal)."""
        return self._specs.get(self._current_id())

    def select_action(self, action_id: str) -> bool:
        """Choose action ``action_id`` of the subject; False when it is not offered or not legal."""
        for i in range(self.list.count()):
            if self._id_at(i) == action_id and self._specs[action_id].legal:
                self.list.setCurrentRow(i)
                return True
        return False

    def _on_action(self, _row: int) -> None:
        self._build_forms()

    # -- forms --------------------------------------------------------------------------------
    def _build_forms(self) -> None:
        old = self.form.values() if self.form is not None else {}
        old_entry = self.umpire_form.values() if self.umpire_form is not None else {}
        for f, host in ((self.form, self.form_host), (self.umpire_form, self.umpire_host)):
            if f is not None:  # hidden first: a widget without a parent would show as a window
                f.hide()
                host.removeWidget(f)
                f.deleteLater()
        self.form = self.umpire_form = None
        spec, s = self.spec, self.session
        self.note.setText(_esc(spec.note) if spec is not None and spec.note else "")
        self.note.setVisible(bool(self.note.text()))
        if spec is not None and s is not None:
            subject = self.subject.currentData() or ""
            state, side = s.state, s.key.side
            self.form = ParameterForm(spec.parameters, state, subject, side, "action_param", self.view, self)
            _restore(self.form, old)
            self.form.changed.connect(self.update_preview)
            self.form_host.addWidget(self.form)
            if spec.umpire_result:
                self.umpire_form = ParameterForm(
                    spec.umpire_result, state, subject, side, "action_result", self.view, self, ask_bools=True
                )
                _restore(self.umpire_form, old_entry)
                self.umpire_form.changed.connect(self.update_preview)
                self.umpire_host.addWidget(self.umpire_form)
        self.instead.blockSignals(True)
        self.instead.setChecked(False)
        self.instead.blockSignals(False)
        self._show_entry()

    @property
    def entering(self) -> bool:
        """True when the umpire enters the result (a lost table, or "Enter result instead")."""
        spec = self.spec
        return spec is not None and (bool(spec.umpire_table) or (bool(spec.umpire_result) and self.instead.isChecked()))

    def _show_entry(self) -> None:
        spec = self.spec
        lost = spec is not None and bool(spec.umpire_table)
        self.instead.setVisible(spec is not None and spec.rolls and bool(spec.umpire_result))
        if self.umpire_form is not None:
            self.umpire_form.setVisible(self.entering)
        self.umpire_line.setVisible(lost)
        if lost and spec is not None:
            self.umpire_line.setText(
                f"<b>Table missing:</b> {_esc(spec.umpire_table)} is not in the rules text — "
                "the umpire enters the result."
            )
        self.roll_button.setVisible(not self.entering)
        self.enter_button.setVisible(self.entering)
        self.update_preview()

    # -- preview ------------------------------------------------------------------------------
    def request(self) -> ActionRequest | None:
        """The action as chosen and filled in now (None when no legal action is chosen)."""
        spec = self.spec
        if spec is None or self.form is None:
            return None
        entry = self.umpire_form.values() if self.entering and self.umpire_form is not None else None
        return ActionRequest(spec.id, self.subject.currentData() or "", self.form.values(), entry)

    def update_preview(self) -> None:
        """Show legality, explanation and exact odds of the request as it stands."""
        self.roll_button.setEnabled(False)
        self.enter_button.setEnabled(False)
        why = self._why_not()
        if why:
            self.preview.setHtml(_esc(why))
            return
        spec, req = self.spec, self.request()
        if spec is None or req is None:
            n = len(self._specs)
            self.preview.setHtml(
                "Nothing this subject may do now: "
                + (
                    "every action offered is disabled (see why above)."
                    if n
                    else "no action is offered to it in this phase."
                )
                if self.subject.count()
                else "No one can act in this phase."
            )
            return
        missing = self.form.missing() if self.form is not None else []
        if self.entering and self.umpire_form is not None:
            missing += self.umpire_form.missing()
        try:
            pv = self.session.preview_action(req)
        except (RuleRefused, SessionError) as exc:
            self.preview.setHtml(f"<b style='color:#b00020'>Refused:</b> {_esc(str(exc))}")
            return
        html = []
        if not pv.legal:
            html.append(f"<b style='color:#b00020'>Not legal:</b> {_esc(pv.reason)}")
        else:
            html.append(f"<b style='color:#1e7d32'>Legal</b> — {_esc(action_title(spec))}")
        if pv.explanation:
            html.append(_esc(pv.explanation))
        if pv.odds:
            html.append("<b>Odds</b>")
            html += [f"• {_esc(label)}: <b>{chance(p)}</b>" for label, p in pv.odds]
        if pv.outcomes:
            html.append("<b>Outcomes of the table roll</b>")
            html += [f"• {_esc(label)}: {chance(p)}" for label, p in pv.outcomes]
        if pv.assumed:
            html.append("<i>Assumed readings:</i> " + _esc("; ".join(pv.assumed)))
        if missing:
            html.append("<b>Fill in:</b> " + _esc(", ".join(missing)))
        self.preview.setHtml("<br>".join(html))
        self.roll_button.setText("Roll" if pv.odds or pv.outcomes else "Record")  # nothing rolled: say so
        ok = pv.legal and not missing
        self.roll_button.setEnabled(ok and not self.entering)
        self.enter_button.setEnabled(ok and self.entering)

    # -- roll / enter -------------------------------------------------------------------------
    def roll(self) -> Any:
        """Roll the chosen action through the session's dice (one undo step)."""
        return self._act()

    def enter_result(self) -> Any:
        """Record the umpire's entered result of the chosen action (one undo step)."""
        return self._act()

    _outcome_logged: tuple[int, str, str] | None = None
    """(log length once the shown outcome was recorded, its html, its action's text)."""

    def _show_outcome_as_logged(self) -> None:
        """The outcome box as the log stands: an outcome that Undo took back says so (and comes
        back with Redo)."""
        doc, logged = self.doc, self._outcome_logged
        if doc is None or logged is None or not self.outcome.isVisible():
            return
        n, html, text = logged
        if len(doc.log) >= n:
            self.outcome.setHtml(html)
        else:
            self.outcome.setHtml(f"<i>Undone: {_esc(text)}. Nothing of it is in the log now.</i>")

    def _act(self) -> Any:
        req, spec, doc = self.request(), self.spec, self.doc
        if req is None or spec is None or doc is None:
            return None
        who = self.subject.currentText().split(" · ")[0] if req.subject else ""
        text = (
            spec.label + (f" by {who}" if who else "") + (" (umpire's result)" if req.umpire_result is not None else "")
        )

        def act(session: Any) -> Any:
            try:
                return session.act(req)
            except RuleRefused as exc:
                raise ValueError(str(exc)) from None

        res = doc.run(text, act)
        self._outcome_logged = None
        self._outcome_key = tuple(doc.session.key) if doc.session is not None else None
        self.outcome.show()
        if res is None or res is True:
            self.outcome.setHtml("<b style='color:#b00020'>Not recorded.</b> See the status bar.")
            return None
        self.result = res
        if res.status == "refused":
            self.outcome.setHtml(f"<b style='color:#b00020'>Refused — nothing recorded:</b> {_esc(res.explanation)}")
            self.status.emit(f"{text} refused: {res.explanation}", 10_000)
            return res
        odds = ", ".join(chance(p) for p in res.odds if p is not None)
        n = len(res.outcome.events)
        html = (
            f"<b style='color:#1e7d32'>{_esc(text)}: recorded</b> ({n} event{'s' if n != 1 else ''}"
            f"{', odds ' + _esc(odds) if odds else ''})<br>{_esc(res.explanation)}"
        )
        self.outcome.setHtml(html)
        self._outcome_logged = (len(doc.log), html, text)
        self.status.emit(f"{text}: {res.explanation}", 15_000)
        return res


def _restore(form: ParameterForm, values: dict[str, Any]) -> None:
    """Set ``form``'s fields back to ``values`` where they still offer them."""
    from PySide6.QtWidgets import QCheckBox as Check, QComboBox as Combo, QLineEdit as Line, QSpinBox as Spin

    for name, ws in form.widgets.items():
        if name not in values or values[name] is None:
            continue
        v = values[name]
        for i, w in enumerate(ws):
            item = v[i] if isinstance(v, tuple) and i < len(v) else (v if not isinstance(v, tuple) else None)
            if isinstance(w, Combo) and item is not None and w.findData(item) >= 0:
                w.setCurrentIndex(w.findData(item))
            elif isinstance(w, Spin) and isinstance(v, int):
                w.setValue(v)
            elif isinstance(w, Check) and isinstance(v, bool):
                w.setChecked(v)
            elif isinstance(w, Line) and isinstance(v, str):
                w.setText(v)
