"""The graphics items the command overlay draws, and their colours.

Each item holds one piece of the command picture in scene coordinates: a commander's reach
(radius ring or zone bands), the subordinate→commander lines, a standing order's arrow, a chief's
order budget badge, a detached formation's outline, a formation's out-of-command count (the
marks themselves are ``command_marks.MarksLayer``). ``command_overlay``
decides what to show and where; these classes only paint it.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPaintEngine, QImage, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlestudio.analysis.command_picture import EXEMPT, IN, OUT, UNBOUND
from battlestudio.rules import CommandReach
from battlestudio.ui.coords import table_to_scene
from battlestudio.ui.labels import first_free
from battlestudio.ui.styles import cosmetic_pen

LAYER = "command"
"""Name of the overlay's layer in ``MapScene.set_layer_visible`` and the Layers dock."""

Z_REACH, Z_DETACHED, Z_LINKS, Z_MARK, Z_ORDER, Z_BUDGET = 12.0, 13.0, 25.0, 26.0, 27.0, 35.0

LINK_COLOURS = {IN: "#2e8b3a", OUT: "#d0202a", EXEMPT: "#d08a00", UNBOUND: "#8a8a8a"}
"""Line colour per link status."""
OUT_COLOUR = QColor("#d0202a")
DETACHED_COLOUR = QColor("#7a3fb0")
ORDER_COLOURS = {"A": "#b0201a", "T": "#6a4a20", "M": "#1f5fa0", "H": "#2f6f2f", "D": "#7a3fb0", "defence": "#2f6f2f"}
"""Arrow colour per Torden over Europa order type; other types use dark grey."""


def _font(px: float, bold: bool = False) -> QFont:
    f = QFont()
    f.setPixelSize(max(1, round(px)))
    f.setBold(bold)
    return f


def _tag(painter: QPainter, top_centre: QPointF, text: str, colour: QColor, px: float) -> None:
    """A small label ``px`` cm high on a pale box, its top edge centred on ``top_centre``."""
    painter.setFont(_font(px * 10))
    painter.save()
    painter.translate(top_centre)
    painter.scale(0.1, 0.1)  # fonts are whole pixels: draw at 10x and scale down
    fm = painter.fontMetrics()
    w, h = fm.horizontalAdvance(text) + 6, fm.height()
    box = QRectF(-w / 2, 0, w, h)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(255, 255, 250, 200))
    painter.drawRoundedRect(box, 3, 3)
    painter.setPen(colour)
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
    painter.restore()


