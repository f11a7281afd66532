"""AggregateLayer: one marker per corps (or division) when the map is zoomed out.

At whole-table zoom of a Leipzig-sized battle a brigade is a few pixels across, and a thousand of
them read as confetti. Below ``CORPS_LOD`` screen pixels per table cm this item draws, over the
brigades, one marker per corps; from ``CORPS_LOD`` up to ``DIVISION_LOD`` one per division.
A marker is the outline of the ground the formation's living units stand on (their convex hull,
lightly filled) in its side's colour (``Side.colour``), and at the units' centre the
formation's symbol (a box in the side's colour with its echelon mark, "XXX" corps, "XX"
division). Its name and strength ("VI Corps 19,800": men of its units not eliminated) are a map
label (``Aggregate.text``) placed with the others (``label_requests``; ranked as the formation's commander, so army
> corps > town > division > brigade), taking the place of its commander's own name.

Members are read from the order of battle the view gives (``set_oob``) and the unit and
commander records the scene shows (so a replay's markers follow the cursor); the markers are
worked out in ``ui.aggregates`` (from the scene's unit arrays, or from the records on the items
path), again only for the formations whose units changed and when the zoom asks for markers.
The layer is the map layer ``formations`` (Layers dock); exports draw it at the same zooms,
since they paint the same scene.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
import shapely
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPaintEngine,
    QPen,
    QPixmap,
    QPolygonF,
    QTransform,
)
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlestudio.model.units import Commander, Unit
from battlestudio.ui.aggregates import (
    Aggregate,
    MarkerRows,
    aggregates,
    echelon_at,
    formation_of,
)
from battlestudio.ui.labels import RANKS, Label, LabelRequest
from battlestudio.ui.map_item import Z_COMMANDER, Z_UNIT, blit_picture, viewport_picture
from battlestudio.ui.unit_arrays import ELIMINATED, HIDDEN
from battlestudio.ui.styles import ECHELON_MARKS, contrast_ink

if TYPE_CHECKING:
    from battlestudio.model.oob import OrderOfBattle
    from battlestudio.ui.map_scene import MapScene

LAYER = "formations"
"""The map layer name of the markers (``MapScene.set_layer_visible``)."""

SYMBOL_PX = {"corps": (34.0, 20.0), "division": (28.0, 17.0)}
"""Symbol box (width, height) in screen pixels per echelon."""

MARK_PX = 11.0
"""Height in screen pixels of the echelon mark drawn above a symbol."""

OUTLINE_PX = 1.6
"""Width of a hull's outline in screen pixels."""

HULL_ALPHA = 46
"""Opacity (0–255) of the hull's fill: the brigades stay visible beneath it."""


