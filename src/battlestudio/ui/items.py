"""Scene items of the map: one per unit, commander, terrain feature, town zone, objective,
deployment zone and reinforcement.

This module holds the ground: terrain features, town zones, objectives, deployment zones and
reinforcement entry markers (terrain and towns drawn by the
scene's cached background by default, see ``ui.map_scene``); the base class and the troops'
items live in ``ui.map_item`` and ``ui.troop_items`` and are re-exported here.

Each item holds the id of its record and a ``sync(record)`` that re-reads it (the Tiled
``syncWithMapObject`` idiom): items never hold the truth, the document or the replay state
does. Items are positioned in scene coordinates obtained from ``ui.coords``; nothing here
converts between the table frame and the scene by hand.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPolygonF
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from battlestudio.model.scenario import DeploymentZone, Objective, Reinforcement
from battlestudio.model.terrain import TerrainFeature, TerrainKind, TownZone
from battlestudio.ui.coords import geometry_path, table_to_scene
from battlestudio.ui.labels import Label, LabelRequest, MapContext
from battlestudio.ui.map_item import (  # noqa: F401 - re-exported
    DARK_INK_PEN,
    FRONT_PEN,
    LIGHT_INK_PEN,
    OUTLINE_PEN,
    SELECTED,
    SELECTED_PEN,
    Z_COMMANDER,
    Z_OBJECTIVE,
    Z_REINFORCEMENT,
    Z_TERRAIN,
    Z_TOWN,
    Z_UNIT,
    Z_ZONE,
    MapItem,
)
from battlestudio.ui.styles import (
    HILL_LEVEL_FILLS,
    TERRAIN_STYLES,
    TOWN_BLOCK,
    TOWN_FILL,
    TOWN_OUTLINE,
    brush,
    cm_pen,
    cosmetic_pen,
)
from battlestudio.ui.troop_items import COMMANDER_LABEL_LOD, CommanderItem, UnitItem, UnitShape, unit_shape  # noqa: F401

__all__ = [
    "MapItem",
    "UnitItem",
    "UnitShape",
    "unit_shape",
    "CommanderItem",
    "COMMANDER_LABEL_LOD",
    "TerrainItem",
    "TownItem",
    "ObjectiveItem",
    "DeploymentZoneItem",
    "ReinforcementItem",
    "SELECTED",
    "OUTLINE_PEN",
    "SELECTED_PEN",
    "FRONT_PEN",
    "LIGHT_INK_PEN",
    "DARK_INK_PEN",
    "Z_TERRAIN",
    "Z_TOWN",
    "Z_OBJECTIVE",
    "Z_UNIT",
    "Z_COMMANDER",
]


ALONG_AT = tuple(sorted((i / 20.0 for i in range(1, 20)), key=lambda t: (abs(t - 0.5), t)))
"""Fractions of a line's length where its name is tried, from the middle out (every 5 %, so
a long river seen in part is still named where it is in view)."""


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
            painter.setPen(
                cosmetic_pen(SELECTED, 2.5)
                if selected
                else (cosmetic_pen(style.outline, style.outline_px, style.dash) if style.outline else Qt.PenStyle.NoPen)
            )
            painter.drawPath(self._path)
            if style.hatch is not None:
                painter.setBrush(brush(style.outline, style.hatch))
                painter.setPen(Qt.PenStyle.NoPen)
                painter.drawPath(self._path)

    def draw_highlight(self, painter: QPainter) -> None:
        """Draw the selection highlight alone (over the feature drawn in the background)."""
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(
            cosmetic_pen(SELECTED, 2.0, Qt.PenStyle.DashLine) if self._linear else cosmetic_pen(SELECTED, 2.5)
        )
        painter.drawPath(self._path)

    def label_request(self, lod: float) -> LabelRequest | None:
        if self._label is None or lod < 2.0:
            return None
        if self._linear:
            return self._along_request(lod)
        return LabelRequest(self._label, self._label_anchor, False, 0.0, 4)

    def _along_request(self, lod: float) -> LabelRequest | None:
        """A river's, stream's or road's name along it: candidate places at fractions of its
        length (``ALONG_AT``), each turned to the line's direction there, when the line is
        longer on screen than twice the name."""
        path = self._path
        if path.length() * lod < 2.0 * self._label.width_px:
            return None
        along = []
        for t in ALONG_AT:
            at = path.percentAtLength(path.length() * t)
            p = path.pointAtPercent(at)
            angle = -path.angleAtPercent(at)
            angle = (angle + 90.0) % 180.0 - 90.0  # never upside down
            along.append((p, angle))
        return LabelRequest(self._label, along[0][0], False, 0.0, 4, along=tuple(along))


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
    for x, y in zip(gx[inside].tolist(), gy[inside].tolist(), strict=True):
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


ZONE_ALPHA = 40
"""Fill opacity (0-255) of a deployment zone: the terrain under it stays readable."""


class DeploymentZoneItem(MapItem):
    """A deployment zone: its polygon hatched and outlined in its side's colour, with its name."""

    kind = "deployment_zone"

    def __init__(self, record_id: str, ctx: MapContext) -> None:
        super().__init__(record_id, ctx)
        self.setZValue(Z_ZONE)
        self._path = QPainterPath()
        self._colour = QColor("#808080")
        self._label: Label | None = None
        self.side = ""

    def sync(self, zone: DeploymentZone) -> None:
        """Re-read ``zone``: outline, side colour and name."""
        self.prepareGeometryChange()
        c = zone.polygon.representative_point()
        centre = table_to_scene(c.x, c.y)
        self.setPos(centre)
        self.side = zone.side
        self._path = geometry_path(zone.polygon).translated(-centre)
        self._colour = QColor(self.ctx.side_colours.get(zone.side, "#808080"))
        text = zone.name or "Deployment zone"
        # "French deployment" reads as it is; a zone named for its ground says what it is
        self._label = Label(text if "deploy" in text.casefold() else f"{text} (deployment zone)", self.ctx)
        self._bounds = self._path.boundingRect().adjusted(-0.5, -0.5, 0.5, 0.5)
        self._keep_scene_box()
        self.update()

    def shape(self) -> QPainterPath:
        return self._path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        fill = QColor(self._colour)
        fill.setAlpha(ZONE_ALPHA)
        painter.setBrush(fill)
        painter.setPen(
            cosmetic_pen(SELECTED if self.isSelected() else self._colour.name(), 2.0, Qt.PenStyle.DashDotLine)
        )
        painter.drawPath(self._path)

    def label_request(self, lod: float) -> LabelRequest | None:
        if self._label is None or lod < 1.0:
            return None
        return LabelRequest(self._label, self.pos(), False, 0.0, 4)