class ReachItem(QGraphicsEllipseItem):
    """One commander's reach: concentric zone bands or a single radius ring (scene units = cm).

    Its bounds are the ellipse item's own (Qt's ``boundingRect``, no Python call per repaint:
    hundreds of reaches are drawn from their device cache at every frame); only ``paint``, on a
    cache miss, and ``shape``, for tooltips, run in Python.
    """

    def __init__(self, colour: str) -> None:
        super().__init__()
        self.setPen(Qt.PenStyle.NoPen)
        self.setZValue(Z_REACH)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # big translucent discs
        self.colour = QColor(colour)
        self.reach: CommandReach | None = None
        self._outer = 0.0

    def set_reach(self, reach: CommandReach, centre: tuple[float, float], colour: str) -> None:
        if reach == self.reach and colour == self.colour.name():
            self.setPos(table_to_scene(*centre))  # a dragged general: his cached bands just move
            return
        self.reach = reach
        self.colour = QColor(colour)
        self.setPos(table_to_scene(*centre))
        if reach.kind == "zones" and reach.zones:
            last = reach.zones[-1]
            self._outer = (last.outer if last.outer is not None else last.inner + 12.0) + 1.0
        else:
            self._outer = (reach.radius or 0.0) + 1.0
        o = self._outer + 2.0
        self.setRect(-o, -o, 2 * o, 2 * o)  # the bounds: labels and rings with their pens
        self.update()
        self.setToolTip(self._tooltip())

    def _tooltip(self) -> str:
        r = self.reach
        if r is None:
            return ""
        if r.kind == "zones":
            bands = "; ".join(
                f"zone {b.zone}: {b.inner:g}–{b.outer:g} cm"
                if b.outer is not None
                else f"zone {b.zone}: beyond {b.inner:g} cm"
                for b in r.zones
            )
            return f"Command zones ({r.rule}), measured to {r.measured_to}: {bands}"
        return f"Command distance {r.radius:g} cm ({r.rule}), measured to {r.measured_to}"

    def shape(self) -> QPainterPath:
        path = QPainterPath()  # tooltips only near the rings, not over the whole disc
        r = self.reach
        radii = (
            [b.outer for b in r.zones if b.outer is not None]
            if r and r.kind == "zones"
            else [r.radius or 0.0]
            if r
            else []
        )
        for rad in radii:
            path.addEllipse(QPointF(0, 0), rad + 0.6, rad + 0.6)
            path.addEllipse(QPointF(0, 0), max(rad - 0.6, 0.0), max(rad - 0.6, 0.0))
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        r = self.reach
        if r is None:
            return
        c = QColor(self.colour)
        if r.kind == "zones":
            bands = list(r.zones)
            for i, b in enumerate(reversed(bands)):
                outer = b.outer if b.outer is not None else b.inner
                fill = QColor(c)
                fill.setAlpha(18 + 14 * i)
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(fill)
                if b.outer is not None:
                    painter.drawEllipse(QPointF(0, 0), outer, outer)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for b in bands:
                style = Qt.PenStyle.DashLine if b.outer is None else Qt.PenStyle.SolidLine
                rad = b.outer if b.outer is not None else b.inner
                painter.setPen(cosmetic_pen(c, 1.2, style))
                painter.drawEllipse(QPointF(0, 0), rad, rad)
            for b in bands:
                if b.outer is not None:
                    text, y = f"zone {b.zone} ≤ {b.outer:g} cm", -b.outer + 0.4
                else:
                    text, y = f"zone {b.zone} > {b.inner:g} cm", -b.inner - 2.2
                _tag(painter, QPointF(0, y), text, QColor(c).darker(150), 1.5)
        else:
            rad = r.radius or 0.0
            fill = QColor(c)
            fill.setAlpha(22)
            painter.setBrush(fill)
            painter.setPen(cosmetic_pen(c, 1.0, Qt.PenStyle.DashLine))
            painter.drawEllipse(QPointF(0, 0), rad, rad)
            _tag(painter, QPointF(0, -rad + 0.3), f"{rad:g} cm", QColor(c).darker(150), 1.3)


def _same_link(a: tuple[str, QLineF] | None, b: tuple[str, QLineF]) -> bool:
    """Same status and exactly the same ends (``QLineF ==`` is fuzzy)."""
    if a is None or a[0] != b[0]:
        return False
    la, lb = a[1], b[1]
    return (la.x1(), la.y1(), la.x2(), la.y2()) == (lb.x1(), lb.y1(), lb.x2(), lb.y2())


