"""The Sides dock: the scenario's sides with their colour, nations and strength, and the edits of
them — add, rename, recolour (``QColorDialog``), set nations, delete an empty side. Each is one
undo step (``PutRecords``/``RemoveRecords`` on ``sides``). A side that still holds units or
commanders is not deleted; the message says how many.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QColorDialog,
    QHeaderView,
    QGridLayout,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlestudio.document import Document
from battlestudio.edits import Change, PutRecords, RemoveRecords
from battlestudio.model.scenario import Side
from battlestudio.model.side_colours import side_colour
from battlestudio.store.importers.common import slug
from battlestudio.ui import dialogs
from battlestudio.ui.play.idle_slice import IdleSlice

ID_ROLE = Qt.ItemDataRole.UserRole + 1


def _swatch(colour: str) -> QIcon:
    pm = QPixmap(14, 14)
    pm.fill(QColor(colour))
    return QIcon(pm)


class SidesPanel(QWidget):
    """List and edit the sides of the shown document.

    Attributes
    ----------
    list : QTreeWidget
        one row per side: name (with its colour), id, nations, units, men.
    add_button, rename_button, colour_button, nation_button, delete_button : QPushButton
        the commands, acting on the current row.
    """

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sides_panel")
        self.list = QTreeWidget()
        self.list.setObjectName("sides_list")
        self.list.setHeaderLabels(["Side", "Id", "Nations", "Units", "Men"])
        self.list.setRootIsDecorated(False)
        header = self.list.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in range(1, 5):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        self.list.itemDoubleClicked.connect(lambda *_: self.rename())
        self.list.currentItemChanged.connect(lambda *_: self._enable())
        self.add_button = QPushButton("&Add…")
        self.rename_button = QPushButton("&Rename…")
        self.colour_button = QPushButton("&Colour…")
        self.nation_button = QPushButton("&Nations…")
        self.delete_button = QPushButton("&Delete")
        row = QGridLayout()  # three a row: the dock stays as narrow as the order-of-battle tree
        for i, (b, slot) in enumerate(
            (
                (self.add_button, self.add),
                (self.rename_button, self.rename),
                (self.colour_button, self.recolour),
                (self.nation_button, self.set_nations),
                (self.delete_button, self.delete),
            )
        ):
            b.clicked.connect(lambda _c=False, s=slot: s())
            row.addWidget(b, i // 3, i % 3)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.list, 1)
        lay.addLayout(row)
        self.document: Document | None = None
        # while the replay plays, the table follows a step in a slice of its own
        self._later = IdleSlice(self.refresh, self._playing, self)
        self.set_document(document)

    def _playing(self) -> bool:
        timeline = getattr(self.document, "timeline", None)
        return timeline is not None and bool(timeline.playing)

    def set_document(self, document: Document) -> None:
        if self.document is not None:
            self.document.changed.disconnect(self._on_changed)
        self.document = document
        document.changed.connect(self._on_changed)
        self.refresh()

    def _on_changed(self, changes: list[Change]) -> None:
        if any(c.kind in ("sides", "units", "commanders") for c in changes):
            self._later()

    def refresh(self) -> None:
        """Re-read the sides, keeping the current row (the first side's when it is gone, e.g.
        after another file was opened, so the buttons are ready)."""
        assert self.document is not None
        keep = self.current()
        sc = self.document.scenario
        self.list.clear()
        for sid, side in sc.sides.items():
            units = [u for u in sc.units.values() if u.side == sid and u.state != "eliminated"]  # the living
            it = QTreeWidgetItem(
                [side.name, sid, ", ".join(side.nations), str(len(units)), f"{sum(u.men for u in units):,}"]
            )
            it.setIcon(0, _swatch(side.colour))
            it.setToolTip(0, f"{side.name} ({side.colour})")  # a long name is cut in a narrow dock
            for c in (3, 4):
                it.setTextAlignment(c, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            it.setData(0, ID_ROLE, sid)
            self.list.addTopLevelItem(it)
            if sid == keep:
                self.list.setCurrentItem(it)
        if self.list.currentItem() is None and self.list.topLevelItemCount():
            self.list.setCurrentItem(self.list.topLevelItem(0))
        self._enable()

    def current(self) -> str | None:
        """Id of the side in the current row, or None."""
        it = self.list.currentItem()
        return it.data(0, ID_ROLE) if it is not None else None

    def select(self, sid: str) -> None:
        """Make side ``sid``'s row current."""
        for i in range(self.list.topLevelItemCount()):
            if self.list.topLevelItem(i).data(0, ID_ROLE) == sid:
                self.list.setCurrentItem(self.list.topLevelItem(i))

    def _enable(self) -> None:
        on = self.current() is not None
        for b in (self.rename_button, self.colour_button, self.nation_button, self.delete_button):
            b.setEnabled(on)

    def _put(self, side: Side, text: str) -> None:
        assert self.document is not None
        self.document.push(PutRecords("sides", {side.id: side}, text))
        self.select(side.id)

    # -- commands ------------------------------------------------------------------------
    def add(self) -> str | None:
        """Ask for a name and add a side with a colour no other side has; its id, or None."""
        assert self.document is not None
        name = dialogs.ask_text(self, "Add side", "Name of the new side (e.g. French, Austrian):")
        if name is None:
            return None
        sides = self.document.scenario.sides
        sid, n = slug(name), 2
        while sid in sides:
            sid, n = f"{slug(name)}-{n}", n + 1
        self._put(Side(sid, name, (name,), side_colour(name, [s.colour for s in sides.values()])), f"Add side {name}")
        return sid

    def rename(self) -> None:
        """Rename the current side (its id, used by every unit, stays)."""
        side = self._side()
        if side is None:
            return
        name = dialogs.ask_text(self, "Rename side", f"New name of {side.name}:", side.name)
        if name is not None and name != side.name:
            self._put(replace(side, name=name), f"Rename side {side.name} to {name}")

    def recolour(self) -> None:
        """Pick the current side's map colour."""
        side = self._side()
        if side is None:
            return
        c = QColorDialog.getColor(QColor(side.colour), self, f"Colour of {side.name}")
        if c.isValid() and c.name().lower() != side.colour.lower():
            self._put(replace(side, colour=c.name()), f"Recolour side {side.name}")

    def set_nations(self) -> None:
        """Set the current side's nations (comma-separated)."""
        side = self._side()
        if side is None:
            return
        text = dialogs.ask_text(self, "Nations", f"Nations of {side.name} (comma-separated):", ", ".join(side.nations))
        if text is None:
            return
        nations = tuple(n.strip() for n in text.split(",") if n.strip())
        if nations != side.nations:
            self._put(replace(side, nations=nations), f"Set nations of {side.name}")

    def delete(self) -> bool:
        """Delete the current side if no unit or commander belongs to it; True when deleted."""
        side = self._side()
        if side is None or self.document is None:
            return False
        sc = self.document.scenario
        units = sum(u.side == side.id for u in sc.units.values())
        cmds = sum(c.side == side.id for c in sc.commanders.values())
        if units or cmds:
            dialogs.show_error(
                self,
                "Side not empty",
                f"{side.name} still has {units} unit(s) and {cmds} commander(s); "
                "delete or move them to another side first.",
            )
            return False
        self.document.push(RemoveRecords("sides", [side.id], f"Delete side {side.name}"))
        return True

    def _side(self) -> Side | None:
        sid = self.current()
        return self.document.scenario.sides.get(sid) if sid and self.document is not None else None
