"""The Replay dock: the timeline bar, the events of the current phase, and the map marks' options.

The event list shows every event of the phase at the cursor, one readable line each
(``session.text.describe``: names, distances, each roll with its explanation); the event at the
cursor is current, the ones after it greyed. Clicking an event moves the cursor to it and asks
for its unit to be selected and centred (``unit_requested``). Under the list, how many turns of
trails to draw and whether to highlight what the last step changed. A recorded game that cannot be
replayed is said in the heading (``show_unreplayable``), with its size and the first bad event.

Beside the event list, the game's bookmarks (``Battle.bookmarks``, saved in the file): Add
Bookmark marks the cursor (named after its place, the name in edit), a click goes there, name and
note are edited in place, Remove takes the selected one away; each edit marks the document
unsaved. The track shows them as flags.

``add_to_menu`` puts the dock's commands in the Game menu, so their shortcuts work wherever the
focus is: Go To… (Ctrl+G: shows the dock and selects the Go to box), Add Bookmark (Ctrl+Shift+B),
Next and Previous Bookmark (Ctrl+. and Ctrl+,).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlestudio.document import Document
from battlestudio.model.names import display_names
from battlestudio.replay.battle import Bookmark
from battlestudio.replay.cursor import PhaseKey
from battlestudio.replay.timeline import Timeline
from battlestudio.rules import resolve_ruleset_id
from battlestudio.rules.fingerprint import ruleset_changes
from battlestudio.session.text import at_text, count, describe, phase_label
from battlestudio.ui.play.timeline_bar import TimelineBar
from battlestudio.ui.play.idle_slice import IdleSlice

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
        self.loop_box = QComboBox(self)
        self.loop_box.setObjectName("replay_loop")
        self.loop_box.setToolTip(
            "Playback goes round: the whole game, the turn or phase of the cursor, or from one bookmark to the next"
        )
        self.loop_box.activated.connect(self._on_loop_chosen)
        opts = QHBoxLayout()
        opts.setContentsMargins(0, 0, 0, 0)
        opts.addWidget(self.heading, 1)
        opts.addWidget(QLabel("Loop"))
        opts.addWidget(self.loop_box)
        opts.addWidget(QLabel("Trails"))
        opts.addWidget(self.trail_box)
        opts.addWidget(self.highlight_box)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.bar)
        lay.addLayout(opts)
        self.ruleset_note = QLabel(self)
        self.ruleset_note.setObjectName("replay_ruleset_note")
        self.ruleset_note.setWordWrap(True)
        self.ruleset_note.setStyleSheet("color: #b00020")
        self.ruleset_note.hide()
        lay.addWidget(self.ruleset_note)
        self.bookmarks = QTreeWidget(self)
        self.bookmarks.setObjectName("replay_bookmarks")
        self.bookmarks.setHeaderLabels(["Bookmark", "Where", "Note"])
        self.bookmarks.setRootIsDecorated(False)
        self.bookmarks.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.bookmarks.itemClicked.connect(self._on_bookmark_clicked)
        self.bookmarks.itemChanged.connect(self._on_bookmark_edited)
        add = QPushButton("Add", self)
        add.setObjectName("replay_bookmark_add")
        add.setToolTip("Bookmark the cursor (Ctrl+Shift+B)")
        add.clicked.connect(self.add_bookmark)
        remove = QPushButton("Remove", self)
        remove.setObjectName("replay_bookmark_remove")
        remove.setToolTip("Remove the selected bookmark")
        remove.clicked.connect(self.remove_bookmark)
        marks = QWidget(self)
        mlay = QVBoxLayout(marks)
        mlay.setContentsMargins(0, 0, 0, 0)
        mlay.addWidget(self.bookmarks, 1)
        brow = QHBoxLayout()
        brow.addWidget(add)
        brow.addWidget(remove)
        brow.addStretch(1)
        mlay.addLayout(brow)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.setObjectName("replay_split")
        split.addWidget(self.events)
        split.addWidget(marks)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([700, 320])
        lay.addWidget(split, 1)
        self.document: Callable[[], Document | None] = lambda: None
        self.commands: dict[str, QAction] = {}
        self.message = ""  # the last thing a bookmark command said (also the bar's where text)
        self.timeline: Timeline | None = None
        self._phase: tuple[PhaseKey, int] | None = None
        self._items: list[QTreeWidgetItem] = []
        # while playing, the event list follows a step in a slice of its own
        self._later = IdleSlice(self._show_position, lambda: self.timeline is not None and self.timeline.playing, self)

    def add_to_menu(
        self, menu: QMenu, side_colour: Callable[[str], str], document: Callable[[], Document | None]
    ) -> None:
        """Add the dock's commands (``self.commands``, by name) to ``menu``; ``side_colour``
        colours the track's player-turn bands; ``document`` gives the shown game's document
        (its battle holds the bookmarks)."""
        self.bar.track.side_colour = side_colour
        self.document = document
        for name, text, slot, keys, tip in (
            ("goto", "&Go To…", self.focus_goto, "Ctrl+G", "Go to a turn, side, phase or event: type 14:prussian:fire"),
            ("bookmark_add", "Add &Bookmark", self.add_bookmark, "Ctrl+Shift+B", "Bookmark the cursor"),
            ("bookmark_next", "Ne&xt Bookmark", lambda: self.step_bookmark(1), "Ctrl+.", "Go to the next bookmark"),
            (
                "bookmark_prev",
                "Pre&vious Bookmark",
                lambda: self.step_bookmark(-1),
                "Ctrl+,",
                "Go to the previous bookmark",
            ),
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

    # -- bookmarks ------------------------------------------------------------------------------
    def _marks(self) -> list[Bookmark]:
        doc = self.document()
        return list(doc.battle.bookmarks) if doc is not None and self.timeline is not None else []

    def _set_marks(self, marks: list[Bookmark], refill: bool = True) -> None:
        doc = self.document()
        if doc is None:
            return
        doc.battle.bookmarks = sorted(marks, key=lambda b: b.position)
        doc.mark_unsaved()
        if refill:
            self.fill_bookmarks()
        else:  # an item being edited stays; only the names on the track follow
            self.bar.track.bookmarks = [(b.position, b.name) for b in doc.battle.bookmarks]

    def fill_bookmarks(self) -> None:
        """List the game's bookmarks and flag them on the track."""
        marks = self._marks()
        log = self.timeline.log if self.timeline is not None else None
        self.bookmarks.blockSignals(True)
        self.bookmarks.clear()
        for i, b in enumerate(marks):
            pos = min(b.position, len(log)) if log is not None else b.position
            where = phase_label(log.cursor_at(pos).key) if log is not None and pos else "start of the game"
            item = QTreeWidgetItem([b.name, where, b.note])
            item.setData(0, POS_ROLE, i)
            item.setToolTip(0, f"{b.name} — {where} ({at_text(log, pos) if log is not None else pos})")
            item.setToolTip(2, b.note)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
            self.bookmarks.addTopLevelItem(item)
        self.bookmarks.blockSignals(False)
        self.bar.track.bookmarks = [(b.position, b.name) for b in marks]
        self.bar.track.update()
        self.fill_loops()

    # -- looping --------------------------------------------------------------------------------
    def loop_choices(self) -> list[tuple[str, object]]:
        """What the Loop box offers: ``(text, what)`` with ``what`` None (no loop), "game",
        "turn", "phase" or a ``(first, last)`` pair of bookmark positions."""
        out: list[tuple[str, object]] = [("Off", None), ("Whole game", "game")]
        if self.timeline is None:
            return out[:1]
        out += [("This turn", "turn"), ("This phase", "phase")]
        marks = sorted({(b.position, b.name) for b in self._marks() if b.position <= len(self.timeline.log)})
        for (a, an), (b, bn) in zip(marks, marks[1:], strict=False):
            if a < b:
                out.append((f"{an} → {bn}", (a, b)))
        return out

    def fill_loops(self) -> None:
        """Refill the Loop box, keeping what is chosen when it is still offered."""
        keep = self.loop_box.currentData()
        t = self.timeline
        self.loop_box.blockSignals(True)
        self.loop_box.clear()
        for text, what in self.loop_choices():
            self.loop_box.addItem(text, what)
        if t is not None and t.loop:
            rng = t.loop_range
            i = self._loop_index(keep if rng is None or keep in ("turn", "phase") else rng)
            if rng is not None and keep not in ("turn", "phase") and i < 0:  # its bookmarks went
                t.loop_range = None
                i = self._loop_index("game")
            self.loop_box.setCurrentIndex(max(i, 0))
        self.loop_box.blockSignals(False)

    def choose_loop(self, what: object) -> tuple[int, int] | None:
        """Loop playback over ``what`` (see ``loop_choices``); return the range set (None: the
        whole game or no loop). "turn" and "phase" take the cursor's turn or phase now."""
        t = self.timeline
        if t is None:
            return None
        rng: tuple[int, int] | None = None
        if what in ("turn", "phase"):
            marks = t.log.turn_starts() if what == "turn" else t.log.phase_starts()
            before = [m for m in marks if m <= t.position]
            lo = before[-1] if before else 0
            # before the first turn's first event (as deployed) "this turn" is the first turn
            after = [m for m in marks if m > (lo if before or not marks else marks[0])]
            hi = after[0] if after else len(t.log)
            rng = (lo, hi) if lo < hi else None
        elif isinstance(what, (tuple, list)):
            rng = (int(what[0]), int(what[1]))
        t.loop_range = rng
        t.loop = what is not None
        i = self._loop_index(what)
        if i >= 0 and i != self.loop_box.currentIndex():
            self.loop_box.setCurrentIndex(i)
        return rng

    def _loop_index(self, what: object) -> int:
        """The Loop box's row of ``what`` (-1: not offered); ranges compare as pairs."""
        for i in range(self.loop_box.count()):
            data = self.loop_box.itemData(i)
            if data == what or (isinstance(what, tuple) and isinstance(data, (list, tuple)) and tuple(data) == what):
                return i
        return -1

    def _follow_loop(self) -> None:
        """With "this turn" or "this phase" chosen, a cursor the user moved out of the looped
        range (not playing) takes the loop to the turn or phase it is in now."""
        t = self.timeline
        what = self.loop_box.currentData()
        if t is None or t.playing or what not in ("turn", "phase"):
            return
        rng = t.loop_range
        if rng is None or not rng[0] <= t.position <= rng[1]:
            self.choose_loop(what)

    def _on_loop_chosen(self, index: int) -> None:
        self.choose_loop(self.loop_box.itemData(index))

    def add_bookmark(self) -> Bookmark | None:
        """Bookmark the cursor, named after its place; the new name is put in edit."""
        t = self.timeline
        if t is None or self.document() is None:
            return None
        pos = t.position
        name = phase_label(t.cursor.key).capitalize() if pos else "Start of the game"
        mark = Bookmark(name, pos)
        self._set_marks([*self._marks(), mark])
        self._raise_dock()
        for i in range(self.bookmarks.topLevelItemCount()):
            item = self.bookmarks.topLevelItem(i)
            if self._marks()[int(item.data(0, POS_ROLE))] is mark:
                self.bookmarks.setCurrentItem(item)
                if self.bookmarks.isVisible():
                    self.bookmarks.editItem(item, 0)
        return mark

    def remove_bookmark(self) -> None:
        """Remove the selected bookmark."""
        item = self.bookmarks.currentItem()
        if item is None:
            return
        marks = self._marks()
        del marks[int(item.data(0, POS_ROLE))]
        self._set_marks(marks)

    def step_bookmark(self, n: int) -> Bookmark | None:
        """Go to the next (``n`` > 0) or previous bookmark from the cursor; None (said in the bar)
        when there is none that way."""
        t = self.timeline
        if t is None:
            return None
        marks = [b for b in self._marks() if b.position <= len(t.log)]
        ahead = [b for b in marks if (b.position > t.position if n > 0 else b.position < t.position)]
        if not ahead:
            self.message = f"No bookmark {'after' if n > 0 else 'before'} this point"
            self.bar.where.setText(f"<i>{self.message}</i>")
            return None
        mark = ahead[0] if n > 0 else ahead[-1]
        t.seek(mark.position)
        self.message = f"Bookmark {mark.name}"
        return mark

    def _on_bookmark_clicked(self, item: QTreeWidgetItem, _col: int = 0) -> None:
        marks = self._marks()
        i = int(item.data(0, POS_ROLE))
        if self.timeline is not None and i < len(marks):
            self.timeline.seek(min(marks[i].position, len(self.timeline.log)))

    def _on_bookmark_edited(self, item: QTreeWidgetItem, col: int) -> None:
        marks = self._marks()
        i = int(item.data(0, POS_ROLE))
        if i >= len(marks):
            return
        old = marks[i]
        name = item.text(0).strip() or old.name  # a bookmark keeps a name
        new = Bookmark(name, old.position, item.text(2))
        if new != old:
            marks[i] = new
            self._set_marks(marks, refill=False)
        if item.text(0) != name:
            self.bookmarks.blockSignals(True)
            item.setText(0, name)
            self.bookmarks.blockSignals(False)

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
        self.fill_bookmarks()
        self.show_ruleset_changes()

    def show_ruleset_changes(self) -> list[str]:
        """Say, above the events, which rule numbers changed since the shown game was recorded
        (``Battle.ruleset_record`` against the numbers in force now); return those lines."""
        doc = self.document() if self.timeline is not None else None
        lines: list[str] = []
        if doc is not None:
            info = doc.battle.scenario.info
            lines = ruleset_changes(doc.battle.ruleset_record, resolve_ruleset_id(info.ruleset), info.parameters)
        self.ruleset_note.setVisible(bool(lines))
        self.ruleset_note.setText(
            "The rule numbers changed since this game was recorded (recorded → now): " + "; ".join(lines)
            if lines
            else ""
        )
        return lines

    def show_kept_game(self, count: int) -> None:
        """No timeline while the scenario is edited, but the battle keeps its recorded game of
        ``count`` events: say so and how to go back to it, instead of "no game"."""
        self.set_timeline(None)
        self.bar.where.setText(f"Game of {count} events kept")
        self.heading.setText(
            f"Editing the scenario. The recorded game ({count} event{'' if count == 1 else 's'}) is kept in the "
            "battle: Game ▸ Resume Game goes back to it."
        )
        self.heading.setToolTip(self.heading.text())

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
        self._follow_loop()
        self._later(pos)

    def _show_position(self, pos: int) -> None:
        t = self.timeline
        if t is not None:
            pos = t.position  # (a deferred call shows where the cursor is now)
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
        for p, e in log.events_between(start, end):  # (not log.events: that reads the whole game)
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
