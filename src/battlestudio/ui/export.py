"""Map pictures outside the map renderer's own module: ``replay --png`` (``render_map_png``),
the window's File ▸ Export Map Image (``ExportDialog``, ``export_window_map``).

Every picture is painted by ``map_export.MapPage`` — the page of ``export-map`` and the report —
so the window, the CLI and the report give the same labels, legend, scale bar, north arrow and
title for the same cursor and region. Needs a ``QApplication`` (``ensure_app`` makes an
offscreen one when there is no display).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from battlestudio.replay.battle import Battle
from battlestudio.replay.cursor import START, Cursor
from battlestudio.replay.game import GameLog
from battlestudio.ui.map_export import PAPERS, MapPage, PageSpec, Region, ensure_app

if TYPE_CHECKING:
    from battlestudio.document import Document
    from battlestudio.ui.map_view import MapView

__all__ = ["ExportDialog", "ensure_app", "export_window_map", "render_map_png", "title_for", "window_region"]

MIN_WIDTH_PX, MAX_WIDTH_PX = 200, 10_000
"""Picture widths ``render_map_png`` accepts (page pixels)."""

REGIONS = ("table", "view", "selection")
"""What a window export shows: the whole table, the part in view, the selection."""

SELECTION_PAD_CM = 10.0
"""Table cm shown around the selected records in a selection export."""


def title_for(battle: Battle, cursor: Cursor) -> str:
    """``"Jena 1806 — turn 12 (08:45), french, movement"`` (``"… — start"`` at the start)."""
    from battlestudio.session.turns import game_time

    info = battle.scenario.info
    if cursor == START or cursor.turn < 1:
        return f"{info.title} — start of the game ({info.first_turn})"
    side = battle.scenario.sides.get(cursor.side)
    side_name = side.name if side is not None else cursor.side
    return f"{info.title} — turn {cursor.turn} ({game_time(info, cursor.turn)}), {side_name}, {cursor.phase}"


def render_map_png(
    battle: Battle, cursor: Cursor | int, path: str | os.PathLike[str], width: int = 1600, log: GameLog | None = None
) -> Path:
    """Write the map page of ``battle`` at ``cursor`` (a ``Cursor`` or a log position) to the
    PNG ``path``, ``width`` page pixels wide (the ``export-map`` page: title, map, legend).

    Raises
    ------
    ValueError
        for a cursor outside the log or a width outside 200–10,000.
    OSError
        when the picture cannot be written, naming the file.
    """
    if not MIN_WIDTH_PX <= width <= MAX_WIDTH_PX:
        raise ValueError(f"--width must be {MIN_WIDTH_PX} to {MAX_WIDTH_PX} pixels, got {width}")
    from battlestudio.store.atomic import check_output_folder

    check_output_folder(path)
    log = log if log is not None else GameLog.from_battle(battle)
    pos = log.position(cursor)
    page = MapPage(battle, pos, PageSpec(width_px=width), log=log)
    try:
        return page.save(Path(path))
    finally:
        page.close()


# -- the window's export ----------------------------------------------------------------------
def document_game(document: Document) -> tuple[Battle, GameLog, int]:
    """(battle, log, position) of what a window shows: a replaying document's game at its
    cursor, else the editor's scenario as deployed."""
    timeline = getattr(document, "timeline", None)
    log = getattr(document, "log", None)
    if timeline is not None and isinstance(log, GameLog):
        return document.battle, log, timeline.position
    battle = Battle(document.scenario, [])
    return battle, GameLog.from_battle(battle), 0


