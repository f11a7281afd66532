"""Scene items of the map: one per unit, commander, terrain feature, town zone and objective.

Each item holds the id of its record and a ``sync(record)`` that re-reads it (the Tiled
``syncWithMapObject`` idiom): items never hold the truth, the document or the replay state
does. Items are positioned in scene coordinates obtained from ``ui.coords``; nothing here
converts between the table frame and the scene by hand.

Painting is built for maps of thousands of units under software rendering: geometry is
precomputed in ``sync``, bounding rectangles are plain rectangles, glyphs, front edges and
drawn only when the level of detail (screen pixels per cm) makes them readable. Labels are
not painted by the items: each offers a ``label_request(lod)`` and the view places and draws
the labels above everything (``ui.labels``).
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPaintEngine, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlestudio.model.scenario import Objective
from battlestudio.model.terrain import TerrainFeature, TerrainKind, TownZone
from battlestudio.model.units import Arm, Commander, Unit
from battlestudio.ui.coords import geometry_path, table_to_scene
from battlestudio.ui.labels import LABEL_MIN_LOD, Label, LabelRequest, MapContext
from battlestudio.ui.styles import (
    ECHELON_MARKS, HILL_LEVEL_FILLS, TERRAIN_STYLES, TOWN_BLOCK, TOWN_FILL, TOWN_OUTLINE,
    brush, cm_pen, contrast_ink, cosmetic_pen, nation_colour,
)

SELECTED = QColor("#ff9d00")
"""Highlight colour of selected items."""

OUTLINE_PEN = cosmetic_pen("#202020", 0.8)
SELECTED_PEN = cosmetic_pen(SELECTED, 2.5)
FRONT_PEN = cosmetic_pen("#101010", 2.5)
LIGHT_INK_PEN = cosmetic_pen(contrast_ink(QColor("#000000")), 1.0)
DARK_INK_PEN = cosmetic_pen(contrast_ink(QColor("#ffffff")), 1.0)

Z_TERRAIN, Z_TOWN, Z_OBJECTIVE, Z_UNIT, Z_COMMANDER = 0.0, 10.0, 15.0, 20.0, 30.0

_SELECTABLE = QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
_DEVICE_CACHE = QGraphicsItem.CacheMode.DeviceCoordinateCache
_RASTER = QPaintEngine.Type.Raster
# (PySide6 looks enum members up on every access: the hot paths use these names)


class MapItem(QGraphicsItem):
    """Base of the map's items: an ``id``, a ``kind`` and a shared ``MapContext``."""

    kind = ""

    def __init__(self, record_id: str, ctx: MapContext) -> None:
        super().__init__()
        self.id = record_id
        self.ctx = ctx
        self._bounds = QRectF()
        self.scene_box = (0.0, 0.0, 0.0, 0.0)
        """(left, top, right, bottom) of the item in scene cm (a commander: his position),
        kept by ``sync`` for quick tests in plain floats (label placement)."""
        self.setFlag(_SELECTABLE, True)
        # Repaints blit a per-view pixmap; it is redrawn only on zoom or when the item changes.
        self.setCacheMode(_DEVICE_CACHE)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._bounds

    def label_request(self, lod: float) -> LabelRequest | None:
        """The label to show at zoom ``lod`` (px per cm), or None when it would not fit."""
        return None

    def _keep_scene_box(self) -> None:
        r = self._bounds.translated(self.pos())
        self.scene_box = (r.left(), r.top(), r.right(), r.bottom())


