"""Scene items of troops: units as their true footprints, commanders as flags.

Painting is built for maps of thousands of units under software rendering: a unit's drawing
(footprint, glyph, front edge) is computed once per distinct facing, formation and size and
shared (``UnitShape``), so a unit that only moved is repositioned and keeps its cached pixmap;
glyphs and front edges are drawn only when the level of detail (screen pixels per cm) makes
them readable. Commander flags are drawn from one picture per colour and echelon mark. On the
scene's default path ``ui.unit_arrays`` draws every unit from arrays built from the same
drawings and the unit items paint nothing (they stay for hit testing, selection and tools); on
the older ``items`` path ``ui.unit_layer`` draws them all at once when zoomed out.
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlestudio.model.units import Arm, Commander, Unit
from battlestudio.ui.coords import table_to_scene
from battlestudio.ui.labels import LABEL_MIN_LOD, Label, LabelRequest, MapContext
from battlestudio.ui.map_item import (
    _RASTER,
    DARK_INK_PEN,
    FRONT_PEN,
    LIGHT_INK_PEN,
    OUTLINE_PEN,
    SELECTED,
    SELECTED_PEN,
    Z_COMMANDER,
    Z_UNIT,
    MapItem,
)
from battlestudio.ui.styles import ECHELON_MARKS, contrast_ink, nation_colour


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

    __slots__ = ("poly", "front", "glyph", "dot", "min_side", "bounds", "box", "label_anchor", "label_room", "offset")

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
        self.glyph = (
            [QLineF(fl, rr), QLineF(fr, rl)] if arm == Arm.INFANTRY else [QLineF(rl, fr)] if arm == Arm.CAVALRY else []
        )
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
    key = (unit.facing, unit.formation, unit.figures, unit.figure_width, unit.figure_depth, unit.column_ranks, unit.arm)
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
        self._colour: tuple | None = None  # (nation, side colour, eliminated) the colours were chosen for
        self.eliminated = False
        """Drawn faded and struck out (state ``eliminated``)."""
        self.state = ""
        """The state its name shows ("" in order), e.g. ``U`` or ``FU``."""

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
        self.eliminated = unit.state == "eliminated"
        colour = (unit.nation, self.ctx.side_colours.get(unit.side, "#808080"), self.eliminated)
        if colour != self._colour:
            self._colour = colour
            self._fill, self._ink, self._ink_pen = _unit_colours(*colour)
            changed = True
        self.state = unit.state if unit.state not in SHOWN_WITHOUT_STATE else ""
        text = f"{unit.name} ({self.state})" if self.state and unit.name else unit.name
        if self._label is None or self._label.text != text or self._label.struck != self.eliminated:
            self._label = Label(text, self.ctx, struck=self.eliminated) if text else None
            self._label_lod = None
        if changed:
            self.look += 1
            self.update()

    def show_centre(self, centre: QPointF) -> None:
        """Draw the unit with its centre at ``centre`` (scene) without changing its record: a
        replay glide (``ui.play.glide``) moves it between two states this way; the next
        ``sync`` of a moved record puts it at the record's place."""
        if centre == self._centre or self._shape is None:
            return
        self._centre = QPointF(centre)
        self.setPos(self._centre)
        x, y, b = centre.x(), centre.y(), self._shape.box
        self.scene_box = (x + b[0], y + b[1], x + b[2], y + b[3])
        self._scene_poly = self._scene_details = None

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
        if self._shape is not None:  # None: created, not synced yet (``MapScene.flush_units``)
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
        if self.eliminated:
            painter.setPen(STRIKE_PEN)
            painter.drawLines(strike_lines(shape.poly))

    def label_request(self, lod: float) -> LabelRequest | None:
        if self._label is None or lod < LABEL_MIN_LOD:
            return None
        if self._label_lod is None:
            self._label_lod = self._label.min_lod(self._shape.label_room)
        if lod < self._label_lod:
            return None
        return LabelRequest(self._label, self.pos() + self._shape.label_anchor, True, 2.0, 3)