def window_region(map_view: MapView, kind: str) -> Region | None:
    """The table region (cm) of ``kind``: None for the whole table, the part of the table in
    ``map_view``'s viewport (``"view"``), or the selected records' bounds with
    ``SELECTION_PAD_CM`` around them (``"selection"``).

    Raises
    ------
    ValueError
        for an unknown kind, nothing selected, or a view showing no part of the table.
    """
    from battlestudio.ui.coords import scene_to_table

    if kind not in REGIONS:
        raise ValueError(f"region {kind!r}: choose one of {', '.join(REGIONS)}")
    if kind == "table":
        return None
    scene = map_view.map_scene
    table = scene.table_rect()
    if kind == "view":
        rect = map_view.mapToScene(map_view.viewport().rect()).boundingRect().intersected(table)
        if rect.isEmpty():
            raise ValueError("the view shows no part of the table: scroll to it or export the whole table")
    else:
        ids = map_view.document.selection if map_view.document else frozenset()
        items = [i for i in map(scene.item_for, ids) if i is not None]
        if not items:
            raise ValueError("nothing is selected: select units, generals or terrain first, or export the view")
        rect = _scene_extent(items[0])
        for item in items[1:]:
            rect = rect.united(_scene_extent(item))
        p = SELECTION_PAD_CM
        rect = rect.adjusted(-p, -p, p, p).intersected(table)
    (x0, y1), (x1, y0) = scene_to_table(rect.topLeft()), scene_to_table(rect.bottomRight())
    return (x0, y0, x1, y1)


def _scene_extent(item) -> QRectF:
    """Scene rectangle of what a record's item stands for: a unit's footprint, a general's
    position (his flag is drawn in screen pixels), a feature's outline."""
    from battlestudio.ui.troop_items import CommanderItem

    box = getattr(item, "scene_box", None)
    if isinstance(item, CommanderItem) or box is None:
        if isinstance(item, CommanderItem):
            return QRectF(item.pos(), item.pos()).adjusted(-0.5, -0.5, 0.5, 0.5)
        return item.sceneBoundingRect()
    return QRectF(box[0], box[1], box[2] - box[0], box[3] - box[1])


def window_spec(map_view: MapView, region: str = "table", **options) -> PageSpec:
    """The ``PageSpec`` of a window export: the window's hidden layers (the command overlay
    when its layer is off), the reaches of its selection, ``region`` and ``options``
    (``PageSpec`` fields)."""
    hidden = frozenset(map_view.map_scene.hidden_layers)
    selection = map_view.document.selection if map_view.document else frozenset()
    return PageSpec(
        region=window_region(map_view, region),
        hidden_layers=hidden,
        command_layer="command" not in hidden and options.pop("command_layer", True),
        reach_for=frozenset(selection),
        **options,
    )


def export_window_map(map_view: MapView, path: Path, spec: PageSpec) -> Path:
    """Write the page of ``spec`` of what ``map_view``'s document shows (at its replay cursor)
    to ``path`` (PNG, SVG or PDF; JPEG as a picture).

    Raises
    ------
    ValueError
        for a bad spec or suffix; OSError when the file cannot be written.
    """
    battle, log, pos = document_game(map_view.document)
    page = MapPage(battle, pos, spec, log=log)
    try:
        if path.suffix.lower() in (".jpg", ".jpeg"):
            from battlestudio.store.atomic import atomic_write

            def fill(tmp: str) -> None:
                if not page.image().save(tmp, "JPEG", 92):
                    raise OSError(f"{path}: could not write the JPEG")

            atomic_write(path, fill)
            return path
        return page.save(path)
    finally:
        page.close()