class UnitShape:
    """A unit's drawing in item coordinates (origin at the footprint's centre), shared by every
    unit of the same facing, formation, figures, figure size and arm.

    Attributes
    ----------
    poly : QPolygonF
        the footprint, closed (FL, FR, RR, RL, FL).
    front : QLineF
        the front edge.
    glyph : list[QLineF]
        the arm's lines (infantry both diagonals, cavalry one).
    dot : bool
        artillery: a dot in the middle.
    min_side : float
        the shorter side in cm.
    bounds : QRectF
        the item's bounding rectangle; ``box`` the same as (left, top, right, bottom).
    label_anchor : QPointF
        top-centre of the name (below the footprint); ``label_room`` the width it may take, cm.
    """

    __slots__ = ("poly", "front", "glyph", "dot", "min_side", "bounds", "box", "label_anchor", "label_room",
                 "offset")

    def __init__(self, unit: Unit) -> None:
        rect = unit.rect()
        arm = unit.arm
        centre = table_to_scene(*rect.centre)
        self.offset = centre - table_to_scene(*unit.position)
        """From the unit's position (front midpoint) to the centre, scene cm."""
        fl, fr, rr, rl = (table_to_scene(*c) - centre for c in rect.corners())
        self.poly = QPolygonF([fl, fr, rr, rl, fl])
        self.front = QLineF(fl, fr)
        self.min_side = min(rect.width, rect.depth)
        self.glyph = ([QLineF(fl, rr), QLineF(fr, rl)] if arm == Arm.INFANTRY
                      else [QLineF(rl, fr)] if arm == Arm.CAVALRY else [])
        self.dot = arm == Arm.ARTILLERY
        box = self.poly.boundingRect()
        self.label_anchor = QPointF(0.0, box.bottom())
        self.label_room = max(box.width() + 1.0, 8.0)
        self.bounds = box.adjusted(-0.3, -0.3, 0.3, 0.3)
        b = self.bounds
        self.box = (b.left(), b.top(), b.right(), b.bottom())


_SHAPES: dict[tuple, UnitShape] = {}
SHAPE_CACHE = 20_000
"""Drawings kept (the cache is emptied when it fills)."""


def unit_shape(unit: Unit) -> UnitShape:
    """The shared drawing of ``unit``: keyed by what its footprint rectangle (``Unit.rect``)
    depends on besides the position, and its arm."""
    key = (unit.facing, unit.formation, unit.figures, unit.figure_width, unit.figure_depth, unit.column_ranks,
           unit.arm)
    shape = _SHAPES.get(key)
    if shape is None:
        if len(_SHAPES) >= SHAPE_CACHE:
            _SHAPES.clear()
        shape = _SHAPES[key] = UnitShape(unit)
    return shape


