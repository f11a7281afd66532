"""The Umpires dock of a club game: who holds which formation, who is busy in the phase.

A list of the claims (formation, umpire, troops on the table), this umpire's own first;
Claim Selected and Release Selected act on the formations selected on the map or in the order
of battle; a line says who is still busy in the open phase.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlestudio.model.names import display_names
from battlestudio.session.club import busy_text, holder
from battlestudio.ui.club.document import ClubPlayDocument

ID_ROLE = Qt.ItemDataRole.UserRole


class UmpiresPanel(QWidget):
    """Claims and phase closes of the shown club game (``set_document``).

    Signals
    -------
    claim_requested(list), release_requested(list)
        formation ids to claim or release for this umpire.
    end_requested()
        End Game… was pressed.
    """

    claim_requested = Signal(list)
    release_requested = Signal(list)
    end_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc: ClubPlayDocument | None = None
        self.who = QLabel()
        self.who.setWordWrap(True)
        self.who.setTextFormat(Qt.TextFormat.RichText)
        self.phase = QLabel()
        self.phase.setObjectName("club_phase")
        self.phase.setWordWrap(True)
        self.phase.setTextFormat(Qt.TextFormat.RichText)
        self.tree = QTreeWidget()
        self.tree.setObjectName("club_claims")
        self.tree.setHeaderLabels(["Formation", "Umpire", "Troops"])
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QTreeWidget.SelectionMode.ExtendedSelection)
        self.tree.setMinimumWidth(120)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.claim_button = QPushButton("Claim")
        self.claim_button.setToolTip("Hold the formations selected on the map or in the order of battle")
        self.release_button = QPushButton("Release")
        self.release_button.setToolTip("Give up the claims selected here (or on the map)")
        self.claim_button.clicked.connect(lambda: self.claim_requested.emit(self._map_selection()))
        self.release_button.clicked.connect(lambda: self.release_requested.emit(self._to_release()))
        self.end_button = QPushButton("End Game…")
        self.end_button.setToolTip("End the game for every umpire: it is replayed only, spectators may read it")
        self.end_button.clicked.connect(self.end_requested)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #b00020;")
        buttons = QHBoxLayout()
        buttons.addWidget(self.claim_button)
        buttons.addWidget(self.release_button)
        buttons.addWidget(self.end_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.who)
        lay.addWidget(self.phase)
        lay.addWidget(self.tree, 1)
        lay.addLayout(buttons)
        lay.addWidget(self.note)
        self.selection: Callable[[], frozenset[str]] = frozenset

    def set_document(self, doc: ClubPlayDocument | None) -> None:
        self.doc = doc
        self.refresh()

    def _map_selection(self) -> list[str]:
        doc = self.doc
        if doc is None:
            return []
        s = doc.scenario
        return [i for i in doc.selection if i in s.commanders or i in s.units]

    def _to_release(self) -> list[str]:
        picked = [it.data(0, ID_ROLE) for it in self.tree.selectedItems()]
        if picked:
            return picked
        doc = self.doc
        return [i for i in self._map_selection() if doc is not None and doc.claims.get(i) == doc.umpire]

    def show_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def refresh(self, busy: list[str] | None = None, present: list[str] | None = None) -> None:
        """Show the claims; with ``busy`` (the umpires still busy in the open phase) the phase
        line; with ``present`` who is connected to the battle now."""
        doc = self.doc
        self.tree.clear()
        if doc is None:
            self.who.setText("<i>Not a club game</i>")
            self.phase.clear()
            return
        url = str(doc.conn.url)
        where = url.split("@", 1)[-1].split("://", 1)[-1]  # host:port/db?battle=N
        others = [p for p in (present or []) if p != doc.umpire]
        online = f"<br><small>Also here: {html.escape(', '.join(others))}</small>" if others else ""
        self.who.setText(f"Umpire <b>{html.escape(doc.umpire)}</b><br><small>{html.escape(where)}</small>{online}")
        self.who.setToolTip(url)
        s = doc.scenario
        names = display_names(s)
        state = doc.timeline.state
        counts: dict[str, int] = {}
        for rid in (*state.units, *state.commanders):
            if rid in state.off_table:
                continue
            who = holder(state.oob, doc.claims, rid)
            if who is not None:
                c = next((n for n in (rid, *state.oob.chain_of_command(rid)) if n in doc.claims), None)
                if c is not None:
                    counts[c] = counts.get(c, 0) + 1
        for fid, umpire in sorted(doc.claims.items(), key=lambda kv: (kv[1] != doc.umpire, kv[1], kv[0])):
            item = QTreeWidgetItem(
                [names.get(fid, fid), "you" if umpire == doc.umpire else umpire, str(counts.get(fid, 0))]
            )
            item.setData(0, ID_ROLE, fid)
            item.setToolTip(0, fid)
            if umpire == doc.umpire:
                f = item.font(0)
                f.setBold(True)
                item.setFont(0, f)
                item.setFont(1, f)
            self.tree.addTopLevelItem(item)
        self.end_button.setEnabled(not doc.finished and bool(doc.log))
        self.claim_button.setEnabled(not doc.finished)
        if doc.finished:
            self.phase.setText(f"<i>{html.escape(doc.ENDED)}</i>")
        elif busy is not None:
            session = doc.session
            if session is None or not session.started:
                self.phase.setText("<i>The game has not started</i>")
            else:
                k = session.key
                said = busy_text(busy, doc.umpire)
                where = f"Turn {k.turn} · {html.escape(k.side)} · {html.escape(k.phase)}"
                self.phase.setText(
                    f"{where}: <b style='color:#b00020'>{html.escape(said)}</b>"
                    if said
                    else f"{where}: <span style='color:#1e7d32'>nobody busy — Next Phase advances</span>"
                )
