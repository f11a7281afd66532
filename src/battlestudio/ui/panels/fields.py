"""Field editors for the Properties dock: one small widget per record field, described as data.

A ``FieldSpec`` names a record attribute (or one coordinate of a point, ``position.0``), its
label and its editor; ``make_editor`` builds the widget and ``FieldEditor`` reads and writes
values, emitting ``committed(value)`` only when the user finishes a valid edit (Enter, focus
out, a combo choice, a spin-box step). Units are shown in the label/suffix: cm, °, m/cm.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRegularExpression, Qt, Signal
from PySide6.QtGui import QKeyEvent, QRegularExpressionValidator, QValidator
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QComboBox,
    QDoubleSpinBox,
    QLineEdit,
    QSpinBox,
    QToolTip,
    QWidget,
)


class _Clamping:
    """Mixin of the number fields: a number typed beyond the range is kept while typing (Qt's
        own spin box drops the key, so 600 in a field of at most 500 became 60) and, on Enter, set
        to the nearest limit with a note saying so (``clamp_note``). In an optional field (one with
        a special value text, ``NONE_TEXT``) an emptied entry clears the value on Enter; in a required
    one it keeps the value it had (Qt's own box set it to the minimum: a reinforcement's latest turn
    emptied became 1)."""

    clamp_note = ""

    def validate(self, text: str, pos: int):  # noqa: D102 - Qt API
        if self.specialValueText() and not self._bare(text):  # type: ignore[attr-defined]
            return (QValidator.State.Acceptable, text, pos)
        state = super().validate(text, pos)  # type: ignore[misc]
        st = state[0] if isinstance(state, tuple) else state
        if st == QValidator.State.Invalid:
            bare = text.removeprefix(self.prefix()).removesuffix(self.suffix()).strip()  # type: ignore[attr-defined]
            try:
                float(bare.replace(",", ""))
            except ValueError:
                return state
            return (QValidator.State.Intermediate, text, pos)
        return state

    def _bare(self, text: str) -> str:
        return text.removeprefix(self.prefix()).removesuffix(self.suffix()).strip()  # type: ignore[attr-defined,no-any-return]

    def valueFromText(self, text: str):  # noqa: D102, N802 - Qt API
        if not self._bare(text):  # emptied: "not set" in an optional field, else the value it had
            return self.minimum() if self.specialValueText() else self.value()  # type: ignore[attr-defined]
        return super().valueFromText(text)  # type: ignore[misc]

    def fixup(self, text: str) -> str:  # noqa: D102 - Qt API
        bare = text.removeprefix(self.prefix()).removesuffix(self.suffix()).strip()  # type: ignore[attr-defined]
        if not bare:  # emptied: "not set" in an optional field; a required one keeps its value
            if self.specialValueText():  # type: ignore[attr-defined]
                return self.specialValueText()  # type: ignore[attr-defined,no-any-return]
            return self.textFromValue(self.value())  # type: ignore[attr-defined,no-any-return]
        try:
            v = float(bare.replace(",", ""))
        except ValueError:
            return text
        lo, hi = self.minimum(), self.maximum()  # type: ignore[attr-defined]
        if v > hi or v < lo:
            near = hi if v > hi else lo
            self.clamp_note = f"{bare} is outside {self.textFromValue(lo)} to {self.textFromValue(hi)}; set to {self.textFromValue(near)}"  # type: ignore[attr-defined]  # noqa: E501
            QToolTip.showText(self.mapToGlobal(self.rect().bottomLeft()), self.clamp_note, self)  # type: ignore[attr-defined]
            self.setToolTip(self.clamp_note)  # type: ignore[attr-defined]
            return self.textFromValue(near)  # type: ignore[attr-defined]
        return text


class ClampingSpinBox(_Clamping, QSpinBox):
    """A ``QSpinBox`` that clamps an out-of-range typed number visibly (``_Clamping``)."""


class ClampingDoubleSpinBox(_Clamping, QDoubleSpinBox):
    """A ``QDoubleSpinBox`` that clamps an out-of-range typed number visibly (``_Clamping``)."""


NONE_TEXT = "—"
"""Shown for an optional value that is not set."""
OPTIONAL_TIP = f"Optional: empty the field (or step below the lowest value) and press Enter to clear it ({NONE_TEXT})"


@dataclass(frozen=True)
class FieldSpec:
    """How to edit one field.

    Attributes
    ----------
    attr : str
        record attribute; ``"position.0"``/``"position.1"`` edit x/y of a point (cm).
    label : str
    editor : str
        ``text``, ``int``, ``float``, ``choice`` (fixed list), ``combo`` (editable list).
    minimum, maximum : float
    decimals : int
    suffix : str
        unit shown in the spin box, e.g. ``" cm"``, ``"°"``.
    optional : bool
        None allowed (shown as ``NONE_TEXT``).
    choices : Sequence[tuple[str, Any]] | Callable
        (label, value) pairs, or a function of the scenario returning them.
    pattern : str
        regular expression a text must match (validation as you type).
    required : bool
        text may not be empty.
    wrap : bool
        spin box wraps (facings).
    """

    attr: str
    label: str
    editor: str = "text"
    minimum: float = 0
    maximum: float = 1_000_000
    decimals: int = 1
    suffix: str = ""
    optional: bool = False
    choices: Any = ()
    pattern: str = ""
    required: bool = False
    wrap: bool = False
    convert: Callable[[Any], Any] | None = field(default=None, compare=False)


def get_value(record: Any, attr: str) -> Any:
    """The value of ``attr`` (``name`` or ``position.0``) on ``record``."""
    if "." in attr:
        base, i = attr.split(".")
        return getattr(record, base)[int(i)]
    return getattr(record, attr)


def with_value(record: Any, attr: str, value: Any) -> dict[str, Any]:
    """Keyword changes for ``dataclasses.replace`` that set ``attr`` to ``value``."""
    if "." in attr:
        base, i = attr.split(".")
        pt = list(getattr(record, base))
        pt[int(i)] = float(value)
        return {base: tuple(pt)}
    return {attr: value}


class FieldEditor(QObject):
    """Wraps one editor widget: ``set_value`` without side effects, ``committed`` on user edits."""

    committed = Signal(object)

    def __init__(self, spec: FieldSpec, choices: Sequence[tuple[str, Any]] = (), parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.choices = list(choices)
        self.widget = self._build()
        self._value: Any = None
        self._mixed = False
        self._typed = False  # a key was pressed in a number field since the last set_value
        if isinstance(self.widget, (QSpinBox, QDoubleSpinBox, QComboBox)):
            # a wheel over a form scrolls the form: it changes a value only in the field being edited
            self.widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            self.widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        """Wheel events over an unfocused number or choice field go to the scroll area around it."""
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            k = Qt.Key
            if event.text().strip() or event.key() in (k.Key_Backspace, k.Key_Delete, k.Key_Up, k.Key_Down):
                self._typed = True
                if isinstance(watched, _Clamping) and event.key() not in (k.Key_Return, k.Key_Enter):
                    watched.clamp_note = ""
        if event.type() == QEvent.Type.Wheel and isinstance(watched, QWidget) and not watched.hasFocus():
            area = watched.parentWidget()
            while area is not None and not isinstance(area, QAbstractScrollArea):
                area = area.parentWidget()
            if area is not None:
                QCoreApplication.sendEvent(area.verticalScrollBar(), event)
            return True
        return False

    def _build(self) -> QWidget:
        s = self.spec
        if s.editor == "int":
            w = ClampingSpinBox()
            w.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)
            w.setRange(int(s.minimum) - (1 if s.optional else 0), int(s.maximum))
            if s.optional:
                w.setSpecialValueText(NONE_TEXT)
                w.setToolTip(OPTIONAL_TIP)
            w.setSuffix(s.suffix)
            w.setKeyboardTracking(False)
            w.setWrapping(s.wrap)
            w.valueChanged.connect(self._on_number)
            w.editingFinished.connect(self._on_number_finished)
            return w
        if s.editor == "float":
            w = ClampingDoubleSpinBox()
            w.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)
            w.setDecimals(s.decimals)
            step = 10**-s.decimals
            w.setRange(s.minimum - (step if s.optional else 0), s.maximum)
            if s.optional:
                w.setSpecialValueText(NONE_TEXT)
                w.setToolTip(OPTIONAL_TIP)
            w.setSuffix(s.suffix)
            w.setKeyboardTracking(False)
            w.setWrapping(s.wrap)
            w.valueChanged.connect(self._on_number)
            w.editingFinished.connect(self._on_number_finished)
            return w
        if s.editor in ("choice", "combo"):
            w = QComboBox()
            w.setEditable(s.editor == "combo")
            for label, value in self.choices:
                w.addItem(label, value)
            w.activated.connect(self._on_choice)
            if w.isEditable():
                w.lineEdit().editingFinished.connect(self._on_combo_text)
            return w
        w = QLineEdit()
        if s.pattern:
            w.setValidator(QRegularExpressionValidator(QRegularExpression(s.pattern), w))
        w.textChanged.connect(self._on_typing)
        w.editingFinished.connect(self._on_text)
        return w

    # -- reading back --------------------------------------------------------------------
    def set_value(self, value: Any, mixed: bool = False) -> None:
        """Show ``value`` (emits nothing). ``mixed`` marks values that differ across records."""
        self._value = value
        self._mixed = mixed
        self._typed = False
        w = self.widget
        w.blockSignals(True)
        try:
            if isinstance(w, (QSpinBox, QDoubleSpinBox)):
                w.setValue(w.minimum() if value is None else value)
            elif isinstance(w, QComboBox):
                i = self.index_of(value)
                if i < 0 and w.isEditable():
                    w.setEditText("" if value is None else str(value))
                else:
                    w.setCurrentIndex(i)
            else:
                w.setText("" if value is None else str(value))
                self._mark(True)
            note = getattr(w, "clamp_note", "")  # a clamped entry stays explained until the next key
            plain = OPTIONAL_TIP if self.spec.optional and isinstance(w, (QSpinBox, QDoubleSpinBox)) else ""
            w.setToolTip("Values differ among the selected items; an edit sets them all." if mixed else note or plain)
            font = w.font()
            font.setItalic(mixed)
            w.setFont(font)
        finally:
            w.blockSignals(False)

    def _emit(self, value: Any) -> None:
        if self.spec.convert is not None and value is not None:
            value = self.spec.convert(value)
        if value != self._value or self._mixed:  # mixed: the first record's value still sets the others
            self._value, self._mixed = value, False
            self.committed.emit(value)

    def _on_number_finished(self) -> None:
        """Enter in a mixed number field sets every record, even to the value shown."""
        if self._mixed and self._typed:  # not a mere focus change through the form
            self._on_number(self.widget.value())

    def _on_number(self, value: float) -> None:
        w = self.widget
        if self.spec.optional and value == w.minimum():
            self._emit(None)
        else:
            self._emit(int(value) if isinstance(w, QSpinBox) else float(value))

    def index_of(self, value: Any) -> int:
        """The combo index of the choice whose value equals ``value`` (-1 when none does)."""
        return next((i for i, (_, v) in enumerate(self.choices) if v == value), -1)

    def choice_value(self, index: int) -> Any:
        """The value of choice ``index`` as given in the spec (an enum stays an enum: the combo's
        own item data would hand a ``StrEnum`` back as a plain ``str``)."""
        return self.choices[index][1] if 0 <= index < len(self.choices) else None

    def _on_choice(self, index: int) -> None:
        self._emit(self.choice_value(index))

    def _on_combo_text(self) -> None:
        text = self.widget.currentText().strip()
        i = self.widget.findText(text)
        self._emit(self.choice_value(i) if i >= 0 else text)

    def _valid(self, text: str) -> bool:
        if self.spec.required and not text.strip():
            return False
        v = self.widget.validator()
        return v is None or self.widget.hasAcceptableInput()

    def _mark(self, ok: bool) -> None:
        self.widget.setStyleSheet("" if ok else "QLineEdit { background: #ffd6d6; }")

    def _on_typing(self, text: str) -> None:
        self._mark(self._valid(text))

    def _on_text(self) -> None:
        text = self.widget.text()
        if self._mixed and not self.widget.isModified():  # leaving a mixed field untouched sets nothing
            return
        if self._valid(text):
            self._emit(text.strip() if self.spec.required else text)