class UnitItem(MapItem):
    """A unit drawn as its true footprint for its formation and facing.

    The rectangle is filled in the nation's colour with a thicker front edge, an arm glyph
    (infantry: both diagonals; cavalry: one diagonal; artillery: a dot) and the name below.
    The item sits at the footprint's centre; corners are in item coordinates.
    """

    kind = "unit"
    LIGHT_INK, DARK_INK = LIGHT_INK_PEN, DARK_INK_PEN

    def __init__(self, record_id: str, ctx: MapContext) -> None:
        super().__init__(record_id, ctx)
        self.setZValue(Z_UNIT)
        self.side = ""
        self._shape: UnitShape | None = None  # the drawing in item coordinates (shared)
        self._centre = QPointF()
        self._scene_poly: QPolygonF | None = None
        self._scene_details: tuple | None = None
        self._fill = self._ink = self._ink_pen = None
        self._label: Label | None = None
        self._label_lod: float | None = None  # computed when first asked
        self.look = 0
        """Grows whenever the drawing (not the position) changes."""
        self._colour: tuple | None = None  # (nation, side colour) the colours were chosen for

    def sync(self, unit: Unit) -> None:
        """Re-read ``unit``: footprint, colours, glyph and label.

        The drawing is rebuilt only when what it shows changed (footprint size, facing, arm,
        colour, name); a unit that only moved is just repositioned, so its cached pixmap is
        reused (and ``look`` stays the same). Drawings are shared by every unit of the same
        facing, formation, figures and arm (``unit_shape``), so a unit's footprint is computed
        once per distinct look, not once per sync.
        """
        self.side = unit.side
        shape = unit_shape(unit)
        centre = table_to_scene(*unit.position) + shape.offset
        changed = shape is not self._shape
        if changed:
            if self._shape is None or shape.bounds != self._shape.bounds:
                self.prepareGeometryChange()
                self._bounds = shape.bounds
            self._shape = shape
            self._label_lod = None
        moved = centre != self._centre
        if moved:
            self._centre = centre
            self.setPos(centre)
        if moved or changed:
            x, y = centre.x(), centre.y()
            b = shape.box
            self.scene_box = (x + b[0], y + b[1], x + b[2], y + b[3])
            self._scene_poly = self._scene_details = None
        colour = (unit.nation, self.ctx.side_colours.get(unit.side, "#808080"))
        if colour != self._colour:
            self._colour = colour
            self._fill, self._ink, self._ink_pen = _unit_colours(*colour)
            changed = True
        if self._label is None or self._label.text != unit.name:
            self._label = Label(unit.name, self.ctx) if unit.name else None
            self._label_lod = None
        if changed:
            self.look += 1
            self.update()

    def scene_polygon(self) -> QPolygonF:
        """The footprint in scene coordinates, for ``UnitLayer`` (built when first asked
        after a move)."""
        if self._scene_poly is None:
            self._scene_poly = self._shape.poly.translated(self._centre)
        return self._scene_poly

    def scene_details(self) -> tuple[list[QLineF], QLineF]:
        """(glyph lines, front edge) in scene coordinates, for ``UnitLayer`` (built only for
        units large enough on screen to show them)."""
        if self._scene_details is None:
            c, shape = self._centre, self._shape
            self._scene_details = ([g.translated(c) for g in shape.glyph], shape.front.translated(c))
        return self._scene_details

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addPolygon(self._shape.poly)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        painter.setBrush(self._fill)
        painter.setPen(SELECTED_PEN if self.isSelected() else OUTLINE_PEN)
        shape = self._shape
        painter.drawPolygon(shape.poly)
        if lod * shape.min_side >= 5.0:
            painter.setPen(self._ink_pen)
            if shape.glyph:
                painter.drawLines(shape.glyph)
            if shape.dot:
                painter.setBrush(self._ink)
                r = shape.min_side * 0.18
                painter.drawEllipse(QPointF(0.0, 0.0), r, r)
            painter.setPen(FRONT_PEN)
            painter.drawLine(shape.front)

    def label_request(self, lod: float) -> LabelRequest | None:
        if self._label is None or lod < LABEL_MIN_LOD:
            return None
        if self._label_lod is None:
            self._label_lod = self._label.min_lod(self._shape.label_room)
        if lod < self._label_lod:
            return None
        return LabelRequest(self._label, self.pos() + self._shape.label_anchor, True, 2.0, 3)


_COLOURS: dict[tuple[str, str], tuple[QColor, QColor, QPen]] = {}


def _unit_colours(nation: str, side_colour: str) -> tuple[QColor, QColor, QPen]:
    """(fill, ink, ink pen) of a unit of ``nation`` on a side of ``side_colour``, shared."""
    got = _COLOURS.get((nation, side_colour))
    if got is None:
        fill = nation_colour(nation, side_colour)
        ink = contrast_ink(fill)
        got = _COLOURS[(nation, side_colour)] = (fill, ink, LIGHT_INK_PEN if ink.lightness() > 128 else DARK_INK_PEN)
    return got


_FLAGS: dict[tuple, QPixmap] = {}
"""Commander flags drawn once per (fill, ink, mark, selected, pixel ratio)."""

COMMANDER_LABEL_LOD = {"c_in_c": 0.0, "army": 0.0, "corps": 0.0, "division": LABEL_MIN_LOD, "brigade": 2.5}
"""Zoom (px per cm) from which a commander's name is shown, per echelon: army and corps
commanders always; division and brigade generals once their commands are a few pixels across
(zoomed out on a Leipzig-sized table, 316 names would only crowd each other out)."""


