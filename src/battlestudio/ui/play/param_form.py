"""ParameterForm: the widgets of a ruleset's ``ParameterSpec`` list, for actions and table results.

One row per parameter (``rules.protocol.ParameterSpec``): ``unit`` / ``enemy_unit`` /
``friendly_unit`` a combo of the units on the table by their ``display_names`` (enemies of the
subject's side, or its own side; nearest to the subject first, with the distance in cm),
``choice`` a combo of its choices, ``int`` a spin box within ``minimum``–``maximum``, ``bool`` a
check box (with ``ask_bools``, the umpire's entry, a required one starts half-ticked, "not entered",
and is missing until ticked or cleared), ``text`` a line edit, ``point`` a label with "Pick on
map". ``multiple`` > 1 gives that many combos, the later ones optional; the value is then a
tuple. A parameter that is not ``required`` starts empty ("—"). ``note`` is the row's tooltip.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from battlestudio.model.names import display_names
from battlestudio.replay.state import GameState
from battlestudio.ui.play.pick import pick_point

if TYPE_CHECKING:
    from battlestudio.ui.map_view import MapView


class WheelGuard(QObject):
    """Keeps the mouse wheel from changing a combo box or spin box that does not have the focus:
    the wheel scrolls the dock around it instead (a tester scrolling the Actions dock changed
    the values he scrolled past). A click gives the widget the focus, and the wheel then works."""

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Wheel and isinstance(obj, QWidget) and not obj.hasFocus():
            parent = obj.parentWidget()
            if parent is not None:
                QCoreApplication.sendEvent(parent, event)
            return True
        return False


def guard_wheel(widget: QWidget, guard: WheelGuard) -> None:
    """Give ``widget`` the focus only by click or Tab, and let ``guard`` keep the wheel off it."""
    widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    widget.installEventFilter(guard)


UNIT_KINDS = ("unit", "enemy_unit", "friendly_unit")
INT_LIMIT = 1_000_000  # a spin box's bound where the spec gives none


def caption(p: Any) -> str:
    """The form's caption of parameter ``p`` (its ``label``, else its name in words)."""
    return p.label or p.name.replace("_", " ").capitalize()


