"""The order dialog: write one order through the ruleset, see its exact odds, roll it.

Issuer (a general of the active side the ruleset lets issue orders, ``Ruleset.issuers``),
recipient (the issuer himself and the generals under him, and the units under him when an order
type of the ruleset goes to units: ``OrderTypeSpec.recipient_kind``), order type (the ruleset's
``order_types``; those not possible now are disabled with the reason), the objective picked on
the map with a click, and the type's other parameters (a choice, or an enemy unit picked from
those on the table, nearest to the recipient first). Before rolling it shows the ruleset's
preview (``GameSession.preview``): zone, distance, modifiers with their sources, threshold and
the exact chance as a fraction. "Roll" issues the order through the session's dice
(``GameSession.issue_order``) as one undo step and
shows the outcome with the ruleset's explanation. The dialog is not modal, so the map stays
usable for picking and looking.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from battlestudio.analysis.odds import order_odds
from battlestudio.model.names import display_names, labelled
from battlestudio.model.units import ECHELON_RANK, Commander, Unit
from battlestudio.rules.params import RuleRefused
from battlestudio.rules.protocol import OrderRequest, OrderTypeSpec
from battlestudio.ui.play.pick import pick_point

if TYPE_CHECKING:
    from battlestudio.ui.map_view import MapView
    from battlestudio.play.document import PlayDocument


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br>")


class OrderDialog(QDialog):
    """Write, preview and roll one order of the open phase of ``document``'s game.

    Parameters
    ----------
    document : PlayDocument
        recording (its session issues the order).
    view : MapView | None
        the map, for picking the objective.
    """

    def __init__(self, document: PlayDocument, view: MapView | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("order_dialog")
        self.setWindowTitle("Issue order")
        self.document = document
        self.view = view
        self.objective: tuple[float, float] | None = None
        self.result = None
        self.issuer = QComboBox(self)
        self.issuer.setObjectName("order_issuer")
        self.recipient = QComboBox(self)
        self.recipient.setObjectName("order_recipient")
        self.order_type = QComboBox(self)
        self.order_type.setObjectName("order_type")
        self.objective_label = QLabel("—", self)
        self.objective_label.setObjectName("order_objective")
        self.pick_button = QPushButton("Pick on map", self)
        self.pick_button.setObjectName("order_pick")
        self.pick_button.setToolTip("Click the objective on the map")
        self.pick_button.clicked.connect(self.start_pick)
        self.extra: dict[str, list[QComboBox]] = {}
        self._types: dict[str, OrderTypeSpec] = {}
        self._kinds: set[str] = set()
        self._no_issuers = ""
        self.extra_form = QFormLayout()
        self.preview = QTextBrowser(self)
        self.preview.setObjectName("order_preview")
        self.preview.setMinimumHeight(150)
        self.outcome = QTextBrowser(self)
        self.outcome.setObjectName("order_outcome")
        self.outcome.setMinimumHeight(90)
        self.outcome.hide()
        self.roll_button = QPushButton("Roll", self)
        self.roll_button.setObjectName("order_roll")
        self.roll_button.setDefault(True)
        self.roll_button.clicked.connect(self.roll)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.roll_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        form = QFormLayout()
        form.addRow("Issuer", self.issuer)
        form.addRow("Recipient", self.recipient)
        form.addRow("Order", self.order_type)
        obj = QHBoxLayout()
        obj.addWidget(self.objective_label, 1)
        obj.addWidget(self.pick_button)
        form.addRow("Objective", obj)
        lay = QVBoxLayout(self)
        self.where = QLabel(self)
        lay.addWidget(self.where)
        lay.addLayout(form)
        lay.addLayout(self.extra_form)
        lay.addWidget(QLabel("<b>Before the roll</b>"))
        lay.addWidget(self.preview, 1)
        lay.addWidget(self.outcome)
        lay.addWidget(buttons)
        self.resize(520, 560)
        self.issuer.currentIndexChanged.connect(self._fill_recipients)
        self.recipient.currentIndexChanged.connect(self._fill_types)
        self.order_type.currentIndexChanged.connect(self._fill_parameters)
        self.reload()

    # -- choices ----------------------------------------------------------------------------
    @property
    def session(self):
        return self.document.session

    def reload(self) -> None:
        """Fill the issuers from the state now, preferring the selected general."""
        state = self.session.state
        k = self.session.key
        phase = self.session.step().spec
        self.where.setText(f"<b>Turn {k.turn}</b> ({self.session.clock()}), {k.side}: {phase.name}")
        ruleset = self.session.ruleset
        self._kinds = {t.recipient_kind for t in ruleset.describe().order_types}
        ids = ruleset.issuers(state, k.side, self.session.params)
        issuers = [state.commanders[i] for i in ids if i in state.commanders]
        issuers.sort(key=lambda c: (ECHELON_RANK.get(c.echelon, 9), c.name))
        self.issuer.blockSignals(True)
        self.issuer.clear()
        names = display_names(state)
        for c in issuers:
            self.issuer.addItem(labelled(c.name, names.get(c.id, c.name), c.echelon.replace("_", "-")), c.id)
        picked = self._issuer_for_selection()
        if picked is not None:
            self.issuer.setCurrentIndex(self.issuer.findData(picked))
        self.issuer.blockSignals(False)
        self._no_issuers = (
            ""
            if issuers
            else f"<b>No one of {_esc(k.side)} may issue orders now</b> under {_esc(ruleset.describe().name)}: "
            "its issuing echelons are "
            + _esc(", ".join(e.label for e in ruleset.describe().echelons if e.issues_orders) or "none")
            + "."
        )
        self._fill_recipients()

    def _issuer_for_selection(self) -> str | None:
        """The issuer the map's selection points at: a selected issuer, else the nearest
        issuer above a selected unit or general."""
        state = self.session.state
        for i in self.document.selection:
            if self.issuer.findData(i) >= 0:
                return str(i)
        for i in self.document.selection:
            for sup in state.oob.chain_of_command(i):
                if self.issuer.findData(sup) >= 0:
                    return str(sup)
        return None

    def _fill_recipients(self) -> None:
        state = self.session.state
        issuer = self.issuer.currentData()
        self.recipient.blockSignals(True)
        self.recipient.clear()
        if issuer is not None:
            below = [n for n in state.oob.all_subordinates(issuer) if n not in state.off_table]
            generals = [n for n in below if isinstance(state.record(n), Commander)]
            units = [n for n in below if isinstance(state.record(n), Unit)] if "unit" in self._kinds else []
            names = display_names(state)
            for n in [issuer] + generals:
                rec = state.record(n)
                self.recipient.addItem(labelled(rec.name, names.get(n, rec.name), rec.echelon.replace("_", "-")), n)
            for n in units:
                rec = state.record(n)
                self.recipient.addItem(labelled(rec.name, names.get(n, rec.name), "unit"), n)
            sel = [i for i in self.document.selection if self.recipient.findData(i) >= 0 and i != issuer]
            if sel:
                first = self.recipient.findData(sel[0])
            elif units and self._kinds == {"unit"}:
                first = 1 + len(generals)  # every order of the ruleset goes to a unit
            else:
                first = min(1, self.recipient.count() - 1)
            self.recipient.setCurrentIndex(first)
        self.recipient.blockSignals(False)
        self._fill_types()

    def _fill_types(self) -> None:
        issuer, recipient = self.issuer.currentData(), self.recipient.currentData()
        keep = self.order_type.currentData()
        self.order_type.blockSignals(True)
        self.order_type.clear()
        self._types = {}
        if issuer is not None and recipient is not None:
            try:
                types = list(self.session.order_types(issuer, recipient))
            except RuleRefused as exc:
                types = []
                self.preview.setHtml(_esc(str(exc)))
            model = self.order_type.model()
            for t in types:
                self._types[t.id] = t
                self.order_type.addItem(
                    f"{t.id} — {t.label}" + (f" ({t.term})" if t.term and t.term != t.label else ""), t.id
                )
                row = self.order_type.count() - 1
                if t.unavailable:
                    model.item(row).setEnabled(False)
                    self.order_type.setItemData(row, t.unavailable, Qt.ItemDataRole.ToolTipRole)
            usable = [i for i in range(self.order_type.count()) if model.item(i).isEnabled()]
            i = self.order_type.findData(keep)
            self.order_type.setCurrentIndex(i if i in usable else (usable[0] if usable else 0))
        self.order_type.blockSignals(False)
        self._fill_parameters()

    def _fill_parameters(self) -> None:
        while self.extra_form.rowCount():
            self.extra_form.removeRow(0)
        self.extra = {}
        spec = self._types.get(self.order_type.currentData())
        wants_point = False
        for p in spec.parameters if spec is not None else ():
            if p.kind == "point":
                wants_point = True
                continue
            if p.kind == "choice":
                boxes = []
                for i in range(max(1, p.multiple)):
                    box = QComboBox(self)
                    box.setObjectName(f"order_param_{p.name}" + (f"_{i + 1}" if p.multiple > 1 else ""))
                    if i > 0:
                        box.addItem("—", None)  # later picks of a multiple choice are optional
                    for c in p.choices:
                        box.addItem(c, c)
                    box.setToolTip(p.note)
                    box.currentIndexChanged.connect(self.refresh)
                    label = p.name.replace("_", " ").capitalize() + (f" {i + 1}" if p.multiple > 1 else "")
                    self.extra_form.addRow(label, box)
                    boxes.append(box)
                self.extra[p.name] = boxes
            elif p.kind == "enemy_unit":
                box = self._enemy_box(p.name, p.required, p.note)
                self.extra_form.addRow(p.name.replace("_", " ").capitalize(), box)
                self.extra[p.name] = [box]
        self.pick_button.setEnabled(wants_point)
        self.refresh()

    def _enemy_box(self, name: str, required: bool, note: str) -> QComboBox:
        """A choice of the units of the other sides on the table, nearest to the recipient first."""
        state = self.session.state
        rec = state.record(self.recipient.currentData() or "")
        box = QComboBox(self)
        box.setObjectName(f"order_param_{name}")
        if not required:
            box.addItem("—", None)
        if rec is not None:
            enemies = [u for u in state.units.values() if u.side != rec.side and u.id not in state.off_table]
            enemies.sort(key=lambda u: (math.dist(u.position, rec.position), u.name))
            for u in enemies:
                box.addItem(f"{u.name or u.id} ({math.dist(u.position, rec.position):.0f} cm)", u.id)
        box.setToolTip(note)
        box.currentIndexChanged.connect(self.refresh)
        return box

    # -- objective ------------------------------------------------------------------------
    def start_pick(self) -> None:
        """Let the user click the objective on the map (the dialog steps aside meanwhile)."""
        if self.view is None:
            return
        self.hide()
        pick_point(self.view, "Click the order's objective on the map; Esc cancels", self._picked)

    def _picked(self, point) -> None:
        if point is not None:
            self.set_objective(point)
        self.show()
        self.raise_()

    def set_objective(self, point: tuple[float, float] | None) -> None:
        """Use ``point`` (cm) as the objective."""
        self.objective = None if point is None else (round(point[0], 1), round(point[1], 1))
        self.refresh()

    # -- preview and roll ---------------------------------------------------------------------
    def request(self) -> OrderRequest | None:
        """The order as written now (None until issuer, recipient and type are chosen)."""
        issuer, recipient, kind = self.issuer.currentData(), self.recipient.currentData(), self.order_type.currentData()
        if issuer is None or recipient is None or kind is None:
            return None
        spec = self._types.get(kind)
        params: dict[str, Any] = {}
        for n, boxes in self.extra.items():
            picked = tuple(b.currentData() for b in boxes if b.currentData() is not None)
            params[n] = picked if len(boxes) > 1 else (picked[0] if picked else None)
        if spec is not None and self.objective is not None:
            for p in spec.parameters:
                if p.kind == "point":
                    params[p.name] = self.objective
        return OrderRequest(issuer, recipient, kind, objective=self.objective, parameters=params)

    def refresh(self) -> None:
        """Recompute the preview for the order as written."""
        self.objective_label.setText(
            "—"
            if self.objective is None
            else f"({self.objective[0]:.1f}, {self.objective[1]:.1f}) cm{self._objective_distance()}"
        )
        req = self.request()
        self.roll_button.setEnabled(False)
        if req is None:
            self.preview.setHtml(self._no_issuers or "Choose issuer, recipient and order.")
            return
        spec = self._types.get(req.order_type)
        if spec is not None and spec.unavailable:
            self.preview.setHtml(f"<b>Not possible now:</b> {_esc(spec.unavailable)}")
            return
        needs_point = spec is not None and any(p.kind == "point" and p.required for p in spec.parameters)
        if needs_point and self.objective is None:
            self.preview.setHtml("Pick the objective on the map.")
            return
        pv = self.session.preview(req)
        if not pv.legal:
            self.preview.setHtml(f"<b>Refused:</b> {_esc(pv.reason)}")
            return
        html = [_esc(self._distance_line(req))]
        if not pv.rolls:
            html.append(f"<b>No roll as it is written.</b> {_esc(self._later_odds(req))}")
        else:
            html += [f"• {_esc(line)}" for line in pv.text.splitlines()]
        if pv.rolls and all(r.probability() is None for r in pv.rolls):  # table rolls: no pass or fail
            html.append(f"<b>Read on the table.</b> {_esc(self._later_odds(req))}")
        elif pv.rolls and pv.probability is not None:
            p = pv.probability
            html.append(f"<b>Chance the order goes through: {p.numerator}/{p.denominator} ({float(p):.1%})</b>")
        if spec is not None and spec.rule:
            html.append(f"<span style='color:gray'>Rule {spec.rule}</span>")
        self.preview.setHtml("<br>".join(html))
        self.roll_button.setEnabled(True)

    def _later_odds(self, req: OrderRequest) -> str:
        """What the ruleset's odds say of an order that rolls nothing when written (a General
        d'Armée ADC task comes into force on the brigade's command roll), or why it gives none."""
        s = self.session
        odds = order_odds(s.state, s.ruleset.id, s.params, req.issuer, req.recipient)
        return f"Odds not known: {odds.refusal}" if odds.refusal else f"Then: {odds.headline}"

    def _objective_distance(self) -> str:
        rec = self.session.state.record(self.recipient.currentData() or "")
        if rec is None or self.objective is None:
            return ""
        return f", {math.dist(rec.position, self.objective):.1f} cm from {rec.name}"

    def _distance_line(self, req: OrderRequest) -> str:
        state = self.session.state
        a, b = state.record(req.issuer), state.record(req.recipient)
        if a is None or b is None or a is b:
            return f"{a.name if a else req.issuer} orders himself."
        d = math.dist(a.position, b.position)
        try:
            reach = self.session.ruleset.command_reach(state, req.issuer, self.session.params)
            zone = reach.zone_of(d) if reach.zones else None
        except RuleRefused:
            zone = None
        where = f", zone {zone}" if zone is not None else ""
        return f"{a.name} → {b.name}: {d:.1f} cm{where}."

    def roll(self) -> None:
        """Issue the order through the ruleset and show the outcome."""
        req = self.request()
        if req is None:
            return

        def issue(session):
            try:
                return session.issue_order(req)
            except RuleRefused as exc:
                raise ValueError(str(exc)) from None

        label = f"Order {req.order_type} to {self.recipient.currentText()}"
        res = self.document.run(label, issue)
        self.outcome.show()
        if res is None or res is True:
            self.outcome.setHtml("<b>Not recorded.</b> See the status bar.")
            return
        self.result = res
        odds = ", ".join(f"{p.numerator}/{p.denominator}" for p in res.odds if p is not None)
        colour = {"delivered": "#1e7d32", "failed": "#b00020", "refused": "#b00020"}.get(res.status, "#333")
        self.outcome.setHtml(
            f"<b style='color:{colour}'>{res.status.capitalize()}</b>"
            f"{' (odds ' + odds + ')' if odds else ''}<br>{_esc(res.explanation)}"
        )
        self.roll_button.setEnabled(False)