class CommanderItem(MapItem):
    """A commander as a small flag on a staff, in his side's colour, with his echelon marked.

    The staff stands on the commander's position (base centre). The flag keeps its size on
    screen (it ignores the view's zoom) so generals stay findable on a whole-table view; the
    name of a division or brigade general appears from ``COMMANDER_LABEL_LOD``.
    """

    kind = "commander"
    FLAG_W, FLAG_H, STAFF = 26.0, 15.0, 30.0

    def __init__(self, record_id: str, ctx: MapContext) -> None:
        super().__init__(record_id, ctx)
        self.setZValue(Z_COMMANDER)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.side = ""
        self._fill = QColor()
        self._ink = QColor()
        self._mark = ""
        self._label: Label | None = None
        self._label_lod = 0.0
        self._look: tuple | None = None  # (nation, side colour, echelon) the flag was drawn for
        self._bounds = QRectF(-3.0, -self.STAFF - 2.0, self.FLAG_W + 6.0, self.STAFF + 5.0)

    def sync(self, commander: Commander) -> None:
        """Re-read ``commander``: position, colours, echelon mark and name (a commander who
        only moved keeps his cached pixmap)."""
        self.side = commander.side
        p = table_to_scene(*commander.position)
        self.setPos(p)
        self.scene_box = (p.x(), p.y(), p.x(), p.y())
        look = (commander.nation, self.ctx.side_colours.get(commander.side, "#808080"), commander.echelon)
        if look != self._look:
            self._look = look
            self._fill = nation_colour(commander.nation, look[1])
            self._ink = contrast_ink(self._fill)
            self._mark = ECHELON_MARKS.get(commander.echelon, commander.echelon[:3].upper())
            self._label_lod = COMMANDER_LABEL_LOD.get(commander.echelon, COMMANDER_LABEL_LOD["brigade"])
            self.update()
        if self._label is None or self._label.text != commander.name:
            self._label = Label(commander.name, self.ctx, bold=True) if commander.name else None

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(QRectF(-3.0, -self.STAFF - 1.0, self.FLAG_W + 4.0, self.STAFF + 4.0))
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if painter.paintEngine().type() != _RASTER:  # PDF, SVG, printer: vectors
            self.draw_flag(painter, self.isSelected())
            return
        ratio = painter.device().devicePixelRatioF()
        key = (self._fill.rgba(), self._ink.rgba(), self._mark, self.isSelected(), ratio)
        pixmap = _FLAGS.get(key)
        if pixmap is None:
            if len(_FLAGS) > 256:
                _FLAGS.clear()
            b = self._bounds
            pixmap = QPixmap(round(b.width() * ratio), round(b.height() * ratio))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(Qt.GlobalColor.transparent)
            p = QPainter(pixmap)
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            p.translate(-b.left(), -b.top())
            self.draw_flag(p, key[3])
            p.end()
            _FLAGS[key] = pixmap
        painter.drawPixmap(self._bounds.topLeft(), pixmap)

    def draw_flag(self, painter: QPainter, selected: bool) -> None:
        """Draw staff, flag and echelon mark (item coordinates = screen pixels). Raster paints
        reuse one picture per colour, mark and selection (``_FLAGS``): 316 generals need a
        handful of text layouts, not 316."""
        painter.setPen(QPen(QColor("#3a2a1a"), 2.0))
        painter.drawLine(QPointF(0.0, 2.0), QPointF(0.0, -self.STAFF))
        flag = QRectF(1.0, -self.STAFF, self.FLAG_W, self.FLAG_H)
        painter.setBrush(self._fill)
        painter.setPen(QPen(SELECTED, 2.5) if selected else QPen(QColor("#202020"), 1.0))
        painter.drawRect(flag)
        painter.setBrush(QColor("#202020"))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawEllipse(QPointF(0.0, 0.0), 2.5, 2.5)
        painter.setPen(self._ink)
        painter.setFont(self.ctx.bold)
        painter.drawText(flag, Qt.AlignmentFlag.AlignCenter, self._mark)

    def label_request(self, lod: float) -> LabelRequest | None:
        if self._label is None or lod < self._label_lod:
            return None
        return LabelRequest(self._label, self.pos(), True, 4.0, 1)