class ParameterForm(QWidget):
    """The widgets for ``specs`` in ``state``, for an action of ``subject`` (a unit or commander
    id; "" = none) whose side is ``side``; object names ``{prefix}_{name}`` (``_2``, … for the
    later picks of a multiple one). ``changed`` is emitted when any value changes."""

    changed = Signal()

    def __init__(
        self,
        specs: Sequence[Any],
        state: GameState,
        subject: str = "",
        side: str = "",
        prefix: str = "action_param",
        view: MapView | None = None,
        parent: QWidget | None = None,
        ask_bools: bool = False,
    ) -> None:
        super().__init__(parent)
        self._ask_bools = ask_bools
        self._wheel_guard = WheelGuard(self)
        self.specs = tuple(specs)
        self.state = state
        self.subject = subject
        self.side = side
        self.view = view
        self.widgets: dict[str, list[QWidget]] = {}
        self.points: dict[str, tuple[float, float] | None] = {}
        self._point_labels: dict[str, QLabel] = {}
        self.form = QFormLayout(self)
        # a long caption goes above its field in a narrow dock
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.form.setContentsMargins(0, 0, 0, 0)
        self._names = display_names(state)
        for p in self.specs:
            self._add(p, prefix)

    # -- building -----------------------------------------------------------------------------
    def _add(self, p: Any, prefix: str) -> None:
        name = f"{prefix}_{p.name}"
        if p.kind == "point":
            self.points[p.name] = None
            label = QLabel("—", self)
            label.setObjectName(name)
            button = QPushButton("Pick on map", self)
            button.setObjectName(f"{name}_pick")
            button.setEnabled(self.view is not None)
            button.clicked.connect(lambda _c=False, n=p.name: self.pick(n))
            row = QHBoxLayout()
            row.addWidget(label, 1)
            row.addWidget(button)
            self._point_labels[p.name] = label
            self.form.addRow(caption(p), row)
            self.widgets[p.name] = [label]
            return
        if p.kind == "int":
            spin = QSpinBox(self)
            spin.setObjectName(name)
            guard_wheel(spin, self._wheel_guard)
            spin.setRange(
                p.minimum if p.minimum is not None else -INT_LIMIT, p.maximum if p.maximum is not None else INT_LIMIT
            )
            spin.setValue(max(spin.minimum(), min(0, spin.maximum())))
            spin.valueChanged.connect(lambda _v: self.changed.emit())
            w: QWidget = spin
            cap = caption(p) + (f" (≤ {p.maximum})" if p.maximum is not None else "")
        elif p.kind == "bool":
            box = QCheckBox(self)
            box.setObjectName(name)
            if self._ask_bools and p.required:  # the umpire's entry: no answer until he gives one
                box.setTristate(True)
                box.setCheckState(Qt.CheckState.PartiallyChecked)
                box.setToolTip("not entered yet: tick for yes, clear for no")
            box.stateChanged.connect(lambda _v: self.changed.emit())
            w, cap = box, caption(p)
        elif p.kind == "text":
            edit = QLineEdit(self)
            edit.setObjectName(name)
            edit.textChanged.connect(lambda _t: self.changed.emit())
            w, cap = edit, caption(p)
        else:  # choice and the unit kinds: combos
            combos = []
            for i in range(max(1, p.multiple)):
                combo = QComboBox(self)
                combo.setObjectName(name + (f"_{i + 1}" if p.multiple > 1 else ""))
                guard_wheel(combo, self._wheel_guard)
                combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
                combo.setMinimumContentsLength(14)
                if i > 0 or not p.required:
                    combo.addItem("—", None)
                for text, value in self._choices(p):
                    combo.addItem(text, value)
                combo.setToolTip(p.note)
                combo.currentIndexChanged.connect(lambda _i: self.changed.emit())
                self.form.addRow(caption(p) + (f" {i + 1}" if p.multiple > 1 else ""), combo)
                combos.append(combo)
            self.widgets[p.name] = list(combos)
            return
        w.setToolTip(p.note)
        self.form.addRow(cap, w)
        self.widgets[p.name] = [w]

    def _choices(self, p: Any) -> list[tuple[str, Any]]:
        if p.kind not in UNIT_KINDS:
            return [(c, c) for c in p.choices]
        state = self.state
        me = state.record(self.subject) if self.subject else None
        side = me.side if me is not None else self.side
        units = [u for u in state.units.values() if u.id not in state.off_table and u.id != self.subject]
        if p.choices:  # the ruleset names the units that may be picked (e.g. targets in range)
            allowed = set(p.choices)
            units = [u for u in units if u.id in allowed]
        if p.kind == "enemy_unit":
            units = [u for u in units if u.side != side]
        elif p.kind == "friendly_unit":
            units = [u for u in units if u.side == side]
        if me is not None:
            units.sort(key=lambda u: (math.dist(u.position, me.position), u.id))
            return [
                (f"{self._names.get(u.id, u.id)} ({math.dist(u.position, me.position):.0f} cm)", u.id) for u in units
            ]
        units.sort(key=lambda u: (u.side, self._names.get(u.id, u.id)))
        return [(self._names.get(u.id, u.id), u.id) for u in units]

    # -- values -------------------------------------------------------------------------------
    def values(self) -> dict[str, Any]:
        """name → value as the ruleset reads it (None where nothing is chosen; a tuple for a
        multiple one)."""
        out: dict[str, Any] = {}
        for p in self.specs:
            ws = self.widgets[p.name]
            if p.kind == "point":
                out[p.name] = self.points[p.name]
            elif isinstance(ws[0], QSpinBox):
                out[p.name] = ws[0].value()
            elif isinstance(ws[0], QCheckBox):
                state = ws[0].checkState()
                out[p.name] = None if state == Qt.CheckState.PartiallyChecked else state == Qt.CheckState.Checked
            elif isinstance(ws[0], QLineEdit):
                out[p.name] = ws[0].text()
            else:
                picked = tuple(c.currentData() for c in ws if isinstance(c, QComboBox) and c.currentData() is not None)
                out[p.name] = picked if p.multiple > 1 else (picked[0] if picked else None)
        return out

    def missing(self) -> list[str]:
        """Captions of the required parameters left empty."""
        v = self.values()
        return [caption(p) for p in self.specs if p.required and v[p.name] in (None, (), "")]

    def offer_unit(self, uid: str) -> bool:
        """Put unit ``uid`` in the first unit field that offers it and is not set to it yet (a
        unit picked on the map); False when no field offers it."""
        for p in self.specs:
            if p.kind not in UNIT_KINDS:
                continue
            for combo in self.widgets[p.name]:
                assert isinstance(combo, QComboBox)
                i = combo.findData(uid)
                if i >= 0:
                    if combo.currentIndex() != i:
                        combo.setCurrentIndex(i)
                    return True
        return False

    def pick(self, name: str) -> None:
        """Let the user click point ``name`` on the map."""
        if self.view is not None:
            pick_point(
                self.view,
                f"Click the {name.replace('_', ' ')} on the map; Esc cancels",
                lambda pt: self.set_point(name, pt),
            )

    def set_point(self, name: str, point: tuple[float, float] | None) -> None:
        """Use ``point`` (cm) for point parameter ``name`` (None leaves it as it was)."""
        if point is None or name not in self.points:
            return
        self.points[name] = (round(point[0], 1), round(point[1], 1))
        self._point_labels[name].setText(f"({self.points[name][0]:.1f}, {self.points[name][1]:.1f}) cm")
        self.changed.emit()
