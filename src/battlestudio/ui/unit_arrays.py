"""The map's units as numpy arrays, and the scene item that draws them.

``UnitArrays`` holds one row per unit shown: its centre (scene cm) as last synced and as drawn
(a replay glide moves the drawn one), its footprint id (a row of a table of footprint drawings,
``UnitShape``, shared by every unit of the same facing, formation, figures and arm), its colour
id (fill, ink) and state flags. A replay step updates the rows of the ids whose record changed
(``MapScene.reconcile``), in a few vectorised writes; nothing per unit is done in Qt.

``ArrayUnitLayer`` draws every shown unit from those arrays at every zoom: one path per colour
(built from the arrays through ``QDataStream``, not point by point), one for the glyphs per ink,
one for the front edges and one for the strike-outs, with the same pens, order and
level-of-detail rule as ``UnitItem.paint``. On screen it keeps a picture of the viewport and
repaints only the ``TILE_PX`` tiles that changed units touch; exports and printing draw vectors.

Hit testing: the unit items stay in the scene, but a replay step does not sync them; they are
synced when asked for (``MapScene.flush_units``: a click, a hover, a tool, a look-up by id), and
``UnitArrays.rows_in`` finds the rows in a rectangle (a vectorised box test).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QByteArray, QDataStream, QLineF, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QPainterPath, QPaintEngine, QPolygonF, QRegion, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlestudio.ui.aggregates import ARM_INDEX
from battlestudio.ui.map_item import FRONT_PEN, OUTLINE_PEN, SELECTED_PEN, Z_UNIT, blit_picture
from battlestudio.ui.troop_items import STRIKE_PEN, UnitItem, UnitShape, _unit_colours, unit_shape

from battlestudio.model.units import Arm

if TYPE_CHECKING:
    from battlestudio.model.units import Unit

ELIMINATED, DISORDERED, ROUTED, OTHER_STATE, HIDDEN, SELECTED = 1, 2, 4, 8, 16, 32
"""Bits of ``UnitArrays.flags``: state ``eliminated``, ``U`` (disordered), ``FU`` or ``routed``,
any other non-order state; the unit's side layer is hidden; the unit is selected."""

STATE_FLAGS = {"eliminated": ELIMINATED, "U": DISORDERED, "FU": ROUTED, "routed": ROUTED, "": 0, "O": 0}

GLYPH_PX = 5.0
"""A unit's glyph and front edge are drawn when its shorter side is at least this many pixels."""

TILE_PX = 16
"""Side of the screen tiles the layer repaints when units change (device pixels)."""

PAD_PX = 3
"""Pixels around a unit that its outline, front edge or selection may cover."""

MAX_BOXES = 512
"""Above this many changed boxes before a paint the whole picture is redrawn."""

ONE_BY_ONE_LOD = 3.0
"""From this zoom (px per cm; ``unit_layer.BATCH_LOD``, where the item path draws each unit
itself) overlapping units are drawn one by one, so the upper one hides the lower one's glyph."""

MARGIN_CM = 0.3
"""A footprint box's margin (``UnitShape.bounds``): taken off when testing overlaps, so units
that only touch are not counted."""

VALUES_KEPT = 3
"""Above this many records' rows per row kept (``UnitArrays.values_of``, at least 5,000) the
cache starts again (it keeps the records alive)."""

_SHAPE_TABLES = (
    "shape_poly",
    "shape_box",
    "shape_offset",
    "shape_min_side",
    "shape_glyph",
    "shape_nglyph",
    "shape_front",
    "shape_dot",
)

Values = tuple[float, float, int, int, int, int, int, int, int]
"""A row's values (``UnitArrays.values_of``)."""

NVALUES = 9

_ARM_ROWS = {id(arm): ARM_INDEX[arm.value] for arm in Arm}
"""id(an ``Arm`` member) → its row in ``ui.aggregates.ARMS``."""

_ELEM = np.dtype([("c", ">i4"), ("x", ">f8"), ("y", ">f8")])


def polygon_path(points: np.ndarray) -> QPainterPath:
    """A winding-fill path of ``points`` (n, k, 2): n polygons of k points each, as
    ``QPainterPath.addPolygon`` would build it, made in one go through ``QDataStream``."""
    n, k = points.shape[0], points.shape[1]
    return _path(points.reshape(n * k, 2), np.tile(np.r_[0, np.ones(k - 1, np.int32)], n), (n - 1) * k, 1)