class TerrainItem(MapItem):
    """A terrain feature in its cartographic style (``styles.TERRAIN_STYLES``).

    Areas are filled and outlined (hills darker with each level, with the level written on
    them); linear features are stroked with their width in cm (roads over a darker casing).
    """

    kind = "terrain"

    def __init__(self, record_id: str, ctx: MapContext) -> None:
        super().__init__(record_id, ctx)
        self.terrain_kind = TerrainKind.WOODS
        self._path = QPainterPath()
        self._shape = QPainterPath()
        self._linear = False
        self._width = 1.0
        self._fill = brush(None)
        self._label: Label | None = None
        self._label_anchor = QPointF()

    def sync(self, feature: TerrainFeature) -> None:
        """Re-read ``feature``: geometry, kind, level and width."""
        self.prepareGeometryChange()
        self.terrain_kind = feature.kind
        style = TERRAIN_STYLES[feature.kind]
        geom = feature.geometry
        if geom.geom_type == "Point":
            geom = geom.buffer(style.line_cm / 2.0, quad_segs=4)
        self._linear = "LineString" in geom.geom_type
        self._width = feature.width or style.line_cm
        self.setZValue(Z_TERRAIN + style.z + (0.1 * (feature.level or 0)))
        self._path = geometry_path(geom)
        fill = style.fill
        if feature.kind == TerrainKind.HILL and feature.level:
            fill = HILL_LEVEL_FILLS[min(feature.level, len(HILL_LEVEL_FILLS)) - 1]
        self._fill = brush(fill)
        if self._linear:
            stroker = QPainterPathStroker()
            stroker.setWidth(self._width + 0.8)
            self._shape = stroker.createStroke(self._path)
        else:
            self._shape = self._path
        text = feature.name
        if feature.kind == TerrainKind.HILL and feature.level:
            text = f"{feature.name} ({feature.level})" if feature.name else str(feature.level)
        self._label = Label(text, self.ctx) if text else None
        c = geom.representative_point()
        self._label_anchor = table_to_scene(c.x, c.y)
        self._bounds = self._shape.boundingRect().adjusted(-0.5, -0.5, 0.5, 0.5)
        self._keep_scene_box()
        self.update()

    def shape(self) -> QPainterPath:
        return self._shape

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.ctx.static_in_background:
            self.draw_highlight(painter)
        else:
            self.draw(painter, self.isSelected())

    def draw(self, painter: QPainter, selected: bool = False) -> None:
        """Draw the feature in its style (painter in scene coordinates; the scene's background
        calls this for every feature when ``MapContext.static_in_background``)."""
        style = TERRAIN_STYLES[self.terrain_kind]
        if self._linear:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            if style.casing:
                painter.setPen(cm_pen(style.casing, self._width + 0.6))
                painter.drawPath(self._path)
            painter.setPen(cm_pen(style.line or "#000000", self._width, style.dash))
            painter.drawPath(self._path)
            if selected:
                self.draw_highlight(painter)
        else:
            painter.setBrush(self._fill)
            painter.setPen(cosmetic_pen(SELECTED, 2.5) if selected else (
                cosmetic_pen(style.outline, style.outline_px, style.dash) if style.outline else Qt.PenStyle.NoPen))
            painter.drawPath(self._path)
            if style.hatch is not None:
                painter.setBrush(brush(style.outline, style.hatch))
                painter.setPen(Qt.PenStyle.NoPen)
                painter.drawPath(self._path)

    def draw_highlight(self, painter: QPainter) -> None:
        """Draw the selection highlight alone (over the feature drawn in the background)."""
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(cosmetic_pen(SELECTED, 2.0, Qt.PenStyle.DashLine) if self._linear else cosmetic_pen(SELECTED, 2.5))
        painter.drawPath(self._path)

    def label_request(self, lod: float) -> LabelRequest | None:
        if self._label is None or self._linear or lod < 2.0:
            return None
        return LabelRequest(self._label, self._label_anchor, False, 0.0, 4)