class ExportDialog(QDialog):
    """The choices of a map export: file (its suffix picks PNG, SVG, PDF or JPEG), region,
    paper (a picture, A4, A3, letter), orientation, scale (fitted or 1:N), picture width,
    DPI and the command overlay. ``spec()`` and ``path()`` give the result."""

    def __init__(self, map_view: MapView, suggested: Path | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export Map")
        self.map_view = map_view
        form = QFormLayout(self)
        self.file = QLineEdit(str(suggested or ""))
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.file, 1)
        row.addWidget(browse)
        file_label = QLabel("&File:")
        file_label.setBuddy(self.file)
        form.addRow(file_label, row)
        self.region = QComboBox()
        for key, text in (("table", "Whole table"), ("view", "The view"), ("selection", "The selection")):
            self.region.addItem(text, key)
        if not (map_view.document and map_view.document.selection):
            self.region.model().item(2).setEnabled(False)
        form.addRow("&Region:", self.region)
        self.paper = QComboBox()
        self.paper.addItem("Picture (width in pixels)", None)
        for key in PAPERS:
            self.paper.addItem(key.upper() if key != "letter" else "Letter", key)
        form.addRow("&Paper:", self.paper)
        self.orientation = QComboBox()
        for text, value in (("Best fit", None), ("Landscape", True), ("Portrait", False)):
            self.orientation.addItem(text, value)
        form.addRow("&Orientation:", self.orientation)
        self.fitted = QCheckBox("&Fit the region to the page")
        self.fitted.setChecked(True)
        self.scale = QDoubleSpinBox()
        self.scale.setRange(1, 10_000)
        self.scale.setDecimals(0)
        self.scale.setValue(10.0)
        self.scale.setPrefix("1:")
        self.scale.setSuffix(" on the table")
        row = QHBoxLayout()
        row.addWidget(self.fitted)
        row.addWidget(self.scale)
        scale_label = QLabel("&Scale:")
        scale_label.setBuddy(self.scale)
        form.addRow(scale_label, row)
        self.width = QSpinBox()
        self.width.setRange(400, MAX_WIDTH_PX)
        self.width.setValue(1800)
        self.width.setSuffix(" px")
        form.addRow("&Width:", self.width)
        self.dpi = QSpinBox()
        self.dpi.setRange(48, 600)
        self.dpi.setValue(96)
        self.dpi.setSuffix(" dpi")
        form.addRow("PNG &resolution:", self.dpi)
        self.command = QCheckBox("&Command overlay (lines, marks, orders; reaches of the selection)")
        self.command.setChecked("command" not in map_view.map_scene.hidden_layers)
        form.addRow("", self.command)
        self.problem = QLabel("")
        self.problem.setStyleSheet("color: #a00000")
        self.problem.setWordWrap(True)
        form.addRow(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("&Export")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        for w in (self.paper, self.fitted):
            (w.currentIndexChanged if isinstance(w, QComboBox) else w.toggled).connect(self._enable)
        self._enable()

    def _enable(self, *_a) -> None:
        on_paper = self.paper.currentData() is not None
        self.orientation.setEnabled(on_paper)
        self.fitted.setEnabled(on_paper)
        self.scale.setEnabled(on_paper and not self.fitted.isChecked())
        self.width.setEnabled(not on_paper)

    def _browse(self) -> None:
        name, _ = QFileDialog.getSaveFileName(
            self, "Export map", self.file.text(), "PNG (*.png);;SVG (*.svg);;PDF (*.pdf);;JPEG (*.jpg)"
        )
        if name:
            self.file.setText(name)

    def path(self) -> Path:
        """The file to write (``.png`` added when the name has no picture suffix)."""
        name = self.file.text().strip()
        if not name.lower().endswith((".png", ".svg", ".pdf", ".jpg", ".jpeg")):
            name += ".png"
        return Path(name)

    def spec(self) -> PageSpec:
        """The page chosen. Raises ``ValueError`` naming a choice that cannot make one."""
        paper = self.paper.currentData()
        return window_spec(
            self.map_view,
            self.region.currentData(),
            command_layer=self.command.isChecked(),
            paper=paper,
            landscape=self.orientation.currentData() if paper else None,
            scale=None if paper is None or self.fitted.isChecked() else self.scale.value(),
            width_px=self.width.value(),
            dpi=float(self.dpi.value()),
        )

    def _accept(self) -> None:
        from battlestudio.ui.map_export import page_layout

        if not self.file.text().strip():
            self.problem.setText("Name the file to write (Browse… picks one).")
            return
        try:
            spec = self.spec()
            s = self.map_view.document.scenario
            page_layout(spec, (s.info.table_width, s.info.table_height))
        except ValueError as exc:
            self.problem.setText(str(exc))
            return
        self.problem.setText("")
        self.accept()
