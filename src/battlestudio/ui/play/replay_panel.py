"""The Replay dock: the timeline bar, the events of the current phase, and the map marks' options.

The event list shows every event of the phase at the cursor, one readable line each
(``session.text.describe``: names, distances, each roll with its explanation); the event at the
cursor is current, the ones after it greyed. Clicking an event moves the cursor to it and asks
for its unit to be selected and centred (``unit_requested``). Under the list, how many turns of
trails to draw and whether to highlight what the last step changed. A recorded game that cannot be
replayed is said in the heading (``show_unreplayable``), with its size and the first bad event.

``add_to_menu`` puts the dock's commands in the Game menu, so their shortcuts work wherever the
focus is: Go To… (Ctrl+G: shows the dock and selects the Go to box).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlestudio.model.names import display_names
from battlestudio.replay.cursor import PhaseKey
from battlestudio.replay.timeline import Timeline
from battlestudio.session.text import count, describe
from battlestudio.ui.play.timeline_bar import TimelineBar

POS_ROLE = Qt.ItemDataRole.UserRole + 1
"""Item data: the log position just after the event (seeking there applies it)."""
IDS_ROLE = Qt.ItemDataRole.UserRole + 2
"""Item data: the ids the event names."""


class ReplayPanel(QWidget):
    """Timeline bar, event list of the current phase, trail and highlight options.

    Signals
    -------
    unit_requested(list)
        select these ids and centre the map on the first (an event was clicked).
    trail_turns_changed(int), highlight_changed(bool)
        the map marks' options.
    """

    unit_requested = Signal(list)
    trail_turns_changed = Signal(int)
    highlight_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bar = TimelineBar(self)
        self.events = QTreeWidget(self)
        self.events.setObjectName("replay_events")
        self.events.setHeaderLabels(["#", "Event"])
        self.events.setRootIsDecorated(False)
        self.events.setUniformRowHeights(False)
        self.events.setWordWrap(True)
        self.events.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.events.setColumnWidth(0, 44)
        self.events.itemClicked.connect(self._on_clicked)
        self.heading = QLabel(self)
        self.heading.setObjectName("replay_heading")
        self.heading.setWordWrap(True)
        self.trail_box = QSpinBox(self)
        self.trail_box.setObjectName("replay_trail_turns")
        self.trail_box.setRange(0, 20)
        self.trail_box.setValue(2)
        self.trail_box.setSuffix(" turns")
        self.trail_box.setToolTip("Draw where units went during the last N turns (0: no trails)")
        self.trail_box.valueChanged.connect(self.trail_turns_changed)
        self.highlight_box = QCheckBox("Highlight what changed", self)
        self.highlight_box.setObjectName("replay_highlight")
        self.highlight_box.setChecked(True)
        self.highlight_box.toggled.connect(self.highlight_changed)
        opts = QHBoxLayout()
        opts.setContentsMargins(0, 0, 0, 0)
        opts.addWidget(self.heading, 1)
        opts.addWidget(QLabel("Trails"))
        opts.addWidget(self.trail_box)
        opts.addWidget(self.highlight_box)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.bar)
        lay.addLayout(opts)
        lay.addWidget(self.events, 1)
        self.timeline: Timeline | None = None
        self._phase: tuple[PhaseKey, int] | None = None
        self._items: list[QTreeWidgetItem] = []

    def add_to_menu(self, menu: QMenu, side_colour: Callable[[str], str]) -> None:
        """Add the dock's commands (``self.commands``, by name) to ``menu``; ``side_colour``
        colours the track's player-turn bands."""
        self.bar.track.side_colour = side_colour
        self.commands: dict[str, QAction] = {}
        for name, text, slot, keys, tip in (
            ("goto", "&Go To…", self.focus_goto, "Ctrl+G", "Go to a turn, side, phase or event: type 14:prussian:fire"),
        ):
            a = QAction(text, menu)
            a.setObjectName(f"action_replay_{name}")
            a.setShortcut(QKeySequence(keys))
            a.setStatusTip(tip)
            a.triggered.connect(lambda _c=False, f=slot: f())
            self.commands[name] = a
        menu.addSeparator()
        menu.addActions(list(self.commands.values()))

    def _raise_dock(self) -> None:
        w = self.parentWidget()
        while w is not None and not isinstance(w, QDockWidget):
            w = w.parentWidget()
        if w is not None:
            w.show()
            w.raise_()

    def focus_goto(self) -> None:
        """Show the dock and put the keyboard in the Go to box, its text selected."""
        if self.timeline is None:
            return
        self._raise_dock()
        self.bar.goto_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.bar.goto_box.selectAll()

    def set_timeline(self, timeline: Timeline | None) -> None:
        """Show ``timeline`` (None: nothing to replay)."""
        if self.timeline is not None:
            self.timeline.position_changed.disconnect(self._on_position)
            self.timeline.bounds_changed.disconnect(self._on_bounds)
        self.timeline = timeline
        self.bar.set_timeline(timeline)
        self._phase = None
        if timeline is not None:
            timeline.position_changed.connect(self._on_position)
            timeline.bounds_changed.connect(self._on_bounds)
        self._on_position(timeline.position if timeline is not None else 0)

    def show_unreplayable(self, count: int, reason: str) -> None:
        """No timeline: the battle holds a recorded game of ``count`` events that cannot be
        replayed, for ``reason`` (naming the first bad event); say so instead of "no game"."""
        self.set_timeline(None)
        self.bar.where.setText(f"Recorded game of {count} events not replayable")
        self.heading.setText(
            f"The recorded game ({count} event{'' if count == 1 else 's'}) cannot be replayed: {reason}"
        )
        self.heading.setToolTip(self.heading.text())

    def _on_bounds(self, _lo: int, _hi: int) -> None:
        self._phase = None  # events of the open phase may have been added or taken back
        if self.timeline.position <= _hi:  # else the timeline seeks back to the end next
            self._on_position(self.timeline.position)

    def _on_position(self, pos: int) -> None:
        t = self.timeline
        if t is None or pos == 0:
            self.events.clear()
            self._items, self._phase = [], None
            self.heading.setText("Start of the game: nothing has happened yet." if t is not None else "")
            self.heading.setToolTip("")
            return
        c = t.cursor
        start, end = t.log.phase_range(c.key)
        if self._phase != (c.key, end):
            self._fill(c.key, start, end)
        for i, item in enumerate(self._items):
            done = start + i < pos
            colour = self.palette().text().color() if done else QColor("#9a9a9a")
            for col in (0, 1):
                item.setForeground(col, QBrush(colour))
        current = self._items[c.index] if 0 <= c.index < len(self._items) else None
        self.events.blockSignals(True)
        self.events.setCurrentItem(current) if current is not None else self.events.clearSelection()
        self.events.blockSignals(False)
        if current is not None:
            self.events.scrollToItem(current)

    def _fill(self, key: PhaseKey, start: int, end: int) -> None:
        log = self.timeline.log
        self._phase = (key, end)
        self.events.clear()
        self._items = []
        state = log.state_at(start)
        names = display_names(state)  # duplicate names told apart by their superior
        for p, e in enumerate(log.events[start:end], start):
            text = describe(e, state, names)
            item = QTreeWidgetItem([str(p - start + 1), text])
            item.setToolTip(1, text)
            item.setData(0, POS_ROLE, p + 1)
            item.setData(0, IDS_ROLE, list(e.touched()))
            self._items.append(item)
            state = e.apply(state)
        self.events.addTopLevelItems(self._items)
        name = self._items[0].text(1).removeprefix("phase begins: ") if self._items else key.phase
        self.heading.setText(
            f"<b>Turn {key.turn}</b>, {key.side or 'both sides'}: {name} — {count(end - start, 'event')}"
        )

    def _on_clicked(self, item: QTreeWidgetItem, _col: int = 0) -> None:
        if self.timeline is None:
            return
        self.timeline.seek(int(item.data(0, POS_ROLE)))
        ids = item.data(0, IDS_ROLE) or []
        if ids:
            self.unit_requested.emit(list(ids))

    def item_texts(self) -> list[str]:
        """The event lines shown, in order (for tests and the status bar)."""
        return [it.text(1) for it in self._items]