class AggregateLayer(QGraphicsItem):
    """The formation markers of ``scene`` (see the module text). Covers the scene rectangle,
    is never hit, and draws nothing at ``DIVISION_LOD`` and above."""

    def __init__(self, scene: MapScene) -> None:
        super().__init__()
        self._scene = scene
        self.setZValue((Z_UNIT + Z_COMMANDER) / 2.0)  # over the brigades, under the generals' flags
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, False)
        self._bounds = QRectF()
        self.oob: OrderOfBattle | None = None
        self._oob_revision = 0
        self._key: tuple | None = None
        self._markers: list[Aggregate] = []
        self._members_key: tuple | None = None
        self._members: dict[str, str] = {}
        self._looked_up: set[str] = set()  # unit ids whose formation ``_members`` holds (or none)
        self._cache: dict[str, tuple[tuple, Aggregate | None]] = {}
        self._rows: dict[str, MarkerRows] = {}  # echelon -> markers from the unit arrays
        self._groups_key: tuple | None = None  # what ``_groups`` / ``_group`` were made for
        self._groups: list[str] = []  # formation index -> commander id (sorted)
        self._group = np.zeros(0, np.intp)  # unit row -> formation index, -1 for none
        self._group_of: defaultdict[str, int] = defaultdict(lambda: -1)  # unit id -> formation index
        self._layout = -1  # the unit arrays' layout ``_group`` was made for
        self._labels: dict[str, Label] = {}
        self._requests: dict[int, tuple[Aggregate, LabelRequest]] = {}  # id(marker) -> its name's request
        self._drawn: dict[int, tuple[Aggregate, float, tuple[QPolygonF, QPolygonF | None]]] = {}
        self._image: QImage | None = None  # the markers on screen, drawn for ``_image_key``
        self._image_key: tuple | None = None
        self.revision = 0
        """Grows whenever the markers change (the view re-places labels then)."""
        self.shown = True
        """The ``formations`` layer is on."""

    # -- inputs --------------------------------------------------------------------------
    def set_bounds(self, rect: QRectF) -> None:
        """Cover scene rectangle ``rect``."""
        self.prepareGeometryChange()
        self._bounds = QRectF(rect)

    def set_oob(self, oob: OrderOfBattle | None) -> None:
        """The order of battle whose formations are drawn (changed or edited in place)."""
        self.oob = oob
        self._oob_revision += 1
        self.update()

    def set_shown(self, on: bool) -> None:
        """Show or hide the markers (the ``formations`` layer)."""
        self.shown = on
        self.revision += 1
        self.update()

    # -- markers -------------------------------------------------------------------------
    def echelon(self) -> str | None:
        """The echelon marked at the scene's zoom, or None (layer off or zoomed in)."""
        return echelon_at(self._scene.ctx.px_per_cm) if self.shown else None

    def markers(self, echelon: str | None = None) -> list[Aggregate]:
        """The markers at the scene's zoom (or of ``echelon``), worked out again only when the
        units, commanders, order of battle or shown sides changed."""
        echelon = echelon or self.echelon()
        if echelon is None:
            return []
        scene = self._scene
        revs = scene.kind_revision
        hidden = frozenset(n.split(":", 1)[1] for n in scene.hidden_layers if n.startswith("units:"))
        key = (echelon, revs["units"], revs["commanders"], self._oob_revision, hidden)
        if key != self._key:
            self._key = key
            units: Mapping[str, Unit] = scene.records("units")  # type: ignore[assignment]  # records of unit items
            commanders: Mapping[str, Commander] = scene.records("commanders")  # type: ignore[assignment]
            # who belongs to whom changes with the order of battle and the set of units, not as
            # units move: a replay step recomputes only the formations whose units changed
            # (each unit's formation is looked up once: a unit arriving or leaving adds or drops
            # one id, ``aggregates`` skips those not among ``units``)
            echelons = frozenset((cid, c.echelon) for cid, c in commanders.items())
            members_key = (echelon, self._oob_revision, echelons)
            if members_key != self._members_key or self.oob is None:
                self._members_key = members_key
                self._members, self._looked_up = {}, set()
                self._cache = {}
            new = [uid for uid in units if uid not in self._looked_up]
            if new and self.oob is not None:
                self._looked_up.update(new)
                self._members.update(formation_of({uid: units[uid] for uid in new}, commanders, self.oob, echelon))
            t = scene.table_rect()
            table = (t.left(), t.top(), t.right(), t.bottom())
            if scene.arrays_on:
                markers = self._from_rows(echelon, commanders, table)
            else:
                markers = aggregates(units, commanders, self.oob, echelon, hidden, table, self._members, self._cache)
            if markers != self._markers:  # a step that moved no formation keeps the labels
                self._markers = markers
                self.revision += 1
        return self._markers

    def _from_rows(self, echelon: str, commanders: Mapping[str, Commander], table: tuple) -> list[Aggregate]:
        """The markers from the scene's unit arrays (``MarkerRows``): rows of eliminated units
        and of hidden sides count for none."""
        a = self._scene.unit_arrays
        members_key = (self._members_key, len(self._members))
        if members_key != self._groups_key:  # who belongs to whom: unit id -> formation index
            self._groups_key = members_key
            self._groups = sorted(set(self._members.values()))
            index = {cid: i for i, cid in enumerate(self._groups)}
            self._group_of = defaultdict(lambda: -1, {uid: index[cid] for uid, cid in self._members.items()})
            self._layout = -1
        if a.layout != self._layout:  # rows added or removed (a far jump over arrivals)
            self._layout = a.layout
            self._group = np.fromiter(map(self._group_of.__getitem__, a.ids), np.intp, len(a.ids))
        rows = self._rows.get(echelon)
        if rows is None:
            rows = self._rows[echelon] = MarkerRows(echelon)
        heads = [commanders.get(cid) for cid in self._groups]
        counted = (a.flags & (ELIMINATED | HIDDEN)) == 0
        return rows.markers(heads, self._group, counted, a.centre, a.corners(), a.men, a.guns, a.arm, table)

    def label_requests(self, lod: float, view: QRectF | None = None) -> tuple[list[LabelRequest], set[str]]:
        """The names and strengths of the markers at zoom ``lod`` (in scene rectangle ``view``),
        and the ids of the commanders whose own name they replace."""
        echelon = echelon_at(lod) if self.shown else None
        if echelon is None or not self._scene.ctx.labels_visible:
            return [], set()
        out: list[LabelRequest] = []
        named: set[str] = set()
        rank = RANKS[echelon]
        w, h = SYMBOL_PX[echelon]
        kept, self._requests = self._requests, {}
        for m in self.markers(echelon):
            named.add(m.id)
            got = kept.get(id(m))
            if got is not None and got[0] is m:  # the same marker: the same request
                self._requests[id(m)] = got
                if view is None or view.contains(got[1].anchor):
                    out.append(got[1])
                continue
            at = QPointF(*m.centre)
            text = m.text
            label = self._labels.get(text)
            if label is None:
                if len(self._labels) > 2000:
                    self._labels.clear()
                label = self._labels[text] = Label(text, self._scene.ctx, bold=echelon == "corps")
            lw, lh = label.width_px, label.height_px
            below = h / 2.0 + 2.0 + lh / 2.0
            above = h / 2.0 + MARK_PX + 2.0 + lh / 2.0
            side = w / 2.0 + 3.0 + lw / 2.0
            corner = lw / 2.0 - w / 2.0
            shifts = (
                (0.0, below),
                (0.0, -above),
                (side, 0.0),
                (-side, 0.0),
                (corner, below),
                (-corner, below),
                (corner, -above),
                (-corner, -above),
            )
            req = LabelRequest(label, at, False, 0.0, 1, rank, shifts=shifts)
            self._requests[id(m)] = (m, req)
            if view is None or view.contains(at):
                out.append(req)
        return out, named

    # -- QGraphicsItem -------------------------------------------------------------------
    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._bounds

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        """On screen the markers are drawn once into a picture of the viewport and blitted
        until they, the zoom, the scroll or the colours change; exports draw vectors."""
        markers = self.markers()
        if not markers:
            return
        world = painter.worldTransform()
        if widget is None or painter.paintEngine().type() != QPaintEngine.Type.Raster or world.isRotating():
            self.draw_markers(painter, markers)
            return
        device = painter.device()
        w, h = device.width(), device.height()
        if w <= 0 or h <= 0:
            return
        ratio = device.devicePixelRatioF()
        colours = tuple(sorted(self._scene.ctx.side_colours.items()))
        key = (world.m11(), world.m22(), world.dx(), world.dy(), w, h, ratio, self.revision, colours)
        if key != self._image_key or self._image is None:
            self._image_key = key
            self._image = viewport_picture(
                painter, world, w, h, ratio, lambda p: self.draw_markers(p, markers, quick=True)
            )
        blit_picture(painter, self._image, world, option.exposedRect, w, h, ratio)

    def _polygons(self, markers: list[Aggregate], world: QTransform | None) -> list[tuple[QPolygonF, QPolygonF | None]]:
        """Each marker's hull as a polygon and, under ``world`` (the picture on screen), its
        inner ring (``_inner_rings``), kept per marker object and zoom."""
        scale = abs(world.m11()) if world is not None else 0.0
        kept = self._drawn
        out: list[tuple[QPolygonF, QPolygonF | None] | None] = []
        todo: list[int] = []
        for i, m in enumerate(markers):
            got = kept.get(id(m))
            if got is not None and got[0] is m and got[1] == scale:
                out.append(got[2])
            else:
                out.append(None)
                todo.append(i)
        if todo:
            made = [markers[i] for i in todo]
            rings = _inner_rings(made, OUTLINE_PX - 1.0, world) if world is not None else [None] * len(made)
            for i, m, ring in zip(todo, made, rings, strict=True):
                out[i] = (QPolygonF([QPointF(x, y) for x, y in m.hull]), ring)
        self._drawn = {id(m): (m, scale, got) for m, got in zip(markers, out, strict=True)}  # type: ignore[misc]
        return out  # type: ignore[return-value]

    def draw_markers(self, painter: QPainter, markers: list[Aggregate], quick: bool = False) -> None:
        """Draw ``markers``: hulls in scene coordinates, symbols in device pixels (painter
        in scene coordinates). ``quick`` (the picture on screen): a hull's smooth 1.6 px outline
        is drawn as two 1 px ones 0.6 px apart, which Qt strokes eight times faster. Each
        marker's polygons are kept while the marker and the zoom are the same (a replay step
        makes new markers only for the formations it moved)."""
        colours = self._scene.ctx.side_colours
        smooth = painter.testRenderHint(QPainter.RenderHint.Antialiasing)
        polygons = self._polygons(markers, painter.worldTransform() if quick and smooth else None)
        looks: dict[str, tuple[QColor, QPen, QPen]] = {}
        aa = QPainter.RenderHint.Antialiasing
        for m, (hull, ring) in zip(markers, polygons, strict=True):
            look = looks.get(m.side)
            if look is None:
                c = QColor(colours.get(m.side, "#808080"))
                fill = QColor(c)
                fill.setAlpha(HULL_ALPHA)
                wide, thin = QPen(c.darker(140), OUTLINE_PX), QPen(c.darker(140), 1.0)
                wide.setCosmetic(True)
                thin.setCosmetic(True)
                look = looks[m.side] = (fill, wide, thin)
            fill, wide, thin = look
            # the fill's edge lies under the outline: filled without antialiasing (a large
            # translucent area costs twenty times less), the outline smooth
            painter.setRenderHint(aa, False)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(fill)
            painter.drawPolygon(hull)
            painter.setRenderHint(aa, smooth)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            if ring is None:
                painter.setPen(wide)
                painter.drawPolygon(hull)
            else:
                painter.setPen(thin)
                painter.drawPolygon(hull)
                painter.drawPolygon(ring)
        t = painter.worldTransform()
        painter.save()
        painter.resetTransform()
        font = QFont(self._scene.ctx.bold)
        font.setPixelSize(9)
        painter.setFont(font)
        ratio = painter.device().devicePixelRatioF() if quick else 1.0
        for m in markers:
            w, h = SYMBOL_PX[m.echelon]
            p = t.map(QPointF(*m.centre))
            c = QColor(colours.get(m.side, "#808080"))
            if quick:  # one picture per colour, echelon and arm, placed on whole pixels
                pixmap, (ox, oy) = _symbol_picture(c, m.echelon, m.arm, font, ratio)
                painter.drawPixmap(QPointF(round(p.x() - w / 2.0) - ox, round(p.y() - h / 2.0) - oy), pixmap)
                continue
            box = QRectF(p.x() - w / 2.0, p.y() - h / 2.0, w, h)
            draw_symbol(painter, box, c, m.echelon, m.arm)
        painter.restore()