class TownItem(MapItem):
    """A town zone: a built-up block pattern inside its outline, named in bold."""

    kind = "town"

    def __init__(self, record_id: str, ctx: MapContext) -> None:
        super().__init__(record_id, ctx)
        self.setZValue(Z_TOWN)
        self._path = QPainterPath()
        self._blocks: list[QRectF] = []
        self._label: Label | None = None
        self._label_anchor = QPointF()

    def sync(self, town: TownZone) -> None:
        """Re-read ``town``: outline, blocks and name."""
        self.prepareGeometryChange()
        self._path = geometry_path(town.polygon)
        self._blocks = _town_blocks(town)
        self._label = Label(town.name, self.ctx, bold=True) if town.name else None
        c = town.polygon.representative_point()
        self._label_anchor = table_to_scene(c.x, c.y)
        self._bounds = self._path.boundingRect().adjusted(-0.5, -0.5, 0.5, 0.5)
        self._keep_scene_box()
        self.update()

    def shape(self) -> QPainterPath:
        return self._path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.ctx.static_in_background:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(cosmetic_pen(SELECTED, 2.5))
            painter.drawPath(self._path)
        else:
            self.draw(painter, self.isSelected())

    def draw(self, painter: QPainter, selected: bool = False) -> None:
        """Draw the zone and its blocks (painter in scene coordinates; see ``TerrainItem.draw``)."""
        painter.setBrush(QColor(TOWN_FILL))
        painter.setPen(cosmetic_pen(SELECTED, 2.5) if selected else cosmetic_pen(TOWN_OUTLINE, 1.5))
        painter.drawPath(self._path)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(TOWN_BLOCK))
        painter.drawRects(self._blocks)

    def label_request(self, lod: float) -> LabelRequest | None:
        if self._label is None or lod < 1.0:
            return None
        return LabelRequest(self._label, self._label_anchor, False, 0.0, 0)


def _town_blocks(town: TownZone, cell: float = 3.0, street: float = 0.8) -> list[QRectF]:
    """Scene rectangles of built-up blocks on a ``cell`` cm grid inside the town outline
    (every candidate block tested in one vectorised ``shapely.contains`` call)."""
    import numpy as np
    import shapely

    minx, miny, maxx, maxy = town.polygon.bounds
    side = cell - street
    xs = minx + street / 2.0 + cell * np.arange(max(0, int((maxx + 1e-9 - minx - street / 2.0 - side) // cell) + 1))
    ys = miny + street / 2.0 + cell * np.arange(max(0, int((maxy + 1e-9 - miny - street / 2.0 - side) // cell) + 1))
    if not len(xs) or not len(ys):
        return []
    gx, gy = np.tile(xs, len(ys)), np.repeat(ys, len(xs))
    inner = town.polygon.buffer(-street / 2.0)
    shapely.prepare(inner)
    inside = shapely.contains(inner, shapely.box(gx, gy, gx + side, gy + side))
    blocks: list[QRectF] = []
    for x, y in zip(gx[inside].tolist(), gy[inside].tolist()):
        blocks.append(QRectF(table_to_scene(x, y + side), table_to_scene(x + side, y)))
    return blocks


class ObjectiveItem(MapItem):
    """An objective: a gold star on its place, with its name and victory points."""

    kind = "objective"

    def __init__(self, record_id: str, ctx: MapContext) -> None:
        super().__init__(record_id, ctx)
        self.setZValue(Z_OBJECTIVE)
        self._path = QPainterPath()
        self._star = QPolygonF()
        self._label: Label | None = None

    def sync(self, objective: Objective) -> None:
        """Re-read ``objective``: place, outline (for areas), name and value."""
        import math

        self.prepareGeometryChange()
        c = objective.geometry.representative_point()
        centre = table_to_scene(c.x, c.y)
        self.setPos(centre)
        self._path = geometry_path(objective.geometry).translated(-centre)
        pts = []
        for i in range(10):
            r = 2.0 if i % 2 == 0 else 0.8
            a = math.radians(90 + 36 * i)
            pts.append(QPointF(r * math.cos(a), -r * math.sin(a)))
        self._star = QPolygonF(pts)
        self._label = Label(f"{objective.name} ({objective.value} VP)", self.ctx, bold=True)
        self._bounds = self._path.boundingRect().united(self._star.boundingRect()).adjusted(-0.5, -0.5, 0.5, 0.5)
        self._keep_scene_box()
        self.update()

    def shape(self) -> QPainterPath:
        path = QPainterPath(self._path)
        path.addPolygon(self._star)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setPen(cosmetic_pen(SELECTED if self.isSelected() else "#7a5a00", 1.5, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self._path)
        painter.setPen(cosmetic_pen("#5a4000", 1.0))
        painter.setBrush(QColor("#f2c230"))
        painter.drawPolygon(self._star)

    def label_request(self, lod: float) -> LabelRequest | None:
        if self._label is None or lod < 2.0:
            return None
        return LabelRequest(self._label, self.pos() + QPointF(0.0, 2.0), True, 2.0, 2)