def inward(point: tuple[float, float], table: tuple[float, float]) -> tuple[float, float]:
    """Unit vector (table frame, y up) from ``point`` into the table across its nearest edge."""
    x, y = point
    w, h = table
    edges = ((x, (1.0, 0.0)), (w - x, (-1.0, 0.0)), (y, (0.0, 1.0)), (h - y, (0.0, -1.0)))
    return min(edges, key=lambda e: abs(e[0]))[1]


class ReinforcementItem(MapItem):
    """A reinforcement's entry point: an arrow in its side's colour pointing into the table from
    the nearest edge, labelled with the formation and its arrival window ("IV Corps: turns 10–14,
    50 %")."""

    kind = "reinforcement"

    def __init__(self, record_id: str, ctx: MapContext) -> None:
        super().__init__(record_id, ctx)
        self.setZValue(Z_REINFORCEMENT)
        self._arrow = QPolygonF()
        self._colour = QColor("#808080")
        self._label: Label | None = None
        self.side = ""
        self.text = ""

    def sync(self, rein: Reinforcement) -> None:
        """Re-read ``rein``: entry point, direction, colour and label."""
        self.prepareGeometryChange()
        p = (rein.entry_point[0], rein.entry_point[1])
        self.setPos(table_to_scene(*p))
        self.side = rein.side
        dx, dy = inward(p, self.ctx.table_size)
        sx, sy = dx, -dy  # scene y points down
        nx, ny = -sy, sx
        length, half = 6.0, 2.5
        tip = QPointF(sx * length, sy * length)
        self._arrow = QPolygonF(
            [
                QPointF(nx * half * 0.5, ny * half * 0.5),
                QPointF(sx * length * 0.55 + nx * half * 0.5, sy * length * 0.55 + ny * half * 0.5),
                QPointF(sx * length * 0.55 + nx * half, sy * length * 0.55 + ny * half),
                tip,
                QPointF(sx * length * 0.55 - nx * half, sy * length * 0.55 - ny * half),
                QPointF(sx * length * 0.55 - nx * half * 0.5, sy * length * 0.55 - ny * half * 0.5),
                QPointF(-nx * half * 0.5, -ny * half * 0.5),
            ]
        )
        self._colour = QColor(self.ctx.side_colours.get(rein.side, "#808080"))
        who = self.ctx.record_names.get(rein.formation, rein.formation)
        turns = (
            f"turn {rein.earliest_turn}"
            if rein.earliest_turn == rein.latest_turn
            else f"turns {rein.earliest_turn}–{rein.latest_turn}"
        )
        chance = "" if rein.probability >= 1.0 else f", {rein.probability * 100:.0f} %"
        self.text = f"{who}: {turns}{chance}"
        self._label = Label(self.text, self.ctx, bold=True)
        self._tip = tip
        self._bounds = self._arrow.boundingRect().adjusted(-0.5, -0.5, 0.5, 0.5)
        self._keep_scene_box()
        self.update()

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addPolygon(self._arrow)
        path.closeSubpath()
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setBrush(self._colour)
        painter.setPen(cosmetic_pen(SELECTED, 2.5) if self.isSelected() else cosmetic_pen("#202020", 1.0))
        painter.drawPolygon(self._arrow)

    def label_request(self, lod: float) -> LabelRequest | None:
        if self._label is None or lod < 1.0:
            return None
        return LabelRequest(self._label, self.pos() + self._tip, True, 2.0, 2)