QUICK_FROM_PX = 120.0
"""Hulls at least this wide or high on screen get the two 1 px outlines (``draw_markers``);
smaller ones are stroked at once (the second outline would cost more than it saves)."""


def _span(hull: tuple[tuple[float, float], ...]) -> float:
    xs = [x for x, _ in hull]
    ys = [y for _, y in hull]
    return max(max(xs) - min(xs), max(ys) - min(ys))


def _inner_rings(markers: list[Aggregate], px: float, world: QTransform) -> list[QPolygonF | None]:
    """Each marker's hull shrunk by ``px`` screen pixels under ``world`` (a scale and a shift),
    in scene cm; None where it is under ``QUICK_FROM_PX``, has too few corners or vanishes."""
    scale = max(abs(world.m11()), 1e-9)
    out: list[QPolygonF | None] = [None] * len(markers)
    rings = [i for i, m in enumerate(markers) if len(m.hull) >= 3 and _span(m.hull) * scale >= QUICK_FROM_PX]
    if not rings:
        return out
    coords = np.array([xy for i in rings for xy in markers[i].hull])
    which = np.repeat(np.arange(len(rings)), [len(markers[i].hull) for i in rings])
    polys = shapely.polygons(shapely.linearrings(coords, indices=which))
    shrunk = shapely.buffer(polys, -px / scale, join_style="mitre")
    good = np.flatnonzero(shapely.get_type_id(shrunk) == shapely.GeometryType.POLYGON)
    good = good[~shapely.is_empty(shrunk[good])]
    xy, at = shapely.get_coordinates(shapely.get_exterior_ring(shrunk[good]), return_index=True)
    bounds = np.searchsorted(at, np.arange(len(good) + 1))
    flat = xy.tolist()
    for k, g in enumerate(good.tolist()):
        out[rings[g]] = QPolygonF([QPointF(x, y) for x, y in flat[bounds[k] : bounds[k + 1] - 1]])
    return out