class LinksItem(QGraphicsItem):
    """Every subordinate → commander line in one item, coloured by status.

    Lines are kept by subject id, so a dragged general replaces his few lines
    (``update_links``) instead of all of them (``set_links``).
    """

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_LINKS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._by_subject: dict[str, tuple[str, QLineF]] = {}
        self._by_status: dict[str, dict[str, QLineF]] = {k: {} for k in LINK_COLOURS}
        self._lines: dict[str, list[QLineF]] | None = None
        self._rect = QRectF()

    @property
    def lines(self) -> dict[str, list[QLineF]]:
        """Status → the lines drawn in its colour (scene cm)."""
        if self._lines is None:  # one list per status from its dict: no walk in Python
            self._lines = {k: list(v.values()) for k, v in self._by_status.items()}
        return self._lines

    def links(self) -> dict[str, tuple[str, QLineF]]:
        """Subject id → (status, line) of every line drawn."""
        return dict(self._by_subject)

    def set_links(self, links: dict[str, tuple[str, QLineF]]) -> None:
        """Draw exactly ``links`` (subject id → (status, line in scene cm))."""
        self.prepareGeometryChange()
        self._by_subject = dict(links)
        self._by_status = {k: {} for k in LINK_COLOURS}
        for key, (status, line) in links.items():
            self._by_status[status][key] = line
        self._lines = None
        xs = [v for _, ln in links.values() for v in (ln.x1(), ln.x2())]
        ys = [v for _, ln in links.values() for v in (ln.y1(), ln.y2())]
        self._rect = (
            QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).adjusted(-1, -1, 1, 1) if xs else QRectF()
        )
        self.update()

    def update_links(self, changes: dict[str, tuple[str, QLineF] | None]) -> None:
        """Replace the lines of the subjects in ``changes`` (None: no line any more); the
        bounds only grow until the next ``set_links``."""
        rect = QRectF(self._rect)
        changed = False
        for key, entry in changes.items():
            old = self._by_subject.get(key)
            if entry is None:
                if old is not None:
                    del self._by_subject[key]
                    del self._by_status[old[0]][key]
                    changed = True
                continue
            if _same_link(old, entry):
                continue
            if old is not None:
                del self._by_status[old[0]][key]
            self._by_subject[key] = entry
            self._by_status[entry[0]][key] = entry[1]
            changed = True
            line = entry[1]
            rect = rect.united(QRectF(line.p1(), line.p2()).normalized().adjusted(-1, -1, 1, 1))
        if not changed:
            return
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
        self._lines = None
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        styles = {
            IN: (1.6, Qt.PenStyle.SolidLine),
            OUT: (2.4, Qt.PenStyle.SolidLine),
            EXEMPT: (1.8, Qt.PenStyle.DashLine),
            UNBOUND: (0.8, Qt.PenStyle.DotLine),
        }
        lines = self.lines
        summary = option.levelOfDetailFromTransform(painter.worldTransform()) < SUMMARY_LOD
        for status in (UNBOUND, IN, EXEMPT, OUT):
            if summary and status == OUT:
                continue  # zoomed out: one SummaryItem per formation says it instead
            width, style = styles[status]
            painter.setPen(cosmetic_pen(LINK_COLOURS[status], width, style))
            painter.drawLines(lines.get(status, []))