_COLOURS: dict[tuple[str, str, bool], tuple[QColor, QColor, QPen]] = {}


def _unit_colours(nation: str, side_colour: str, eliminated: bool = False) -> tuple[QColor, QColor, QPen]:
    """(fill, ink, ink pen) of a unit of ``nation`` on a side of ``side_colour``, shared; an
    eliminated unit's fill is faded (translucent)."""
    got = _COLOURS.get((nation, side_colour, eliminated))
    if got is None:
        fill = nation_colour(nation, side_colour)
        ink = contrast_ink(fill)
        if eliminated:
            fill = QColor(fill)
            fill.setAlpha(ELIMINATED_ALPHA)
            ink = QColor("#202020")
        pen = LIGHT_INK_PEN if ink.lightness() > 128 else DARK_INK_PEN
        got = _COLOURS[(nation, side_colour, eliminated)] = (fill, ink, pen)
    return got


SHOWN_WITHOUT_STATE = frozenset({"", "O", "eliminated"})
"""Unit states its name does not show (in order; eliminated is struck out instead). Others —
``U`` disorder, ``FU`` complete disorder, a ruleset's own (e.g. ``routed``) — follow the name."""

ELIMINATED_ALPHA = 70
"""Opacity (0–255) of an eliminated unit's fill."""

STRIKE_PEN = QPen(QColor("#a01010"), 2.0)
STRIKE_PEN.setCosmetic(True)
"""The line striking out an eliminated unit (cosmetic, 2 px, dark red: unlike any arm glyph)."""


def strike_lines(poly: QPolygonF) -> list[QLineF]:
    """The strike-out line of a footprint polygon (its first four corners): through its middle,
    parallel to its front, a little beyond both flanks."""
    if poly.size() < 4:
        return []
    a = (poly.at(0) + poly.at(3)) / 2.0
    b = (poly.at(1) + poly.at(2)) / 2.0
    d = (b - a) * 0.12
    return [QLineF(a - d, b + d)]


DOT_PEN = QPen(QColor("#202020"), 1.0)

_FLAGS: dict[tuple, QPixmap] = {}
"""Commander flags drawn once per (fill, ink, mark, selected, pixel ratio)."""

COMMANDER_LABEL_LOD = {"c_in_c": 0.0, "army": 0.0, "corps": 1.0, "division": LABEL_MIN_LOD, "brigade": 2.5}
"""Zoom (px per cm) from which a commander's name is shown, per echelon: army commanders
always; corps commanders from 1 px/cm; division and brigade generals once their commands are
a few pixels across (zoomed out on a Leipzig-sized table, 64 corps names in rows a few pixels
apart covered every brigade, and 316 names would only crowd each other out)."""

COMMANDER_FLAG_LOD = {"c_in_c": 0.0, "army": 0.0, "corps": 0.0, "division": LABEL_MIN_LOD, "brigade": 2.5}
"""Zoom (px per cm) from which a commander is drawn as his flag, per echelon. Below it a
division's four brigades (~70 cm of front) are narrower than two flags (26 px each), so the
flags would hide the troops they command: division and brigade generals are drawn smaller
(``COMMANDER_DOT_LOD``) or not at all. A selected commander always shows his flag."""

COMMANDER_DOT_LOD = {"c_in_c": 0.0, "army": 0.0, "corps": 0.0, "division": 0.0, "brigade": LABEL_MIN_LOD}
"""Zoom (px per cm) from which a commander below his ``COMMANDER_FLAG_LOD`` is drawn as a dot
(``CommanderItem.DOT`` px across) in his colour; below it he is not drawn nor clickable."""

FLAG, DOT, HIDDEN = "flag", "dot", "hidden"
"""How a commander is drawn (``CommanderItem.mode``)."""