_SYMBOLS: dict[tuple, tuple[QPixmap, tuple[float, float]]] = {}


def _symbol_picture(
    colour: QColor, echelon: str, arm: str, font: QFont, ratio: float
) -> tuple[QPixmap, tuple[float, float]]:
    """``draw_symbol`` of a box at the origin as a picture, and where that box's top left
    corner lies in it (pixels)."""
    key = (colour.rgba(), echelon, arm, font.key(), ratio)
    got = _SYMBOLS.get(key)
    if got is None:
        if len(_SYMBOLS) > 256:
            _SYMBOLS.clear()
        w, h = SYMBOL_PX[echelon]
        metrics = QFontMetricsF(font)
        mw = metrics.horizontalAdvance(ECHELON_MARKS.get(echelon, "")) + 4.0
        ox = max(w, mw) / 2.0 - w / 2.0 + 3.0
        oy = metrics.height() + 3.0  # the mark sits its height + 1 px above the box
        pixmap = QPixmap(round((w + 2 * ox) * ratio), round((h + oy + 3.0) * ratio))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        p = QPainter(pixmap)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            p.setFont(font)
            draw_symbol(p, QRectF(ox, oy, w, h), colour, echelon, arm)
        finally:
            p.end()
        got = _SYMBOLS[key] = (pixmap, (ox, oy))
    return got


