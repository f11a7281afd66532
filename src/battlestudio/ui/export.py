"""Offscreen map pictures: the table at a point of the game log, as a PNG.

``render_map_png`` builds a ``MapView`` on a throw-away ``Document`` of the battle, shows the
state at the given log position (units and generals not yet arrived are left out), fits the
table, grabs the view (so the labels, drawn in the view's foreground, are in the picture) and
puts a title line above it: scenario title, turn, side, phase and game time. Needs a
``QApplication`` (``ensure_app`` makes an offscreen one when there is no display).
"""

from __future__ import annotations

import os
from pathlib import Path

from battlestudio.replay.battle import Battle
from battlestudio.replay.cursor import START, Cursor
from battlestudio.replay.game import GameLog

MIN_WIDTH_PX, MAX_WIDTH_PX = 200, 10_000
"""Picture widths ``render_map_png`` accepts (pixels)."""

TITLE_PX = 0.035
"""Height of the title band as a fraction of the picture width (at least 22 px)."""


def ensure_app():
    """The running ``QApplication``, or a new one (offscreen when no display is set)."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication(["battlestudio-export"])


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
    """Write the map of ``battle`` at ``cursor`` (a ``Cursor`` or a log position) to ``path``.

    Parameters
    ----------
    battle : Battle
        scenario and game log.
    cursor : Cursor | int
        where in the log (position = events applied; ``len(log)`` is the end).
    path : path-like
        the PNG to write.
    width : int
        picture width in pixels (≥ 200); the height follows the table's proportions plus the
        title band.
    log : GameLog | None
        the battle's log when the caller has one already.

    Returns
    -------
    Path
        the file written.

    Raises
    ------
    ValueError
        for a cursor outside the log or a width outside 200–10,000.
    OSError
        when the picture cannot be written, naming the file.
    """
    if not MIN_WIDTH_PX <= width <= MAX_WIDTH_PX:
        raise ValueError(f"--width must be {MIN_WIDTH_PX} to {MAX_WIDTH_PX} pixels, got {width}")
    from battlestudio.store.atomic import atomic_write, check_output_folder

    check_output_folder(path)
    ensure_app()
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter
    from PySide6.QtWidgets import QApplication

    from battlestudio.document import Document
    from battlestudio.ui.map_view import MapView

    log = log if log is not None else GameLog.from_battle(battle)
    pos = log.position(cursor)
    state = log.state_at(pos)
    info = battle.scenario.info
    view = MapView(Document(Battle(battle.scenario, [])))
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setFrameShape(view.Shape.NoFrame)
    map_h = max(100, round(width * info.table_height / max(info.table_width, 1.0)))
    view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    view.resize(width, map_h)
    view.show()  # lays out the viewport, so fitting uses its real size
    QApplication.processEvents()
    units = {k: v for k, v in state.units.items() if k not in state.off_table}
    commanders = {k: v for k, v in state.commanders.items() if k not in state.off_table}
    view.show_state(units, commanders)
    view.fit_table()
    shot = view.grab().toImage()
    band = max(22, round(width * TITLE_PX))
    image = QImage(width, map_h + band, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.drawImage(0, band, shot)
        font = QFont()
        font.setPixelSize(max(12, round(band * 0.55)))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor("black"))
        painter.drawText(
            QRectF(8, 0, width - 16, band),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            title_for(battle, log.cursor_at(pos)),
        )
    finally:
        painter.end()
    view.close()
    view.deleteLater()
    out = Path(path)

    def fill(tmp: str) -> None:
        if not image.save(tmp, "PNG"):
            raise OSError(f"{out}: could not write the PNG")

    atomic_write(out, fill)  # a failure leaves an existing picture as it was
    return out