class OrderItem(QGraphicsItem):
    """A standing order: arrow from the recipient to the objective, labelled with its type."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_ORDER)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # clicks go to the map's tools
        self.setAcceptHoverEvents(True)
        self.a = QPointF()
        self.b = QPointF()
        self.text = ""
        self.pending = False
        self.colour = QColor("#404040")

    def set_order(
        self, start: tuple[float, float], end: tuple[float, float], text: str, pending: bool, colour: str, tip: str
    ) -> None:
        self.prepareGeometryChange()
        self.a, self.b = table_to_scene(*start), table_to_scene(*end)
        self.text, self.pending, self.colour = text, pending, QColor(colour)
        self.setToolTip(tip)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return QRectF(self.a, self.b).normalized().adjusted(-12, -5, 12, 5)

    def shape(self) -> QPainterPath:
        path = QPainterPath(self.a)
        path.lineTo(self.b)
        from PySide6.QtGui import QPainterPathStroker

        stroker = QPainterPathStroker()
        stroker.setWidth(2.0)
        return stroker.createStroke(path)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        line = QLineF(self.a, self.b)
        if line.length() < 1e-6:
            return
        pen = QPen(
            self.colour, 0.5, Qt.PenStyle.DashLine if self.pending else Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap
        )
        painter.setPen(pen)
        painter.drawLine(line)
        ang = math.atan2(-line.dy(), line.dx())
        head = 2.5
        p1 = self.b - QPointF(math.cos(ang - 0.45) * head, -math.sin(ang - 0.45) * head)
        p2 = self.b - QPointF(math.cos(ang + 0.45) * head, -math.sin(ang + 0.45) * head)
        painter.setBrush(self.colour)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawPolygon(QPolygonF([self.b, p1, p2]))
        mid = line.pointAt(0.5)
        painter.setFont(_font(2.4, True))
        fm = painter.fontMetrics()
        w = fm.horizontalAdvance(self.text) + 1.2
        box = QRectF(mid.x() - w / 2, mid.y() - 1.7, w, 3.4)
        painter.setBrush(QColor(255, 255, 250, 225))
        painter.setPen(cosmetic_pen(self.colour, 1.0))
        painter.drawRoundedRect(box, 0.8, 0.8)
        painter.setPen(self.colour)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self.text)


class BudgetItem(QGraphicsItem):
    """A chief's order budget ("OAS 2/3") as a badge to the left of him, in screen
    pixels so it reads at every zoom."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_BUDGET)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # clicks go to the map's tools
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.text = ""

    def set_budget(self, at: tuple[float, float], text: str, tip: str) -> None:
        self.prepareGeometryChange()
        self.setPos(table_to_scene(*at))
        self.text = text
        self.setToolTip(tip)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        w = 10 + 7 * len(self.text)
        return QRectF(-w - 10, -9, w, 18)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        r = self.boundingRect().adjusted(0, 0, -1, -1)
        painter.setBrush(QColor("#fff6d5"))
        painter.setPen(QPen(QColor("#8a6a00"), 1.0))
        painter.drawRoundedRect(r, 4, 4)
        painter.setFont(_font(11, True))
        painter.setPen(QColor("#4a3a00"))
        painter.drawText(r, Qt.AlignmentFlag.AlignCenter, self.text)


SUMMARY_LOD = 3.0
"""Zoom (screen pixels per table cm) below which out-of-command lines, outlines and "!" badges
give way to one "!n" count per formation (``SummaryItem``): at whole-table zoom they covered the
brigades (a 20 cm brigade is under 60 px wide there). Exempt (amber) outlines stay."""