def draw_flag(painter: QPainter, fill: QColor, ink: QColor, mark: str, font: QFont, selected: bool) -> None:
    """A commander's staff, flag in ``fill`` and echelon ``mark`` in ``ink``, his position at
    the painter's origin (painter in screen pixels)."""
    staff, w, h = CommanderItem.STAFF, CommanderItem.FLAG_W, CommanderItem.FLAG_H
    painter.setPen(QPen(QColor("#3a2a1a"), 2.0))
    painter.drawLine(QPointF(0.0, 2.0), QPointF(0.0, -staff))
    flag = QRectF(1.0, -staff, w, h)
    painter.setBrush(fill)
    painter.setPen(QPen(SELECTED, 2.5) if selected else QPen(QColor("#202020"), 1.0))
    painter.drawRect(flag)
    painter.setBrush(QColor("#202020"))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawEllipse(QPointF(0.0, 0.0), 2.5, 2.5)
    painter.setPen(ink)
    painter.setFont(font)
    painter.drawText(flag, Qt.AlignmentFlag.AlignCenter, mark)


def flag_picture(fill: QColor, ink: QColor, mark: str, selected: bool, ratio: float, font: QFont) -> QPixmap:
    """``draw_flag`` as a picture of ``CommanderItem._FLAG_BOUNDS`` (its top left corner at the
    picture's): one per colour, mark, selection and pixel ratio (``_FLAGS``), so 316 generals
    need a handful of text layouts, not 316."""
    key = (fill.rgba(), ink.rgba(), mark, selected, ratio, font.key())
    pixmap = _FLAGS.get(key)
    if pixmap is None:
        if len(_FLAGS) > 256:
            _FLAGS.clear()
        b = CommanderItem._FLAG_BOUNDS
        pixmap = QPixmap(round(b.width() * ratio), round(b.height() * ratio))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        p = QPainter(pixmap)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            p.translate(-b.left(), -b.top())
            draw_flag(p, fill, ink, mark, font, selected)
        finally:
            p.end()
        _FLAGS[key] = pixmap
    return pixmap


