"""The one map renderer of every picture of a battle: the window's File ▸ Export Map Image,
``battlestudio export-map``, ``replay --png`` and the report's snapshots.

A page is a title band (battle, date, place, turn, game time, side and phase; a north arrow),
the map, and a legend band (what is drawn, ground scale, scale bar; the paper scale when the
page is printed at one). The map is a ``MapView`` of the battle at a log position rendered
offscreen into the map area, so its labels (placed with the screen's rules) are on the page.
Sizes are in *page pixels* of 1/96 inch: PNG pages are rasterised at a chosen DPI (the same
picture, finer), SVG and PDF pages are vector (item caches are turned off for them, so units,
terrain and overlay are paths and text is text). ``PageSpec`` chooses paper (A4, A3, letter or a
picture ``width_px`` wide), orientation, scale ("1:N on the table": 1 cm of paper is N cm of
table) or fitted, the region (table cm) and the layers.

The table's top edge is taken as north (the bundled scenarios are drawn north up; a scenario
records no orientation).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QByteArray, QBuffer, QIODevice, QMarginsF, QPointF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
    QPolygonF,
)
from PySide6.QtSvg import QSvgGenerator

from battlestudio.analysis.common import turn_end_positions
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.ui.map_legend import legend_entries, swatch

FORMATS = ("png", "svg", "pdf")

MIN_WIDTH_PX, MAX_WIDTH_PX = 400, 10_000
"""Page widths ``export_map`` accepts (page pixels); 100,000 px needed 21 GB of memory."""

MIN_PAGE_PX = 200
"""The narrowest picture ``PageSpec`` makes (``replay --png`` allows 200 px)."""

PAGE_DPI = 96.0
"""Page pixels per inch: the unit of every page size and of the map's label and line sizes."""

PAPERS: dict[str, tuple[float, float, QPageSize.PageSizeId]] = {
    "a4": (210.0, 297.0, QPageSize.PageSizeId.A4),
    "a3": (297.0, 420.0, QPageSize.PageSizeId.A3),
    "letter": (215.9, 279.4, QPageSize.PageSizeId.Letter),
}
"""Paper name → (width mm, height mm, Qt page size), portrait."""

MIN_DPI, MAX_DPI = 48.0, 600.0
MAX_RASTER_PX = 12_000
"""Longest side of a rasterised page (an A3 page at 600 dpi is 9,921 px)."""

EDGE_PX = 36.0
"""Page pixels kept free around the region inside the map area (flags and labels of troops
standing at its edge)."""

Region = tuple[float, float, float, float]
"""(x0, y0, x1, y1) in table cm, origin bottom-left, y up."""


@dataclass(frozen=True)
class PageSpec:
    """What a map page shows and how large it is.

    Attributes
    ----------
    width_px : int
        page width in page pixels when ``paper`` is None (the height follows the region).
    paper : str | None
        ``"a4"``, ``"a3"`` or ``"letter"``; None for a picture ``width_px`` wide.
    landscape : bool | None
        paper orientation; None picks the one that shows the region larger.
    scale : float | None
        N of "1:N on the table" (1 cm of paper is N cm of table) on paper; None fits the region.
    dpi : float
        PNG resolution (48–600); SVG and PDF are vector.
    region : Region | None
        the part of the table (cm) to show; None for the whole table.
    command_layer : bool
        draw the command overlay.
    hidden_layers : frozenset[str]
        map layers to leave out (``MapScene.set_layer_visible`` names, e.g. ``"grid"``).
    reach_for : frozenset[str]
        ids whose command reach is drawn (the selection); reaches are off otherwise.
    """

    width_px: int = 1800
    paper: str | None = None
    landscape: bool | None = None
    scale: float | None = None
    dpi: float = PAGE_DPI
    region: Region | None = None
    command_layer: bool = True
    hidden_layers: frozenset[str] = field(default_factory=frozenset)
    reach_for: frozenset[str] = field(default_factory=frozenset)

    def check(self) -> None:
        """Raise ``ValueError`` naming the option and value that cannot make a page."""
        if self.paper is None:
            if not MIN_PAGE_PX <= self.width_px <= MAX_WIDTH_PX:
                raise ValueError(f"--width must be {MIN_PAGE_PX} to {MAX_WIDTH_PX} pixels, got {self.width_px}")
            if self.scale is not None:
                raise ValueError(f"--scale 1:{self.scale:g} needs a paper size (--paper a4, a3 or letter)")
        elif self.paper not in PAPERS:
            raise ValueError(f"--paper {self.paper!r}: choose one of {', '.join(PAPERS)}")
        if self.scale is not None and not 0.1 <= self.scale <= 10_000:
            raise ValueError(f"--scale 1:{self.scale:g}: give N of 1:N between 0.1 and 10000")
        if not MIN_DPI <= self.dpi <= MAX_DPI:
            raise ValueError(f"--dpi must be {MIN_DPI:g} to {MAX_DPI:g}, got {self.dpi:g}")
        if self.region is not None:
            x0, y0, x1, y1 = self.region
            if not (x1 > x0 and y1 > y0) or not all(math.isfinite(v) for v in self.region):
                raise ValueError(f"region {self.region}: give x0, y0, x1, y1 in table cm with x1 > x0 and y1 > y0")


