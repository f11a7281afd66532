"""Map exports at any point of a game: PNG, SVG and PDF pages with title, date and game time,
legend, scale bar and north arrow, optionally with the command overlay.

The page is a ``MapView`` of the battle rendered offscreen at the page size (so the map's own
labels and scale bar, drawn in the view's foreground, are on the page), the table fitted
between a title band at the top and a legend band at the bottom; the title, legend and north
arrow are painted over the view's grey margin. One painting routine serves the three devices:
``QImage`` (PNG), ``QSvgGenerator`` (SVG) and ``QPdfWriter`` (PDF).

The table's top edge is taken as north (the bundled scenarios are drawn north up; a scenario
records no orientation).
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QByteArray, QBuffer, QIODevice, QMarginsF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen, QPolygonF
from PySide6.QtSvg import QSvgGenerator

from battlestudio.analysis.common import turn_end_positions
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog

FORMATS = ("png", "svg", "pdf")
TOP, BOTTOM = 0.075, 0.12
"""Title and legend bands as fractions of the page height."""


MIN_WIDTH_PX, MAX_WIDTH_PX = 400, 10_000
"""Page widths ``export_map`` accepts (pixels); 100,000 px needed 21 GB of memory."""


def ensure_app():
    """The running ``QApplication``, or a new offscreen one when there is no display."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication(["battlestudio-export"])


def resolve_at(log: GameLog, at: str | int) -> int:
    """The log position of ``at``: ``start``/``0`` (the deployment), ``end``, a turn number
    (the map at the end of that turn), ``TURN:SIDE`` or ``TURN:SIDE:PHASE`` — the syntax of
    ``replay --at`` (``session.text.position_at``).

    Raises
    ------
    ValueError
        naming the value and what the game log holds.
    """
    from battlestudio.session.text import position_at

    return position_at(log, at)


def page_title(battle: Battle, log: GameLog, pos: int) -> tuple[str, str]:
    """(title, subtitle): the scenario title, and its date, place and the game time at ``pos``."""
    from battlestudio.session.turns import game_time

    info = battle.scenario.info
    cur = log.cursor_at(pos)
    if cur.turn < 1:
        when = f"deployment, {info.first_turn}"
    else:
        side = battle.scenario.sides.get(cur.side)
        span = f"Turn {cur.turn}, {game_time(info, cur.turn)}–{game_time(info, cur.turn + 1)}"  # e.g. 10:45–11:00
        when = f"{span}, {side.name if side else cur.side}, {cur.phase}"
        if pos == len(log) or pos in dict(turn_end_positions(log)).values():
            when = f"{span}, end of turn"
    place = f", {info.place}" if getattr(info, "place", "") else ""
    return info.title, f"{info.date}{place} — {when}"