def segment_path(segments: np.ndarray) -> QPainterPath:
    """A path of separate line segments ``segments`` (n, 2, 2), to stroke like ``drawLines``."""
    n = segments.shape[0]
    return _path(segments.reshape(n * 2, 2), np.tile(np.array([0, 1], np.int32), n), (n - 1) * 2, 0)


def _path(points: np.ndarray, kinds: np.ndarray, last_start: int, fill_rule: int) -> QPainterPath:
    path = QPainterPath()
    m = points.shape[0]
    if m == 0:
        return path
    buf = np.empty(m, dtype=_ELEM)
    buf["c"] = kinds
    buf["x"] = points[:, 0]
    buf["y"] = points[:, 1]
    data = struct.pack(">i", m) + buf.tobytes() + struct.pack(">ii", last_start, fill_rule)
    QDataStream(QByteArray(data)) >> path
    return path


class UnitArrays:
    """One row per unit of a scene, in the order their items were added (the drawing order).

    Attributes
    ----------
    ids : list[str]
        row → unit id; ``row`` the reverse.
    centre, shown : ndarray (n, 2)
        the footprint centre in scene cm as the record has it, and as drawn (a glide).
    shape, colour, side : ndarray (n,) int32
        rows of the footprint table (``shape_poly``, ``shape_box``, …: one row per distinct
        facing, formation, figures and arm, as ``unit_shape`` draws it), the colour table
        (``fills``, ``inks``, ``ink_pens``) and ``sides``.
    flags : ndarray (n,) uint8
        ``ELIMINATED`` … ``SELECTED`` bits.
    men, guns : ndarray (n,) float
        the record's strength (the formation markers sum them, ``ui.aggregates.MarkerRows``).
    arm : ndarray (n,) int8
        the record's arm as an index of ``ui.aggregates.ARMS``.
    """

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.row: dict[str, int] = {}
        self.centre = np.zeros((0, 2))
        self.shown = np.zeros((0, 2))
        self.shape = np.zeros(0, np.int32)
        self.colour = np.zeros(0, np.int32)
        self.side = np.zeros(0, np.int32)
        self.flags = np.zeros(0, np.uint8)
        self.men = np.zeros(0)
        self.guns = np.zeros(0)
        self.arm = np.zeros(0, np.int8)
        self.item_box = np.zeros((0, 4))
        """Where each row's unit item stands (its ``scene_box``): behind the row while stale."""
        self.stale = np.zeros(0, bool)
        """Rows whose item a lazy reconcile has not synced yet."""
        self._shape_ids: dict[tuple, int] = {}  # what a footprint depends on -> its row
        self._offset_x: list[float] = []  # shape_offset as floats (read per unit)
        self._offset_y: list[float] = []
        self.shape_poly = np.zeros((0, 5, 2))
        self.shape_box = np.zeros((0, 4))
        self.shape_offset = np.zeros((0, 2))
        self.shape_min_side = np.zeros(0)
        self.shape_glyph = np.zeros((0, 2, 2, 2))
        self.shape_nglyph = np.zeros(0, np.int32)
        self.shape_front = np.zeros((0, 2, 2))
        self.shape_dot = np.zeros(0, bool)
        self.fills: list[Any] = []
        self.inks: list[Any] = []
        self.ink_pens: list[Any] = []
        self.colour_light = np.zeros(0, bool)
        self._colour_ids: dict[tuple, int] = {}
        self.sides: list[str] = []
        self._side_ids: dict[str, int] = {}
        self.side_colours: dict[str, str] = {}
        self._colours_seen: dict[str, str] = {}
        self._values: dict[int, tuple[Unit, Values]] = {}
        """id(record) → (the record, its ``values_of``): the record kept, so the id stays its own."""
        self.layout = 0
        """Grows whenever rows are added or removed (row numbers of ids may have changed)."""

    def __len__(self) -> int:
        return len(self.ids)

    # -- tables -----------------------------------------------------------------------------
    def _add_shape(self, key: tuple, shape: UnitShape) -> int:
        """Add footprint ``shape`` (``unit_shape`` of a unit of ``key``) to the table."""
        sid = len(self._shape_ids)
        if sid >= len(self.shape_poly):  # grow by doubling: adding is amortised O(1)
            cap = max(64, 2 * len(self.shape_poly))
            for name in _SHAPE_TABLES:
                old = getattr(self, name)
                new = np.zeros((cap, *old.shape[1:]), old.dtype)
                new[: len(old)] = old
                setattr(self, name, new)
        self._shape_ids[key] = sid
        self.shape_poly[sid] = [[p.x(), p.y()] for p in shape.poly.toList()[:5]]
        for i, g in enumerate(shape.glyph[:2]):
            self.shape_glyph[sid, i] = ((g.x1(), g.y1()), (g.x2(), g.y2()))
        f = shape.front
        self.shape_box[sid] = shape.box
        self.shape_offset[sid] = (shape.offset.x(), shape.offset.y())
        self._offset_x.append(shape.offset.x())
        self._offset_y.append(shape.offset.y())
        self.shape_min_side[sid] = shape.min_side
        self.shape_nglyph[sid] = len(shape.glyph)
        self.shape_front[sid] = ((f.x1(), f.y1()), (f.x2(), f.y2()))
        self.shape_dot[sid] = shape.dot
        return sid

    def colour_id(self, nation: str, side: str, eliminated: bool) -> int:
        """Row of a unit's colours in the colour table (as ``UnitItem`` chooses them)."""
        key = (nation, self.side_colours.get(side, "#808080"), eliminated)
        cid = self._colour_ids.get(key)
        if cid is None:
            fill, ink, pen = _unit_colours(*key)
            cid = self._colour_ids[key] = len(self.fills)
            self.fills.append(fill)
            self.inks.append(ink)
            self.ink_pens.append(pen)
            self.colour_light = np.append(self.colour_light, pen is UnitItem.LIGHT_INK)
        return cid

    def side_id(self, side: str) -> int:
        sid = self._side_ids.get(side)
        if sid is None:
            sid = self._side_ids[side] = len(self.sides)
            self.sides.append(side)
        return sid

    # -- rows -------------------------------------------------------------------------------
    def values_of(self, unit: Unit) -> Values:
        """(centre x, centre y, shape, colour, side, state flags, men, guns, arm) of ``unit``: worked out once
        per record object (records are immutable; a changed unit is a new record) and side
        colours (``side_colours``, compared on every call)."""
        if self.side_colours != self._colours_seen:
            self._colours_seen = dict(self.side_colours)
            self._values.clear()
        got = self._values.get(id(unit))
        if got is not None and got[0] is unit:
            return got[1]
        if len(self._values) > VALUES_KEPT * len(self.ids) + 5000:
            self._values.clear()
        values = self._values_of(unit)
        self._values[id(unit)] = (unit, values)
        return values

    def _values_of(self, unit: Unit) -> Values:
        # the enums by identity: members are singletons, and hashing one runs Python code
        # (``Enum.__hash__``: ~1-2 µs each, most of this function's time)
        key = (
            unit.facing,
            id(unit.formation),
            unit.figures,
            unit.figure_width,
            unit.figure_depth,
            unit.column_ranks,
            id(unit.arm),
        )
        sid = self._shape_ids.get(key)
        if sid is None:
            sid = self._add_shape(key, unit_shape(unit))
        x, y = unit.position
        state = unit.state
        side = unit.side
        cid = self._colour_ids.get((unit.nation, self.side_colours.get(side, "#808080"), state == "eliminated"))
        if cid is None:
            cid = self.colour_id(unit.nation, side, state == "eliminated")
        side_id = self._side_ids.get(side)
        if side_id is None:
            side_id = self.side_id(side)
        return (
            x + self._offset_x[sid],
            -y + self._offset_y[sid],
            sid,
            cid,
            side_id,
            STATE_FLAGS.get(state, OTHER_STATE),
            unit.men,
            unit.guns,
            _ARM_ROWS.get(id(unit.arm), ARM_INDEX["other"]),
        )

    def append(self, ids: list[str], values: list[tuple]) -> None:
        """Add rows for ``ids`` with ``values_of`` tuples (at the end: drawn last)."""
        if not ids:
            return
        v = np.array(values, dtype=float).reshape(len(ids), NVALUES)
        start = len(self.ids)
        self.layout += 1
        self.ids.extend(ids)
        for i, rid in enumerate(ids):
            self.row[rid] = start + i
        self.centre = np.concatenate([self.centre, v[:, 0:2]])
        self.shown = np.concatenate([self.shown, v[:, 0:2]])
        self.shape = np.concatenate([self.shape, v[:, 2].astype(np.int32)])
        self.colour = np.concatenate([self.colour, v[:, 3].astype(np.int32)])
        self.side = np.concatenate([self.side, v[:, 4].astype(np.int32)])
        self.flags = np.concatenate([self.flags, v[:, 5].astype(np.uint8)])
        self.men = np.concatenate([self.men, v[:, 6]])
        self.guns = np.concatenate([self.guns, v[:, 7]])
        self.arm = np.concatenate([self.arm, v[:, 8].astype(np.int8)])
        self.stale = np.concatenate([self.stale, np.zeros(len(ids), bool)])
        self.item_box = np.concatenate([self.item_box, self.boxes(np.arange(start, len(self.ids)))])

    def update(self, rows: list[int], values: list[tuple]) -> np.ndarray:
        """Set ``rows`` to ``values_of`` tuples; the centre shown jumps to the record's.
        Returns the boxes (k, 4) where the drawing changed: before and after of each changed row."""
        if not rows:
            return np.zeros((0, 4))
        r = np.array(rows, dtype=np.intp)
        v = np.array(values, dtype=float).reshape(len(rows), NVALUES)
        before = self.boxes(r)
        shape, colour = v[:, 2].astype(np.int32), v[:, 3].astype(np.int32)
        flags = (self.flags[r] & (HIDDEN | SELECTED)) | v[:, 5].astype(np.uint8)
        changed = (
            (self.shown[r] != v[:, 0:2]).any(axis=1)
            | (self.shape[r] != shape)
            | (self.colour[r] != colour)
            | ((self.flags[r] ^ flags) & ELIMINATED).astype(bool)
        )
        self.centre[r] = v[:, 0:2]
        self.shown[r] = v[:, 0:2]
        self.shape[r] = shape
        self.colour[r] = colour
        self.side[r] = v[:, 4].astype(np.int32)
        self.flags[r] = flags
        self.men[r] = v[:, 6]
        self.guns[r] = v[:, 7]
        self.arm[r] = v[:, 8].astype(np.int8)
        self.stale[r] = True
        after = self.boxes(r)
        return np.concatenate([before[changed], after[changed]])

    def remove(self, ids: list[str]) -> np.ndarray:
        """Drop the rows of ``ids`` (the others keep their order); returns their boxes."""
        rows = np.array(sorted(self.row[i] for i in ids if i in self.row), dtype=np.intp)
        if rows.size == 0:
            return np.zeros((0, 4))
        boxes = self.boxes(rows)
        self.layout += 1
        for name in ("centre", "shown", "shape", "colour", "side", "flags", "men", "guns", "arm", "stale", "item_box"):
            setattr(self, name, np.delete(getattr(self, name), rows, axis=0))
        gone = set(rows.tolist())
        self.ids = [rid for i, rid in enumerate(self.ids) if i not in gone]
        self.row = {rid: i for i, rid in enumerate(self.ids)}
        return boxes

    def clear(self) -> None:
        """Drop every row (the tables stay)."""
        self.remove(list(self.ids))

    def corners(self) -> np.ndarray:
        """Footprint corners (n, 4, 2) of every row as its record has it (front-left,
        front-right, rear-right, rear-left; scene cm)."""
        return self.centre[:, None, :] + self.shape_poly[self.shape][:, :4, :]

    def boxes(self, rows: np.ndarray | slice | None = None) -> np.ndarray:
        """(left, top, right, bottom) scene cm of ``rows`` (all when None) as drawn."""
        sel = slice(None) if rows is None else rows
        c = self.shown[sel]
        b = self.shape_box[self.shape[sel]]
        return np.concatenate([c + b[:, 0:2], c + b[:, 2:4]], axis=1)

    def stale_rows_in(self, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        """Stale rows whose item or record box meets the scene rectangle."""
        rows = np.flatnonzero(self.stale)
        if rows.size == 0:
            return rows
        hit = np.zeros(rows.size, bool)
        for b in (self.item_box[rows], self.boxes(rows)):
            hit |= (b[:, 0] < x1) & (x0 < b[:, 2]) & (b[:, 1] < y1) & (y0 < b[:, 3])
        return rows[hit]

    def synced(self, rid: str, box: tuple[float, float, float, float]) -> None:
        """The item of ``rid`` was synced and stands at ``box``."""
        r = self.row.get(rid)
        if r is not None:
            self.stale[r] = False
            self.item_box[r] = box

    def rows_in(self, x0: float, y0: float, x1: float, y1: float, shown_only: bool = True) -> np.ndarray:
        """Rows (ascending) whose box meets the scene rectangle, skipping hidden sides."""
        b = self.boxes()
        hit = (b[:, 0] < x1) & (x0 < b[:, 2]) & (b[:, 1] < y1) & (y0 < b[:, 3])
        if shown_only:
            hit &= (self.flags & HIDDEN) == 0
        return np.flatnonzero(hit)

    def positions(self) -> dict[str, tuple[float, float]]:
        """id → footprint centre as drawn (scene cm): for label placement and overlays."""
        return dict(zip(self.ids, map(tuple, self.shown.tolist()), strict=True))

    def set_flag(self, rows: np.ndarray, bit: int, on: bool) -> None:
        if on:
            self.flags[rows] |= bit
        else:
            self.flags[rows] &= ~np.uint8(bit)


class ArrayUnitLayer(QGraphicsItem):
    """One item painting every shown unit of ``arrays`` (see the module docstring).

    It covers the scene rectangle, is never hit (empty shape) and is not a ``MapItem``, so
    tools and label placement ignore it.
    """

    def __init__(self, arrays: UnitArrays) -> None:
        super().__init__()
        self.arrays = arrays
        self._bounds = QRectF()
        self._image: QImage | None = None
        self._key: tuple | None = None
        self._dirty: list[np.ndarray] | None = None  # scene boxes to redraw; None: everything
        self._ndirty = 0
        self.setZValue(Z_UNIT)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    def set_bounds(self, rect: QRectF) -> None:
        """Cover scene rectangle ``rect``."""
        self.prepareGeometryChange()
        self._bounds = QRectF(rect)
        self.mark_all()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._bounds

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def mark_all(self) -> None:
        """Redraw everything at the next paint."""
        self._dirty = None
        self.update()

    def mark_boxes(self, boxes: np.ndarray) -> None:
        """Redraw what meets these scene boxes (k, 4) at the next paint."""
        if self._dirty is None or len(boxes) == 0:
            return
        self._ndirty += len(boxes)
        if self._ndirty > MAX_BOXES:
            self.mark_all()
            return
        self._dirty.append(boxes)
        x0, y0 = boxes[:, 0].min(), boxes[:, 1].min()
        x1, y1 = boxes[:, 2].max(), boxes[:, 3].max()
        self.update(QRectF(x0 - 1.0, y0 - 1.0, x1 - x0 + 2.0, y1 - y0 + 2.0))

    # -- drawing --------------------------------------------------------------------------------
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        world = painter.worldTransform()
        if widget is None or painter.paintEngine().type() != QPaintEngine.Type.Raster:
            r = option.exposedRect if option.exposedRect.isValid() else self._bounds
            self.draw_rows(painter, world, self.arrays.rows_in(r.left(), r.top(), r.right(), r.bottom()))
            return
        device = painter.device()
        w, h = device.width(), device.height()
        if w <= 0 or h <= 0:
            return
        ratio = device.devicePixelRatioF()
        key = (world.m11(), world.m12(), world.m21(), world.m22(), world.dx(), world.dy(), w, h, ratio)
        if key != self._key or self._image is None:
            self._key = key
            self._image = QImage(round(w * ratio), round(h * ratio), QImage.Format.Format_ARGB32_Premultiplied)
            self._image.setDevicePixelRatio(ratio)
            self._dirty = None
        if world.m12() != 0.0 or world.m21() != 0.0:
            self._dirty = None
        if self._dirty is None:
            self._redraw(world, w, h, None)
        elif self._dirty:
            self._redraw(world, w, h, np.concatenate(self._dirty))
        self._dirty, self._ndirty = [], 0
        blit_picture(painter, self._image, world, option.exposedRect, w, h, ratio)

    def _redraw(self, world: QTransform, w: int, h: int, boxes: np.ndarray | None) -> None:
        image = self._image
        assert image is not None
        inverse, _ = world.inverted()
        view = inverse.mapRect(QRectF(0, 0, w, h))
        pad = (PAD_PX + 1) / max(abs(world.m11()), 1e-9)
        a = self.arrays
        rows = a.rows_in(view.left() - pad, view.top() - pad, view.right() + pad, view.bottom() + pad)
        p = QPainter(image)
        if boxes is None:
            image.fill(Qt.GlobalColor.transparent)
        else:
            sx, sy, dx, dy = world.m11(), world.m22(), world.dx(), world.dy()
            nx, ny = (w + TILE_PX - 1) // TILE_PX, (h + TILE_PX - 1) // TILE_PX
            mask = np.zeros((ny, nx), bool)
            tx0, ty0, tx1, ty1 = _tiles(boxes, sx, sy, dx, dy, nx, ny)
            for i in range(len(tx0)):
                mask[ty0[i] : ty1[i] + 1, tx0[i] : tx1[i] + 1] = True
            region = QRegion()
            edges = np.diff(np.pad(mask, ((0, 0), (1, 1))).astype(np.int8), axis=1)
            for (ty, tx0_), (_, tx1_) in zip(np.argwhere(edges == 1), np.argwhere(edges == -1), strict=True):
                region = region.united(QRect(tx0_ * TILE_PX, ty * TILE_PX, (tx1_ - tx0_) * TILE_PX, TILE_PX))
            # rows touching a dirty tile: a summed-area table of the mask
            sat = np.zeros((ny + 1, nx + 1), np.int32)
            sat[1:, 1:] = mask.cumsum(0).cumsum(1)
            ux0, uy0, ux1, uy1 = _tiles(a.boxes(rows), sx, sy, dx, dy, nx, ny)
            count = sat[uy1 + 1, ux1 + 1] - sat[uy0, ux1 + 1] - sat[uy1 + 1, ux0] + sat[uy0, ux0]
            rows = rows[count > 0]
            p.setClipRegion(region)
            p.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
            p.fillRect(image.rect(), Qt.GlobalColor.transparent)
            p.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setTransform(world)
        self.draw_rows(p, world, rows)
        p.end()

    def draw_rows(self, painter: QPainter, world: QTransform, rows: np.ndarray) -> None:
        """Draw the units of ``rows`` (ascending) as ``UnitItem.paint`` would, batched
        (painter in scene coordinates, ``world`` its transform to device pixels)."""
        if rows.size == 0:
            return
        a = self.arrays
        lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(world)
        if lod >= ONE_BY_ONE_LOD:
            over = _overlapping(a.boxes(rows) + np.array([MARGIN_CM, MARGIN_CM, -MARGIN_CM, -MARGIN_CM]))
            if over.any():  # batched, a covered unit's glyph would show through the one above
                self._draw_batched(painter, lod, rows[~over])
                self._draw_one_by_one(painter, lod, rows[over])
                return
        self._draw_batched(painter, lod, rows)

    def _draw_one_by_one(self, painter: QPainter, lod: float, rows: np.ndarray) -> None:
        """Draw overlapping units in row order, each whole before the next (``UnitItem.paint``)."""
        a = self.arrays
        min_side = GLYPH_PX / max(lod, 1e-9)
        for r in rows:
            sid, cid, flags = a.shape[r], a.colour[r], a.flags[r]
            cx, cy = a.shown[r]
            poly = a.shape_poly[sid] + (cx, cy)
            painter.setBrush(a.fills[cid])
            painter.setPen(SELECTED_PEN if flags & SELECTED else OUTLINE_PEN)
            painter.drawPolygon(QPolygonF([QPointF(x, y) for x, y in poly]))
            if a.shape_min_side[sid] >= min_side:
                painter.setPen(a.ink_pens[cid])
                n = a.shape_nglyph[sid]
                if n:
                    g = a.shape_glyph[sid, :n] + (cx, cy)
                    painter.drawLines([QLineF(x0, y0, x1, y1) for (x0, y0), (x1, y1) in g])
                if a.shape_dot[sid]:
                    painter.setBrush(a.inks[cid])
                    rad = a.shape_min_side[sid] * 0.18
                    painter.drawEllipse(QPointF(cx, cy), rad, rad)
                painter.setPen(FRONT_PEN)
                (x0, y0), (x1, y1) = a.shape_front[sid] + (cx, cy)
                painter.drawLine(QLineF(x0, y0, x1, y1))
            if flags & ELIMINATED:
                s = (poly[0] + poly[3]) / 2.0
                e = (poly[1] + poly[2]) / 2.0
                d = (e - s) * 0.12
                painter.setPen(STRIKE_PEN)
                painter.drawLine(QLineF(*(s - d), *(e + d)))

    def _draw_batched(self, painter: QPainter, lod: float, rows: np.ndarray) -> None:
        """Draw units whose order does not matter: all fills per colour, then the details."""
        if rows.size == 0:
            return
        a = self.arrays
        cen = a.shown[rows]
        sh = a.shape[rows]
        col = a.colour[rows]
        fl = a.flags[rows]
        polys = cen[:, None, :] + a.shape_poly[sh]
        painter.setPen(OUTLINE_PEN)
        for c in np.unique(col):
            painter.setBrush(a.fills[c])
            painter.drawPath(polygon_path(polys[col == c]))
        chosen = np.flatnonzero(fl & SELECTED)
        if chosen.size:
            painter.setPen(SELECTED_PEN)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for i in chosen:
                painter.drawPolygon(QPolygonF([QPointF(x, y) for x, y in polys[i]]))
        big = a.shape_min_side[sh] >= GLYPH_PX / max(lod, 1e-9)
        if big.any():
            bc = cen[big]
            bsh = sh[big]
            glyph = a.shape_glyph[bsh] + bc[:, None, None, :]
            n = a.shape_nglyph[bsh]
            light = a.colour_light[col[big]]
            for on, pen in ((True, UnitItem.LIGHT_INK), (False, UnitItem.DARK_INK)):
                mine = light == on
                segs = np.concatenate([glyph[mine & (n >= 1), 0], glyph[mine & (n >= 2), 1]])
                if len(segs):
                    painter.setPen(pen)
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.drawPath(segment_path(segs))
            dots = np.flatnonzero(a.shape_dot[bsh])
            big_rows = np.flatnonzero(big)
            for i in dots:
                j = big_rows[i]
                painter.setPen(a.ink_pens[col[j]])
                painter.setBrush(a.inks[col[j]])
                r = a.shape_min_side[sh[j]] * 0.18
                painter.drawEllipse(QPointF(cen[j, 0], cen[j, 1]), r, r)
            painter.setPen(FRONT_PEN)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(segment_path(a.shape_front[bsh] + bc[:, None, :]))
        struck = (fl & ELIMINATED) != 0
        if struck.any():
            q = polys[struck]
            s = (q[:, 0] + q[:, 3]) / 2.0
            e = (q[:, 1] + q[:, 2]) / 2.0
            d = (e - s) * 0.12
            painter.setPen(STRIKE_PEN)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(segment_path(np.stack([s - d, e + d], axis=1)))


def _tiles(
    boxes: np.ndarray, sx: float, sy: float, dx: float, dy: float, nx: int, ny: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Tile ranges (x0, y0, x1, y1, clipped) of scene boxes padded by ``PAD_PX`` on screen."""
    xa, xb = boxes[:, 0] * sx + dx, boxes[:, 2] * sx + dx
    ya, yb = boxes[:, 1] * sy + dy, boxes[:, 3] * sy + dy
    x0 = np.floor((np.minimum(xa, xb) - PAD_PX - 1) / TILE_PX)
    x1 = np.floor((np.maximum(xa, xb) + PAD_PX + 1) / TILE_PX)
    y0 = np.floor((np.minimum(ya, yb) - PAD_PX - 1) / TILE_PX)
    y1 = np.floor((np.maximum(ya, yb) + PAD_PX + 1) / TILE_PX)
    return (
        np.clip(x0, 0, nx - 1).astype(np.intp),
        np.clip(y0, 0, ny - 1).astype(np.intp),
        np.clip(x1, 0, nx - 1).astype(np.intp),
        np.clip(y1, 0, ny - 1).astype(np.intp),
    )


def _overlapping(boxes: np.ndarray) -> np.ndarray:
    """Which of ``boxes`` (n, 4) overlap another one (a sweep along x)."""
    n = len(boxes)
    over = np.zeros(n, bool)
    if n < 2:
        return over
    order = np.argsort(boxes[:, 0], kind="stable")
    b = boxes[order]
    end = np.searchsorted(b[:, 0], b[:, 2], side="left")  # rows after i starting before i ends
    for i in np.flatnonzero(end > np.arange(n) + 1):
        j = slice(i + 1, end[i])
        hit = (b[j, 1] < b[i, 3]) & (b[i, 1] < b[j, 3])
        if hit.any():
            over[order[i]] = True
            over[order[i + 1 : end[i]][hit]] = True
    return over