class SummaryItem(QGraphicsItem):
    """A red badge "!n", n out of command in a corps (or the formation a commander heads),
    beside its commander in screen pixels, drawn only below ``SUMMARY_LOD`` (zoomed in, each
    unit's own mark and line say it); the tooltip names them."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_BUDGET)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.text = ""
        self.count = 0
        self.key: tuple = ()
        """What the badge shows (count, position, ids): unchanged, it is not redone."""
        self._rect = QRectF()

    def set_summary(self, at: tuple[float, float], count: int, tip: str) -> None:
        self.prepareGeometryChange()
        self.setPos(table_to_scene(*at))
        self.count = count
        self.text = f"!{count}"
        slots = self.slots()
        self._rect = slots[0].united(slots[1]).united(slots[2]).united(slots[3])
        self.setToolTip(tip)

    def slots(self) -> list[QRectF]:
        """Where the badge may sit, best first (item pixels from its commander): under his
        order budget, a row lower, above the budget, left of it."""
        w = 10 + 7 * len(self.text)
        return [
            QRectF(-w - 6, 10, w, 16),
            QRectF(-w - 6, 28, w, 16),
            QRectF(-w - 6, -28, w, 16),
            QRectF(-2 * w - 40, -8, w, 16),
        ]

    def slot(self) -> QRectF:
        """The first of ``slots`` that no order-budget badge in the scene covers at its zoom
        (a neighbour's budget can stand where this one's row is)."""
        slots = self.slots()
        scene = self.scene()
        ctx = getattr(scene, "ctx", None)
        if ctx is None:
            return slots[0]
        z, me = ctx.px_per_cm, self.scenePos()
        reach = 200.0 / max(z, 1e-6)  # budgets farther than 200 px cannot meet a slot
        taken = []
        for items in getattr(scene, "order_budgets", ()):  # the overlays' budgets only: the scene's
            for b in items():  # other label obstacles include every badge, which made each slot O(n)
                d = b.scenePos() - me
                if isinstance(b, BudgetItem) and b.isVisible() and abs(d.x()) < reach and abs(d.y()) < reach:
                    taken.append(b.boundingRect().translated(d * z))
        return slots[first_free(slots, taken)]

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._rect  # every slot (set_summary)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(self.slot())
        return path

    def shown(self) -> bool:
        """True when the zoom asks for summaries (the scene's ``ctx.px_per_cm``)."""
        scene = self.scene()
        ctx = getattr(scene, "ctx", None)
        return ctx is None or ctx.px_per_cm < SUMMARY_LOD

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.shown():
            self.draw(painter)

    def draw(self, painter: QPainter) -> None:
        """Paint the badge in its free ``slot``, the painter's origin at the commander (pixels)."""
        r = self.slot()
        engine = painter.paintEngine()
        if engine is not None and engine.type() == QPaintEngine.Type.Raster:  # screen, PNG: blit
            ratio = painter.device().devicePixelRatioF()
            painter.drawImage(r.topLeft(), _summary_picture(self.text, round(r.width()), ratio))
        else:  # SVG, PDF: vectors and text
            painter.save()
            painter.translate(r.topLeft())
            _draw_summary(painter, self.text, round(r.width()))
            painter.restore()


_SUMMARY_PICTURES: dict[tuple[str, int, float], QImage] = {}
"""Images, not pixmaps: a module-level cache outlives the application at exit."""


def _draw_summary(p: QPainter, text: str, width: int) -> None:
    """The "!n" badge, ``width`` x 16 pixels from the painter's origin."""
    r = QRectF(0, 0, width - 1, 15)
    p.setBrush(QColor(255, 240, 240, 230))
    p.setPen(QPen(OUT_COLOUR, 1.2))
    p.drawRoundedRect(r, 4, 4)
    p.setFont(_font(10, True))
    p.setPen(OUT_COLOUR.darker(130))
    p.drawText(r, Qt.AlignmentFlag.AlignCenter, text)


def _summary_picture(text: str, width: int, ratio: float) -> QImage:
    """The "!n" badge ``width`` x 16 screen pixels, drawn once per text and pixel ratio: a
    whole table's badges are blitted, not painted one by one."""
    key = (text, width, ratio)
    pix = _SUMMARY_PICTURES.get(key)
    if pix is None:
        pix = QImage(round(width * ratio), round(16 * ratio), QImage.Format.Format_ARGB32_Premultiplied)
        pix.setDevicePixelRatio(ratio)
        pix.fill(Qt.GlobalColor.transparent)
        p = QPainter(pix)
        p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        _draw_summary(p, text, width)
        p.end()
        if len(_SUMMARY_PICTURES) > 512:
            _SUMMARY_PICTURES.clear()
        _SUMMARY_PICTURES[key] = pix
    return pix


class DetachedItem(QGraphicsPathItem):
    """A dashed violet outline around a detached formation, labelled "detached"."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_DETACHED)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # clicks go to the map's tools
        pen = cosmetic_pen(DETACHED_COLOUR, 2.0, Qt.PenStyle.DashDotLine)
        self.setPen(pen)
        fill = QColor(DETACHED_COLOUR)
        fill.setAlpha(28)
        self.setBrush(fill)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        super().paint(painter, option, widget)
        r = self.path().boundingRect()
        painter.setFont(_font(2.6, True))
        painter.setPen(DETACHED_COLOUR)
        painter.drawText(
            QRectF(r.left(), r.top() - 3.4, max(r.width(), 14.0), 3.2), Qt.AlignmentFlag.AlignLeft, "detached"
        )