class MapPage:
    """An offscreen map view of ``battle`` at log position ``pos``, ready to paint pages.

    Parameters
    ----------
    battle : Battle
    pos : int
        log position (events applied).
    size : tuple[int, int]
        page size in pixels.
    command_layer : bool
        draw the command overlay (reaches, lines, out-of-command marks, orders).
    log : GameLog | None
        the battle's log when the caller has one.
    """

    def __init__(
        self, battle: Battle, pos: int, size: tuple[int, int], command_layer: bool = True, log: GameLog | None = None
    ) -> None:
        ensure_app()
        from PySide6.QtWidgets import QApplication

        from battlestudio.document import Document
        from battlestudio.ui.command_overlay import CommandOverlay
        from battlestudio.ui.coords import table_rect_to_scene
        from battlestudio.ui.map_view import MapView

        self.battle = battle
        self.log = log if log is not None else GameLog.from_battle(battle)
        self.pos = pos
        self.size = size
        state = self.log.state_at(pos)
        s = battle.scenario
        self.view = view = MapView(Document(Battle(s, [])))
        view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.setFrameShape(view.Shape.NoFrame)
        view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
        view.resize(*size)
        view.show()
        QApplication.processEvents()
        view.show_state(
            {k: v for k, v in state.units.items() if k not in state.off_table},
            {k: v for k, v in state.commanders.items() if k not in state.off_table},
        )
        self.overlay = None
        if command_layer:
            self.overlay = CommandOverlay(view.map_scene)
            self.overlay.set_rules(s.info.ruleset, s.info.parameters)
            self.overlay.show_state(state)
        w, h = s.info.table_width, s.info.table_height
        # the table fills the page between the title band and the legend band
        W, H = size
        self.zoom = z = min(W / (w + 4.0), H * (1 - TOP - BOTTOM) / (h + 4.0))
        view.setSceneRect(table_rect_to_scene(-w, -h, 2 * w, 2 * h))
        view.setTransform(view.transform().fromScale(z, z))
        shift = (H / 2 - H * (TOP + (1 - TOP - BOTTOM) / 2)) / z
        view.centerOn(QPointF(w / 2, -h / 2 + shift))
        view.refresh_zoom()
        QApplication.processEvents()
        self.title, self.subtitle = page_title(battle, self.log, pos)

    def close(self) -> None:
        self.view.close()
        self.view.deleteLater()

    def paint(self, painter: QPainter) -> None:
        """Paint the page at (0, 0)–size on ``painter`` (device pixels)."""
        W, H = self.size
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        self.view.render(painter, QRectF(0, 0, W, H), self.view.viewport().rect())
        band = H * TOP
        painter.fillRect(QRectF(0, 0, W, band), QColor(255, 255, 250))
        f = QFont()
        f.setPixelSize(max(12, round(band * 0.42)))
        f.setBold(True)
        painter.setFont(f)
        painter.setPen(QColor("#111111"))
        painter.drawText(
            QRectF(12, 2, W - 24, band * 0.58), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.title
        )
        f.setBold(False)
        f.setPixelSize(max(10, round(band * 0.28)))
        painter.setFont(f)
        painter.drawText(
            QRectF(12, band * 0.55, W - 24, band * 0.42),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            self.subtitle,
        )
        self._north_arrow(painter, QPointF(W - band * 0.7, band * 0.5), band * 0.42)
        self._legend(painter, QRectF(0, H * (1 - BOTTOM) + 4, W, H * BOTTOM - 4))

    def _north_arrow(self, painter: QPainter, c: QPointF, r: float) -> None:
        painter.save()
        painter.setPen(QPen(QColor("#111111"), 1.2))
        painter.setBrush(QColor("#111111"))
        painter.drawPolygon(
            QPolygonF(
                [
                    QPointF(c.x(), c.y() - r),
                    QPointF(c.x() + r * 0.45, c.y() + r * 0.7),
                    QPointF(c.x(), c.y() + r * 0.35),
                ]
            )
        )
        painter.setBrush(QColor("white"))
        painter.drawPolygon(
            QPolygonF(
                [
                    QPointF(c.x(), c.y() - r),
                    QPointF(c.x() - r * 0.45, c.y() + r * 0.7),
                    QPointF(c.x(), c.y() + r * 0.35),
                ]
            )
        )
        f = QFont()
        f.setPixelSize(max(9, round(r * 0.7)))
        f.setBold(True)
        painter.setFont(f)
        painter.drawText(QRectF(c.x() - r * 1.6, c.y() - r * 0.6, r, r), Qt.AlignmentFlag.AlignCenter, "N")
        painter.restore()

    def _legend(self, painter: QPainter, rect: QRectF) -> None:
        from battlestudio.analysis.command_picture import EXEMPT, IN, OUT
        from battlestudio.ui.command_overlay import LINK_COLOURS, ORDER_COLOURS

        s = self.battle.scenario
        painter.save()
        painter.fillRect(rect.adjusted(0, -4, 0, 0), QColor(255, 255, 250))
        px = max(10.0, min(rect.height() * 0.16, rect.width() / 120))
        f = QFont()
        f.setPixelSize(round(px))
        painter.setFont(f)
        fm = painter.fontMetrics()
        entries: list[tuple[str, str, str]] = [("box", side.colour, side.name) for side in s.sides.values()]
        if self.overlay is not None:
            entries += [
                ("line", LINK_COLOURS[IN], "within command distance / zone"),
                ("line", LINK_COLOURS[OUT], "out of command"),
                ("dash", LINK_COLOURS[EXEMPT], "outside, exempt (detached, routed)"),
                ("ring", "#808080", "command reach (radius or zones)"),
                ("arrow", ORDER_COLOURS["A"], "standing order → objective"),
            ]
        x0, y = rect.left() + 14, rect.top() + px * 0.6
        bar_w = rect.width() * 0.22
        x = x0
        for kind, colour, text in entries:
            col_w = px * 2.6 + fm.horizontalAdvance(text) + px * 1.5
            if x + col_w > rect.right() - bar_w:
                x, y = x0, y + px * 1.7
            sw = QRectF(x, y, px * 1.8, px)
            c = QColor(colour)
            if kind == "box":
                painter.setPen(QPen(QColor("#222222"), 1))
                painter.setBrush(c)
                painter.drawRect(sw)
            elif kind in ("line", "dash", "arrow"):
                painter.setPen(QPen(c, 2.5, Qt.PenStyle.DashLine if kind == "dash" else Qt.PenStyle.SolidLine))
                painter.drawLine(QPointF(sw.left(), sw.center().y()), QPointF(sw.right(), sw.center().y()))
                if kind == "arrow":
                    painter.setBrush(c)
                    painter.drawPolygon(
                        QPolygonF(
                            [
                                sw.topRight() + QPointF(2, px / 2),
                                sw.topRight() + QPointF(-px * 0.5, 0),
                                sw.bottomRight() + QPointF(-px * 0.5, 0),
                            ]
                        )
                    )
            else:
                painter.setPen(QPen(c, 1.5))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawEllipse(sw.center(), px * 0.5, px * 0.5)
            painter.setPen(QColor("#111111"))
            painter.drawText(
                QRectF(sw.right() + px * 0.5, y - px * 0.3, col_w - sw.width(), px * 1.6),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                text,
            )
            x += col_w
        note = f"Ground scale 1 cm = {s.info.ground_scale:g} m; north at the top of the table"
        if self.overlay is not None and self.overlay.message:
            note += " · command overlay incomplete: " + self.overlay.message.split(";")[0][:140]
        painter.setPen(QColor("#444444"))
        f.setPixelSize(round(px * 0.8))
        painter.setFont(f)
        painter.drawText(
            QRectF(x0, rect.bottom() - px * 1.4, rect.width() - bar_w - 28, px * 1.2),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            note,
        )
        self._scale_bar(painter, QRectF(rect.right() - bar_w, rect.top(), bar_w - 14, rect.height()), px)
        painter.restore()

    def _scale_bar(self, painter: QPainter, rect: QRectF, px: float) -> None:
        """A bar of a round number of table cm at the page's zoom, with the ground distance."""
        from battlestudio.ui.overlays import format_ground, nice_length

        cm = nice_length(rect.width() * 0.8 / self.zoom)
        length = cm * self.zoom
        x0, y0 = rect.right() - length, rect.top() + rect.height() * 0.55
        painter.setPen(QPen(QColor("#202020"), 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(x0, y0, length, px * 0.6))
        for i in range(0, 4, 2):
            painter.fillRect(QRectF(x0 + i * length / 4, y0, length / 4, px * 0.6), QColor("#202020"))
        ground = format_ground(cm * self.battle.scenario.info.ground_scale)
        painter.drawText(
            QRectF(x0, y0 - px * 1.7, length, px * 1.5),
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
            f"{cm:g} cm on the table = {ground}",
        )

    # -- devices -------------------------------------------------------------------------
    def image(self) -> QImage:
        W, H = self.size
        img = QImage(W, H, QImage.Format.Format_ARGB32)
        img.fill(QColor("white"))
        p = QPainter(img)
        try:
            self.paint(p)
        finally:
            p.end()
        return img

    def png_bytes(self) -> bytes:
        buf = QBuffer()
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        self.image().save(buf, "PNG")
        return bytes(buf.data())

    def save(self, path: str | Path) -> Path:
        """Write the page as PNG, SVG or PDF by the suffix of ``path``.

        Raises
        ------
        ValueError
            for another suffix; OSError when the file cannot be written (both name the file).
        """
        out = Path(path)
        fmt = out.suffix.lower().lstrip(".")
        W, H = self.size
        if fmt not in FORMATS:
            raise ValueError(f"{out}: maps export as {', '.join(FORMATS)}, not {out.suffix or 'no suffix'!r}")
        from battlestudio.store.atomic import atomic_write

        if fmt == "png":

            def fill_png(tmp: str) -> None:
                if not self.image().save(tmp, "PNG"):
                    raise OSError(f"{out}: could not write the PNG")

            atomic_write(out, fill_png)
            return out
        if fmt == "svg":
            data = QByteArray()
            buf = QBuffer(data)
            buf.open(QIODevice.OpenModeFlag.WriteOnly)
            gen = QSvgGenerator()
            gen.setOutputDevice(buf)
            gen.setSize(self.view.size())
            gen.setViewBox(QRectF(0, 0, W, H))
            gen.setTitle(self.title)
            gen.setDescription(self.subtitle)
            p = QPainter(gen)
            if not p.isActive():
                raise OSError(f"{out}: could not paint the SVG")
            try:
                self.paint(p)
            finally:
                p.end()

            def fill_svg(tmp: str) -> None:
                with open(tmp, "wb") as f:
                    f.write(bytes(data))

            atomic_write(out, fill_svg)
            return out

        def fill_pdf(tmp: str) -> None:
            writer = QPdfWriter(tmp)
            writer.setResolution(96)
            writer.setPageSize(QPageSize(QSizeF(W * 72 / 96, H * 72 / 96), QPageSize.Unit.Point, "map"))
            writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Point)
            writer.setTitle(self.title)
            p = QPainter(writer)
            if not p.isActive():
                raise OSError(f"{out}: could not write the PDF")
            try:
                self.paint(p)
            finally:
                p.end()
            del writer  # closes the file before it replaces the old one
            if os.path.getsize(tmp) == 0:
                raise OSError(f"{out}: could not write the PDF")

        atomic_write(out, fill_pdf)
        return out


def export_map(
    battle: Battle,
    at: str | int,
    path: str | Path,
    width: int = 1800,
    command_layer: bool = True,
    log: GameLog | None = None,
) -> Path:
    """Write the map of ``battle`` at ``at`` (turn, ``start`` or ``end``; see ``resolve_at``)
    to ``path`` (``.png``, ``.svg`` or ``.pdf``), ``width`` pixels wide (≥ 400).

    Raises
    ------
    ValueError
        for a bad ``at``, width or suffix; OSError when the file cannot be written.
    """
    if not MIN_WIDTH_PX <= width <= MAX_WIDTH_PX:
        raise ValueError(f"--width must be {MIN_WIDTH_PX} to {MAX_WIDTH_PX} pixels, got {width}")
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise ValueError(f"{path}: maps export as {', '.join(FORMATS)}, not {Path(path).suffix or 'no suffix'!r}")
    log = log if log is not None else GameLog.from_battle(battle)
    pos = resolve_at(log, at)
    info = battle.scenario.info
    map_h = width * info.table_height / max(info.table_width, 1.0)
    page = MapPage(battle, pos, (width, round(map_h / (1 - TOP - BOTTOM))), command_layer, log)
    try:
        return page.save(path)
    finally:
        page.close()