@dataclass(frozen=True)
class PageLayout:
    """Where things go on a page (page pixels): its size, the bands, the map area and the map's
    zoom (page pixels per table cm)."""

    width: float
    height: float
    title_h: float
    legend_h: float
    zoom: float
    region: Region
    landscape: bool

    @property
    def map_rect(self) -> QRectF:
        return QRectF(0.0, self.title_h, self.width, self.height - self.title_h - self.legend_h)

    @property
    def paper_scale(self) -> float:
        """N of 1:N: table cm per paper cm."""
        return (PAGE_DPI / 2.54) / self.zoom


def _bands(width: float) -> tuple[float, float]:
    """(title, legend) band heights for a page ``width`` page pixels wide."""
    return max(46.0, round(width * 0.045)), max(84.0, round(width * 0.07))


def legend_px(width: float) -> float:
    """Legend text height (page pixels) on a page ``width`` page pixels wide."""
    return max(11.0, min(_bands(width)[1] * 0.15, width / 110))


def legend_height(entries: list[tuple[str, str, str]], width: float) -> float:
    """Height (page pixels) the legend band needs to list every one of ``entries`` (flowed in
    rows beside the scale bar, as ``MapPage`` paints them) with the ground-scale note below."""
    px = legend_px(width)
    f = QFont()
    f.setPixelSize(round(px))
    fm = QFontMetricsF(f)
    x0 = 14.0
    right = width - max(width * 0.24, 260.0) - 10
    x, rows = x0, 1
    for _kind, _colour, text in entries:
        col_w = px * 2.4 + fm.horizontalAdvance(text) + px * 1.2
        if x + col_w > right and x > x0:
            x, rows = x0, rows + 1
        x += col_w
    return px * 0.5 + rows * px * 1.55 + px * 1.6


def page_layout(spec: PageSpec, table: tuple[float, float], legend_h: float = 0.0) -> PageLayout:
    """Lay out the page of ``spec`` for a table of ``table`` (width, height) cm, with a legend
    band of at least ``legend_h`` page pixels.

    Raises
    ------
    ValueError
        for a bad spec, or a region that does not fit the paper at the chosen scale (naming the
        largest scale that fits).
    """
    spec.check()
    tw, th = table
    region = spec.region or (0.0, 0.0, tw, th)
    rw, rh = region[2] - region[0], region[3] - region[1]
    if spec.paper is None:
        W = float(spec.width_px)
        title, legend = _bands(W)
        legend = max(legend, math.ceil(legend_h))
        zoom = (W - 2 * EDGE_PX) / rw
        H = round(title + legend + rh * zoom + 2 * EDGE_PX)
        return PageLayout(W, float(H), title, legend, zoom, region, W >= H)
    pw, ph, _id = PAPERS[spec.paper]

    def fit(landscape: bool) -> tuple[float, float, float, float, float]:
        w_mm, h_mm = (ph, pw) if landscape else (pw, ph)
        W, H = math.floor(w_mm * PAGE_DPI / 25.4), math.floor(h_mm * PAGE_DPI / 25.4)
        title, legend = _bands(W)
        legend = max(legend, math.ceil(legend_h))
        z = min((W - 2 * EDGE_PX) / rw, (H - title - legend - 2 * EDGE_PX) / rh)
        return W, H, title, legend, z

    options = [spec.landscape] if spec.landscape is not None else [True, False]
    best = max(options, key=lambda o: fit(o)[4])
    W, H, title, legend, fitted = fit(best)
    zoom = fitted
    if spec.scale is not None:
        zoom = (PAGE_DPI / 2.54) / spec.scale
        if zoom > fitted * 1.0001:
            need = math.ceil((PAGE_DPI / 2.54) / fitted)
            orient = "landscape" if best else "portrait"
            raise ValueError(
                f"1:{spec.scale:g} on the table: {rw:g} × {rh:g} cm of table need "
                f"{rw / spec.scale:.1f} × {rh / spec.scale:.1f} cm of paper, more than {spec.paper.upper()} "
                f"{orient} holds; choose 1:{need} or smaller (a larger N), a larger paper or a smaller region"
            )
    return PageLayout(float(W), float(H), title, legend, zoom, region, best)


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