class CommanderItem(MapItem):
    """A commander as a small flag on a staff, in his side's colour, with his echelon marked.

    The staff stands on the commander's position (base centre). The flag keeps its size on
    screen (it ignores the view's zoom) so generals stay findable on a whole-table view; the
    name of a division or brigade general appears from ``COMMANDER_LABEL_LOD``. Level of
    detail: below ``COMMANDER_FLAG_LOD`` a division or brigade general is a dot, below
    ``COMMANDER_DOT_LOD`` nothing (his shape is then empty, so he cannot be clicked); the zoom
    is read from ``MapContext.px_per_cm`` (``set_lod`` after it changes).
    """

    kind = "commander"
    FLAG_W, FLAG_H, STAFF = 26.0, 15.0, 30.0
    DOT = 6.0

    def __init__(self, record_id: str, ctx: MapContext) -> None:
        super().__init__(record_id, ctx)
        self.setZValue(Z_COMMANDER)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.side = ""
        self.echelon = ""
        self._fill = QColor()
        self._ink = QColor()
        self._mark = ""
        self._label: Label | None = None
        self._label_lod = 0.0
        self._flag_lod = self._dot_lod = 0.0
        self._look: tuple | None = None  # (nation, side colour, echelon) the flag was drawn for
        self.mode = FLAG
        """``FLAG``, ``DOT`` or ``HIDDEN`` at the current zoom (``set_lod``)."""
        self._bounds = self._FLAG_BOUNDS

    _FLAG_BOUNDS = QRectF(-3.0, -STAFF - 2.0, FLAG_W + 6.0, STAFF + 5.0)
    _DOT_BOUNDS = QRectF(-DOT / 2 - 1.0, -DOT / 2 - 1.0, DOT + 2.0, DOT + 2.0)

    def sync(self, commander: Commander) -> None:
        """Re-read ``commander``: position, colours, echelon mark and name (a commander who
        only moved keeps his cached pixmap)."""
        self.side = commander.side
        p = table_to_scene(*commander.position)
        self.setPos(p)
        self.scene_box = (p.x(), p.y(), p.x(), p.y())
        self.echelon = commander.echelon
        look = (commander.nation, self.ctx.side_colours.get(commander.side, "#808080"), commander.echelon)
        if look != self._look:
            self._look = look
            self._fill = nation_colour(commander.nation, look[1])
            self._ink = contrast_ink(self._fill)
            self._mark = ECHELON_MARKS.get(commander.echelon, commander.echelon[:3].upper())
            self._label_lod = COMMANDER_LABEL_LOD.get(commander.echelon, COMMANDER_LABEL_LOD["brigade"])
            self._flag_lod = COMMANDER_FLAG_LOD.get(commander.echelon, COMMANDER_FLAG_LOD["brigade"])
            self._dot_lod = COMMANDER_DOT_LOD.get(commander.echelon, COMMANDER_DOT_LOD["brigade"])
            self.set_lod()
            self.update()
        if self._label is None or self._label.text != commander.name:
            self._label = Label(commander.name, self.ctx, bold=True) if commander.name else None

    def set_lod(self) -> None:
        """Choose flag, dot or nothing for the zoom ``ctx.px_per_cm`` and the selection."""
        lod = self.ctx.px_per_cm
        mode = FLAG if lod >= self._flag_lod or self.isSelected() else DOT if lod >= self._dot_lod else HIDDEN
        if mode != self.mode:
            self.prepareGeometryChange()
            self.mode = mode
            self._bounds = self._FLAG_BOUNDS if mode == FLAG else self._DOT_BOUNDS if mode == DOT else QRectF()
            self.update()

    def itemChange(self, change, value):  # noqa: N802 - Qt API
        if change == QGraphicsItem.GraphicsItemChange.ItemSelectedHasChanged:
            self.set_lod()
        return super().itemChange(change, value)

    def device_extent(self) -> tuple[float, float, float, float] | None:
        """(left, top, right, bottom) in screen pixels about his position of what is drawn
        (label placement keeps names off it), or None when he is not drawn."""
        if self.mode == FLAG:
            return (-3.0, -30.0, 30.0, 3.0)
        if self.mode == DOT:
            h = self.DOT / 2 + 1.0
            return (-h, -h, h, h)
        return None

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        if self.mode == FLAG:
            path.addRect(QRectF(-3.0, -self.STAFF - 1.0, self.FLAG_W + 4.0, self.STAFF + 4.0))
        elif self.mode == DOT:
            path.addRect(self._DOT_BOUNDS)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.mode != FLAG:
            if self.mode == DOT:
                painter.setBrush(self._fill)
                painter.setPen(DOT_PEN)
                r = self.DOT / 2
                painter.drawEllipse(QPointF(0.0, 0.0), r, r)
            return
        if painter.paintEngine().type() != _RASTER:  # PDF, SVG, printer: vectors
            self.draw_flag(painter, self.isSelected())
            return
        pixmap = flag_picture(
            self._fill, self._ink, self._mark, self.isSelected(), painter.device().devicePixelRatioF(), self.ctx.bold
        )
        painter.drawPixmap(self._FLAG_BOUNDS.topLeft(), pixmap)

    def draw_flag(self, painter: QPainter, selected: bool) -> None:
        """Draw staff, flag and echelon mark (item coordinates = screen pixels)."""
        draw_flag(painter, self._fill, self._ink, self._mark, self.ctx.bold, selected)

    def label_request(self, lod: float) -> LabelRequest | None:
        if self._label is None or lod < self._label_lod or self.mode == HIDDEN:
            return None
        return LabelRequest(self._label, self.pos(), True, 4.0, 1)