HALO_PEN = QPen(QColor(255, 255, 250), 3.0)
FRAME_PEN = QPen(QColor("#202020"), 1.2)


def draw_symbol(painter: QPainter, box: QRectF, colour: QColor, echelon: str, arm: str = "infantry") -> None:
    """A formation's symbol filling ``box`` (painter in device pixels): a frame in ``colour``
    with the glyph of its main ``arm`` (infantry both diagonals, cavalry one, artillery a dot,
    as the units' own) and its ``echelon``'s mark above it (``ECHELON_MARKS``), on a halo."""
    painter.setPen(HALO_PEN)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(box)
    painter.setPen(FRAME_PEN)
    painter.setBrush(colour)
    painter.drawRect(box)
    ink = contrast_ink(colour)
    painter.setPen(QPen(ink, 1.2))
    if arm == "infantry":
        painter.drawLine(box.topLeft(), box.bottomRight())
        painter.drawLine(box.bottomLeft(), box.topRight())
    elif arm == "cavalry":
        painter.drawLine(box.bottomLeft(), box.topRight())
    elif arm == "artillery":
        painter.setBrush(ink)
        painter.drawEllipse(box.center(), box.height() * 0.18, box.height() * 0.18)
    mark = ECHELON_MARKS.get(echelon, "")
    if mark:
        metrics = painter.fontMetrics()
        mw, mh = metrics.horizontalAdvance(mark) + 4.0, metrics.height()
        top = QRectF(box.center().x() - mw / 2.0, box.top() - mh - 1.0, mw, min(mh, MARK_PX))
        painter.fillRect(top, QColor(255, 255, 250, 200))
        painter.setPen(QColor("#202020"))
        painter.drawText(top, Qt.AlignmentFlag.AlignCenter, mark)