def set_vector(scene, on: bool) -> None:
    """Turn the item caches of ``scene`` off (``on``) so a vector device gets paths and text,
    not the items' cached pixmaps; back on with ``on`` False."""
    from PySide6.QtWidgets import QGraphicsItem

    for item in scene.items():
        if on:
            mode = item.cacheMode()
            if mode != QGraphicsItem.CacheMode.NoCache:
                item.setData(0x4D45, int(mode.value))
                item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
        else:
            old = item.data(0x4D45)
            if old is not None:
                item.setCacheMode(QGraphicsItem.CacheMode(old))
                item.setData(0x4D45, None)


class MapPage:
    """An offscreen map of ``battle`` at log position ``pos``, laid out as a page.

    Parameters
    ----------
    battle : Battle
    pos : int
        log position (events applied).
    spec : PageSpec | tuple[int, int]
        the page; a (width, height) pair is a picture ``width`` pixels wide (the height follows
        the table).
    command_layer : bool
        with a size pair: draw the command overlay.
    log : GameLog | None
        the battle's log when the caller has one.

    Raises
    ------
    ValueError
        for a spec that cannot make a page (``page_layout``).
    """

    def __init__(
        self,
        battle: Battle,
        pos: int,
        spec: PageSpec | tuple[int, int] = PageSpec(),
        command_layer: bool = True,
        log: GameLog | None = None,
    ) -> None:
        if not isinstance(spec, PageSpec):
            spec = PageSpec(width_px=int(spec[0]), command_layer=command_layer)
        ensure_app()
        from PySide6.QtWidgets import QApplication

        from battlestudio.document import Document
        from battlestudio.ui.command_overlay import CommandOverlay
        from battlestudio.ui.coords import table_rect_to_scene
        from battlestudio.ui.map_view import MapView

        s = battle.scenario
        self.battle = battle
        self.spec = spec
        self.layout = lay = page_layout(spec, (s.info.table_width, s.info.table_height))
        self.log = log if log is not None else GameLog.from_battle(battle)
        self.pos = pos
        self.size = (round(lay.width), round(lay.height))
        self.state = state = self.log.state_at(pos)
        self.view = view = MapView(Document(Battle(s, [])))
        view.scale_bar_visible = False
        view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.setFrameShape(view.Shape.NoFrame)
        view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
        area = lay.map_rect
        view.resize(round(area.width()), round(area.height()))
        view.show()
        QApplication.processEvents()
        for name in spec.hidden_layers:
            view.set_layer_visible(name, False)
        view.show_state(
            {k: v for k, v in state.units.items() if k not in state.off_table},
            {k: v for k, v in state.commanders.items() if k not in state.off_table},
        )
        self.overlay = None
        if spec.command_layer and "command" not in spec.hidden_layers:
            self.overlay = CommandOverlay(view.map_scene)
            self.overlay.set_rules(s.info.ruleset, s.info.parameters)
            self.overlay.set_reach_ids(spec.reach_for)
            self.overlay.show_state(state)
        tw, th = s.info.table_width, s.info.table_height
        view.setSceneRect(table_rect_to_scene(-tw, -th, 2 * tw, 2 * th))
        self._frame()
        need = legend_height(self.legend_entries(), lay.width)
        if need > lay.legend_h + 0.5:  # every entry listed: a taller band (a smaller map on paper)
            self.layout = page_layout(spec, (tw, th), need)
            self.size = (round(self.layout.width), round(self.layout.height))
            self._frame()
        self.title, self.subtitle = page_title(battle, self.log, pos)

    def _frame(self) -> None:
        """Size the view to the map area and show the region at the layout's zoom."""
        from PySide6.QtWidgets import QApplication

        from battlestudio.ui.coords import table_rect_to_scene

        lay, view = self.layout, self.view
        area = lay.map_rect
        view.resize(round(area.width()), round(area.height()))
        QApplication.processEvents()
        x0, y0, x1, y1 = lay.region
        z = lay.zoom
        view.setTransform(view.transform().fromScale(z, z))
        view.centerOn(table_rect_to_scene(x0, y0, x1, y1).center())
        view.refresh_zoom()
        QApplication.processEvents()

    def close(self) -> None:
        self.view.close()
        self.view.deleteLater()

    # -- painting ------------------------------------------------------------------------
    def paint(self, painter: QPainter) -> None:
        """Paint the page at (0, 0)–size on ``painter`` (page pixels)."""
        lay = self.layout
        W, H = lay.width, lay.height
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        paper = QColor(255, 255, 250)
        painter.fillRect(QRectF(0, 0, W, H), paper)
        area = lay.map_rect
        painter.save()
        painter.setClipRect(area)
        self.view.render(painter, area, self.view.viewport().rect())
        painter.restore()
        painter.setPen(QPen(QColor("#404040"), 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(area.adjusted(0.5, 0.5, -0.5, -0.5))
        band = lay.title_h
        f = QFont()
        f.setPixelSize(max(14, round(band * 0.4)))
        f.setBold(True)
        painter.setFont(f)
        painter.setPen(QColor("#111111"))
        left = 12.0
        arrow_room = band * 1.6
        painter.drawText(
            QRectF(left, 2, W - left - arrow_room, band * 0.56),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            self.title,
        )
        f.setBold(False)
        f.setPixelSize(max(11, round(band * 0.26)))
        painter.setFont(f)
        painter.drawText(
            QRectF(left, band * 0.54, W - left - arrow_room, band * 0.42),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            self.subtitle,
        )
        self._north_arrow(painter, QPointF(W - band * 0.55, band * 0.5), band * 0.4)
        self._legend(painter, QRectF(0, H - lay.legend_h, W, lay.legend_h))

    def _north_arrow(self, painter: QPainter, c: QPointF, r: float) -> None:
        painter.save()
        painter.setPen(QPen(QColor("#111111"), 1.2))
        painter.setBrush(QColor("#111111"))
        tip, right, left, notch = (
            QPointF(c.x(), c.y() - r),
            QPointF(c.x() + r * 0.45, c.y() + r * 0.7),
            QPointF(c.x() - r * 0.45, c.y() + r * 0.7),
            QPointF(c.x(), c.y() + r * 0.35),
        )
        painter.drawPolygon(QPolygonF([tip, right, notch]))
        painter.setBrush(QColor("white"))
        painter.drawPolygon(QPolygonF([tip, left, notch]))
        f = QFont()
        f.setPixelSize(max(10, round(r * 0.7)))
        f.setBold(True)
        painter.setFont(f)
        painter.drawText(QRectF(c.x() - r * 1.7, c.y() - r * 0.6, r, r), Qt.AlignmentFlag.AlignCenter, "N")
        painter.restore()

    def legend_entries(self) -> list[tuple[str, str, str]]:
        """(swatch kind, colour, text) of everything drawn on this page, in legend order."""
        return legend_entries(self.view.map_scene, self.state, self.battle.scenario, self.overlay)

    def _legend(self, painter: QPainter, rect: QRectF) -> None:
        s = self.battle.scenario
        painter.save()
        painter.fillRect(rect, QColor(255, 255, 250))
        px = legend_px(rect.width())
        f = QFont()
        f.setPixelSize(round(px))
        painter.setFont(f)
        fm = painter.fontMetrics()
        bar_w = max(rect.width() * 0.24, 260.0)
        x0, y = rect.left() + 14, rect.top() + px * 0.5
        x = x0
        right = rect.right() - bar_w - 10
        for kind, colour, text in self.legend_entries():
            col_w = px * 2.4 + fm.horizontalAdvance(text) + px * 1.2
            if x + col_w > right and x > x0:
                x, y = x0, y + px * 1.55
            swatch(painter, kind, QColor(colour), QRectF(x, y, px * 1.8, px), px)
            painter.setPen(QColor("#111111"))
            painter.drawText(
                QRectF(x + px * 2.3, y - px * 0.3, col_w - px * 2.3, px * 1.6),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                text,
            )
            x += col_w
        note = f"Ground scale 1 cm on the table = {s.info.ground_scale:g} m; north at the top of the table"
        if self.overlay is not None and self.overlay.message:
            note += " · command overlay incomplete: " + self.overlay.message.split(";")[0][:140]
        painter.setPen(QColor("#444444"))
        f.setPixelSize(round(px * 0.82))
        painter.setFont(f)
        painter.drawText(
            QRectF(x0, rect.bottom() - px * 1.35, right - x0, px * 1.2),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            note,
        )
        f.setPixelSize(round(px))
        painter.setFont(f)
        self._scale_bar(painter, QRectF(rect.right() - bar_w, rect.top(), bar_w - 14, rect.height()), px)
        painter.restore()

    def scale_text(self) -> tuple[float, str, str]:
        """(bar length in table cm, bar label, paper scale line) of the page's scale bar."""
        from battlestudio.ui.overlays import format_ground, nice_length

        lay = self.layout
        bar_w = max(lay.width * 0.24, 260.0) - 14
        cm = nice_length(bar_w * 0.6 / lay.zoom)
        ground = format_ground(cm * self.battle.scenario.info.ground_scale)
        paper = ""
        if self.spec.paper is not None:
            paper = f"1:{lay.paper_scale:.3g} on the table ({self.spec.paper.upper()})"
        return cm, f"{cm:g} cm on the table = {ground}", paper

    def _scale_bar(self, painter: QPainter, rect: QRectF, px: float) -> None:
        """A bar of a round number of table cm, its label (fully inside ``rect``) and the paper
        scale when the page has one."""
        cm, label, paper = self.scale_text()
        length = cm * self.layout.zoom
        fm = painter.fontMetrics()
        text_w = max(fm.horizontalAdvance(label), fm.horizontalAdvance(paper) if paper else 0.0) + 4
        x1 = rect.right()
        x0 = x1 - length
        y0 = rect.top() + rect.height() * 0.5
        painter.setPen(QPen(QColor("#202020"), 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(x0, y0, length, px * 0.6))
        for i in range(0, 4, 2):
            painter.fillRect(QRectF(x0 + i * length / 4, y0, length / 4, px * 0.6), QColor("#202020"))
        tx0 = min(x0, x1 - text_w)
        painter.drawText(
            QRectF(tx0, y0 - px * 1.6, x1 - tx0, px * 1.45),
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
            label,
        )
        if paper:
            painter.drawText(
                QRectF(tx0, y0 + px * 0.75, x1 - tx0, px * 1.45),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                paper,
            )

    # -- devices -------------------------------------------------------------------------
    def image(self, dpi: float | None = None) -> QImage:
        """The page rasterised at ``dpi`` (default the spec's)."""
        k = (dpi or self.spec.dpi) / PAGE_DPI
        W, H = self.size
        w, h = round(W * k), round(H * k)
        if max(w, h) > MAX_RASTER_PX:
            raise ValueError(f"a {w} × {h} px picture is too large (at most {MAX_RASTER_PX} px a side): lower the DPI")
        img = QImage(w, h, QImage.Format.Format_ARGB32)
        img.setDotsPerMeterX(round((dpi or self.spec.dpi) / 0.0254))
        img.setDotsPerMeterY(round((dpi or self.spec.dpi) / 0.0254))
        img.fill(QColor("white"))
        p = QPainter(img)
        try:
            p.scale(k, k)
            self.paint(p)
        finally:
            p.end()
        return img

    def png_bytes(self) -> bytes:
        buf = QBuffer()
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        self.image().save(buf, "PNG")
        return bytes(buf.data())

    def svg_bytes(self) -> bytes:
        """The page as SVG: paths and text (no raster unless the scenario brings images)."""
        W, H = self.size
        data = QByteArray()
        buf = QBuffer(data)
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        gen = QSvgGenerator()
        gen.setOutputDevice(buf)
        gen.setSize(QSize(W, H))
        gen.setViewBox(QRectF(0, 0, W, H))
        gen.setResolution(round(PAGE_DPI))
        gen.setTitle(self.title)
        gen.setDescription(self.subtitle)
        p = QPainter(gen)
        if not p.isActive():
            raise OSError("could not paint the SVG")
        set_vector(self.view.map_scene, True)
        try:
            self.paint(p)
        finally:
            p.end()
            set_vector(self.view.map_scene, False)
        return bytes(data)

    def write_pdf(self, path: str) -> None:
        """Write the page as a one-page vector PDF of the paper size (or the picture's size)."""
        W, H = self.size
        writer = QPdfWriter(path)
        writer.setResolution(round(PAGE_DPI))
        if self.spec.paper is not None:
            size = QPageSize(PAPERS[self.spec.paper][2])
            orient = QPageLayout.Orientation.Landscape if self.layout.landscape else QPageLayout.Orientation.Portrait
            writer.setPageLayout(QPageLayout(size, orient, QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Point))
        else:
            writer.setPageSize(QPageSize(QSizeF(W * 72 / PAGE_DPI, H * 72 / PAGE_DPI), QPageSize.Unit.Point, "map"))
            writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Point)
        writer.setTitle(self.title)
        p = QPainter(writer)
        if not p.isActive():
            raise OSError(f"{path}: could not write the PDF")
        set_vector(self.view.map_scene, True)
        try:
            self.paint(p)
        finally:
            p.end()
            set_vector(self.view.map_scene, False)
        del writer  # closes the file before it replaces the old one

    def save(self, path: str | Path) -> Path:
        """Write the page as PNG, SVG or PDF by the suffix of ``path``.

        Raises
        ------
        ValueError
            for another suffix; OSError when the file cannot be written (both name the file).
        """
        out = Path(path)
        fmt = out.suffix.lower().lstrip(".")
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
            try:
                data = self.svg_bytes()
            except OSError:
                raise OSError(f"{out}: could not paint the SVG") from None

            def fill_svg(tmp: str) -> None:
                with open(tmp, "wb") as f:
                    f.write(data)

            atomic_write(out, fill_svg)
            return out

        def fill_pdf(tmp: str) -> None:
            self.write_pdf(tmp)
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
    spec: PageSpec | None = None,
) -> Path:
    """Write the map of ``battle`` at ``at`` (turn, ``start`` or ``end``; see ``resolve_at``)
    to ``path`` (``.png``, ``.svg`` or ``.pdf``): a picture ``width`` page pixels wide, or the
    page of ``spec`` when given.

    Raises
    ------
    ValueError
        for a bad ``at``, spec or suffix; OSError when the file cannot be written.
    """
    if spec is None:
        if not MIN_WIDTH_PX <= width <= MAX_WIDTH_PX:
            raise ValueError(f"--width must be {MIN_WIDTH_PX} to {MAX_WIDTH_PX} pixels, got {width}")
        spec = PageSpec(width_px=width, command_layer=command_layer)
    spec.check()
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise ValueError(f"{path}: maps export as {', '.join(FORMATS)}, not {Path(path).suffix or 'no suffix'!r}")
    log = log if log is not None else GameLog.from_battle(battle)
    pos = resolve_at(log, at)
    page = MapPage(battle, pos, spec, log=log)
    try:
        return page.save(path)
    finally:
        page.close()


__all__ = [
    "FORMATS",
    "MapPage",
    "PageLayout",
    "PageSpec",
    "PAPERS",
    "export_map",
    "page_layout",
    "page_title",
    "resolve_at",
]
