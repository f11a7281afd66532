"""The command overlay: the "command" map layer that shows the command system at work.

For the state shown (the editor's scenario, or the replay's state at the cursor) it draws, from
``analysis.command_picture``:

* each commander's reach — a radius ring labelled with its distance, or a chief's zone bands
  labelled "zone 1 ≤ 20 cm", … (Torden over Europa 2.2–2.5);
* a line from every subordinate to its commander: green within command distance or a zone,
  red outside it, amber dashed outside but exempt (detached, routed, cavalry on an attack),
  thin grey where no distance binds the pair;
* a red mark on every out-of-command unit or general, whose tooltip gives the consequence the
  ruleset imposes (e.g. "must move back inside in its movement phase …");
* standing orders as arrows from the recipient to the objective, labelled with the order type
  (dashed while the order is still pending);
* each chief's order budget (OAS, ADCs) as a badge beside him;
* detached formations inside a dashed violet outline labelled "detached".

It recomputes on every document change (a commander dragged in the editor pushes one move edit
per mouse move), so zones, lines and marks follow the drag; ``bench/bench_overlay.py`` measures
one update on a Jena-sized scenario.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Mapping

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QStyleOptionGraphicsItem, QWidget

from battlestudio.analysis.command_picture import EXEMPT, IN, OUT, UNBOUND, CommandPicture, command_picture
from battlestudio.replay.state import GameState
from battlestudio.rules import CommandReach, RuleRefused, get_ruleset
from battlestudio.ui.coords import table_to_scene
from battlestudio.ui.styles import cosmetic_pen

if TYPE_CHECKING:
    from battlestudio.document import Document
    from battlestudio.ui.map_scene import MapScene

LAYER = "command"
"""Name of the overlay's layer in ``MapScene.set_layer_visible`` and the Layers dock."""

Z_REACH, Z_DETACHED, Z_LINKS, Z_MARK, Z_ORDER, Z_BUDGET = 12.0, 13.0, 25.0, 26.0, 27.0, 35.0

LINK_COLOURS = {IN: "#2e8b3a", OUT: "#d0202a", EXEMPT: "#d08a00", UNBOUND: "#8a8a8a"}
"""Line colour per link status."""
OUT_COLOUR = QColor("#d0202a")
DETACHED_COLOUR = QColor("#7a3fb0")
ORDER_COLOURS = {"A": "#b0201a", "T": "#6a4a20", "M": "#1f5fa0", "H": "#2f6f2f", "D": "#7a3fb0",
                 "defence": "#2f6f2f"}
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


class ReachItem(QGraphicsItem):
    """One commander's reach: concentric zone bands or a single radius ring (scene units = cm)."""

    def __init__(self, colour: str) -> None:
        super().__init__()
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
        self.prepareGeometryChange()
        self.reach = reach
        self.colour = QColor(colour)
        self.setPos(table_to_scene(*centre))
        if reach.kind == "zones" and reach.zones:
            last = reach.zones[-1]
            self._outer = (last.outer if last.outer is not None else last.inner + 12.0) + 1.0
        else:
            self._outer = (reach.radius or 0.0) + 1.0
        self.setToolTip(self._tooltip())

    def _tooltip(self) -> str:
        r = self.reach
        if r is None:
            return ""
        if r.kind == "zones":
            bands = "; ".join(f"zone {b.zone}: {b.inner:g}–{b.outer:g} cm" if b.outer is not None
                              else f"zone {b.zone}: beyond {b.inner:g} cm" for b in r.zones)
            return f"Command zones ({r.rule}), measured to {r.measured_to}: {bands}"
        return f"Command distance {r.radius:g} cm ({r.rule}), measured to {r.measured_to}"

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        o = self._outer + 2.0
        return QRectF(-o, -o, 2 * o, 2 * o)

    def shape(self) -> QPainterPath:
        path = QPainterPath()  # tooltips only near the rings, not over the whole disc
        r = self.reach
        radii = [b.outer for b in r.zones if b.outer is not None] if r and r.kind == "zones" else [r.radius or 0.0] if r else []
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


class LinksItem(QGraphicsItem):
    """Every subordinate → commander line in one item, coloured by status."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_LINKS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.lines: dict[str, list[QLineF]] = {k: [] for k in LINK_COLOURS}
        self._rect = QRectF()

    def set_lines(self, lines: dict[str, list[QLineF]]) -> None:
        self.prepareGeometryChange()
        self.lines = lines
        rect = QRectF()
        for ls in lines.values():
            for ln in ls:
                rect = rect.united(QRectF(ln.p1(), ln.p2()).normalized())
        self._rect = rect.adjusted(-1, -1, 1, 1)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        styles = {IN: (1.6, Qt.PenStyle.SolidLine), OUT: (2.4, Qt.PenStyle.SolidLine),
                  EXEMPT: (1.8, Qt.PenStyle.DashLine), UNBOUND: (0.8, Qt.PenStyle.DotLine)}
        for status in (UNBOUND, IN, EXEMPT, OUT):
            width, style = styles[status]
            painter.setPen(cosmetic_pen(LINK_COLOURS[status], width, style))
            painter.drawLines(self.lines.get(status, []))


class MarkItem(QGraphicsPathItem):
    """The outline of an out-of-command (solid red, with a "!" badge) or exempt (amber,
    dashed) unit or general; the tooltip is the ruleset's finding with its consequence."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_MARK)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # clicks go to the map's tools
        self.setAcceptHoverEvents(True)
        self.exempt = False

    def set_mark(self, outline: QPainterPath, exempt: bool, text: str) -> None:
        self.exempt = exempt
        colour = QColor(LINK_COLOURS[EXEMPT]) if exempt else OUT_COLOUR
        self.setPen(cosmetic_pen(colour, 2.5, Qt.PenStyle.DashLine if exempt else Qt.PenStyle.SolidLine))
        self.setBrush(Qt.BrushStyle.NoBrush)
        self.setPath(outline)
        self.setToolTip(text)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return super().boundingRect().adjusted(-2.5, -2.5, 2.5, 2.5)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(self.path().boundingRect())
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        super().paint(painter, option, widget)
        if self.exempt:
            return
        r = self.path().boundingRect()
        badge = QPointF(r.right(), r.top())
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(OUT_COLOUR)
        painter.drawEllipse(badge, 1.6, 1.6)
        painter.setPen(QColor("white"))
        painter.setFont(_font(2.4, True))
        painter.drawText(QRectF(badge.x() - 1.6, badge.y() - 1.6, 3.2, 3.2), Qt.AlignmentFlag.AlignCenter, "!")


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

    def set_order(self, start: tuple[float, float], end: tuple[float, float], text: str, pending: bool,
                  colour: str, tip: str) -> None:
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
        pen = QPen(self.colour, 0.5, Qt.PenStyle.DashLine if self.pending else Qt.PenStyle.SolidLine,
                   Qt.PenCapStyle.RoundCap)
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
        painter.drawText(QRectF(r.left(), r.top() - 3.4, max(r.width(), 14.0), 3.2),
                         Qt.AlignmentFlag.AlignLeft, "detached")


class _Pool:
    """Items of one kind by key: created on demand, removed when no longer wanted."""

    def __init__(self, scene: "MapScene", make: Callable[[], QGraphicsItem]) -> None:
        self.scene, self.make = scene, make
        self.items: dict[str, QGraphicsItem] = {}

    def get(self, key: str, visible: bool) -> QGraphicsItem:
        item = self.items.get(key)
        if item is None:
            item = self.items[key] = self.make()
            item.setVisible(visible)
            self.scene.addItem(item)
        return item

    def keep_only(self, keys: set[str]) -> None:
        for key in [k for k in self.items if k not in keys]:
            self.scene.removeItem(self.items.pop(key))

    def set_visible(self, visible: bool) -> None:
        for item in self.items.values():
            item.setVisible(visible)


class CommandOverlay:
    """The command layer of one ``MapScene``.

    Parameters
    ----------
    scene : MapScene
        the map's scene; the overlay registers the layer ``"command"`` with it.
    visible : bool
        shown at first (on by default, as in play and replay; the editor may start it hidden).

    Attributes
    ----------
    picture : CommandPicture
        what is drawn now (``out_of_command()`` gives the ids marked out of command).
    message : str
        why nothing or only part is drawn ("" when everything could be computed).
    """

    def __init__(self, scene: "MapScene", visible: bool = True) -> None:
        self.scene = scene
        self.visible = visible
        self.picture = CommandPicture()
        self.message = ""
        self._state: GameState | None = None
        self._ruleset_id = ""
        self._params: Mapping[str, Any] = {}
        self._document: "Document | None" = None
        self._drawn_key: tuple | None = None  # what the items show (see _picture_key)
        self.reaches = _Pool(scene, lambda: ReachItem("#808080"))
        self.marks = _Pool(scene, MarkItem)
        self.orders = _Pool(scene, OrderItem)
        self.budgets = _Pool(scene, BudgetItem)
        self.detached = _Pool(scene, DetachedItem)
        self.links = LinksItem()
        self.links.setVisible(visible)
        scene.addItem(self.links)
        hooks = getattr(scene, "layer_hooks", None)
        if hooks is not None:
            hooks[LAYER] = self.set_visible
        if not visible:
            scene.hidden_layers.add(LAYER)

    # -- inputs --------------------------------------------------------------------------
    def set_rules(self, ruleset_id: str, params: Mapping[str, Any]) -> None:
        """Use ruleset ``ruleset_id`` (e.g. ``"toe"``) with the scenario's ``params``."""
        self._ruleset_id, self._params = ruleset_id, params
        self._drawn_key = None

    def bind(self, document: "Document") -> None:
        """Follow ``document``: its scenario is the state shown, recomputed on every change."""
        if self._document is not None:
            self._document.changed.disconnect(self._on_changed)
        self._document = document
        document.changed.connect(self._on_changed)
        self._on_changed([])

    def unbind(self) -> None:
        """Stop following the document (e.g. when the replay takes over the map)."""
        if self._document is not None:
            self._document.changed.disconnect(self._on_changed)
            self._document = None

    def _on_changed(self, changes: list) -> None:
        self.set_rules(self._document.scenario.info.ruleset, self._document.scenario.info.parameters)
        self._drawn_key = None  # an edit may change the scenario's maps in place: always redraw
        self.show_state(document_state(self._document))

    def show_state(self, state: GameState) -> None:
        """Draw the command situation of ``state`` (replay: the state at the cursor).

        A replay step whose events changed nothing the picture reads (same record maps, order
        of battle, flags, off-table set, turn, side and phase: a roll, a note) keeps what is
        drawn instead of recomputing it.
        """
        if self._state is not None and self.visible and self._drawn_key == _picture_key(state, self):
            self._state = state
            return
        self._state = state
        if self.visible:
            self.refresh()

    def set_visible(self, visible: bool) -> None:
        """The "command" layer toggle."""
        self.visible = visible
        for pool in (self.reaches, self.marks, self.orders, self.budgets, self.detached):
            pool.set_visible(visible)
        self.links.setVisible(visible)
        if visible and self._state is not None:
            self.refresh()

    # -- drawing -------------------------------------------------------------------------
    def refresh(self) -> None:
        """Recompute the picture of the current state and bring the items in line with it."""
        state = self._state
        if state is None:
            return
        try:
            ruleset = get_ruleset(self._ruleset_id)
        except RuleRefused as exc:
            self.picture, self.message = CommandPicture(), str(exc)
            self._sync(state)
            self._drawn_key = None
            return
        self.picture = command_picture(state, ruleset, self._params)
        self.message = "; ".join(self.picture.refusals)
        self._sync(state)
        self._drawn_key = _picture_key(state, self)

    def _colour(self, side: str) -> str:
        return self.scene.ctx.side_colours.get(side, "#606060")

    def _sync(self, state: GameState) -> None:
        pic, vis = self.picture, self.visible
        for cid, reach in pic.reaches.items():
            c = state.commanders[cid]
            self.reaches.get(cid, vis).set_reach(reach, c.position, self._colour(c.side))
        self.reaches.keep_only(set(pic.reaches))

        lines: dict[str, list[QLineF]] = {k: [] for k in LINK_COLOURS}
        for sub, link in pic.links.items():
            a = _anchor(state, sub)
            b = state.commanders[link.superior].position
            lines[link.status].append(QLineF(table_to_scene(*a), table_to_scene(*b)))
        self.links.set_lines(lines)

        marked: set[str] = set()
        for sub, f in pic.findings.items():
            if f.within:
                continue
            text = f.text + (f"\nConsequence ({f.rule}): {f.consequence}" if f.consequence else
                             f"\nExempt: {f.exemption}")
            self.marks.get(sub, vis).set_mark(_mark_outline(state, sub), bool(f.exemption), text)
            marked.add(sub)
        self.marks.keep_only(marked)

        shown: set[str] = set()
        for o in pic.orders:
            if o.objective is None:
                continue
            rec = state.commanders.get(o.recipient) or state.units.get(o.recipient)
            if rec is None:
                continue
            pending = o.status != "delivered"
            side = rec.side
            colour = ORDER_COLOURS.get(o.order_type, "#404040")
            text = f"{o.order_type}" + (" (pending)" if pending else "")
            tip = (f"Order {o.order_id}: {o.order_type} from {_name(state, o.issuer)} to {rec.name or rec.id}, "
                   f"{o.status}; objective at {o.objective[0]:.0f}, {o.objective[1]:.0f} cm")
            self.orders.get(o.order_id, vis).set_order(rec.position, o.objective, text, pending,
                                                       colour if side else "#404040", tip)
            shown.add(o.order_id)
        self.orders.keep_only(shown)

        for cid, b in pic.budgets.items():
            tip = f"{_name(state, cid)}: {b.unit} {b.capacity}, spent {b.spent} this turn, {b.left} left"
            self.budgets.get(cid, vis).set_budget(state.commanders[cid].position, f"{b.unit} {b.left}/{b.capacity}", tip)
        self.budgets.keep_only(set(pic.budgets))

        roots = {n for n in pic.detached if f"detached:{n}" in state.flags}
        for node in roots:
            members = [node] + [m for m in state.oob.all_subordinates(node)]
            path = _hull_path(state, members)
            self.detached.get(node, vis).setPath(path)
        self.detached.keep_only(roots)

    def items(self) -> list[QGraphicsItem]:
        """Every item the overlay has in the scene (for tests and exports)."""
        out: list[QGraphicsItem] = [self.links]
        for pool in (self.reaches, self.marks, self.orders, self.budgets, self.detached):
            out += list(pool.items.values())
        return out


def _picture_key(state: GameState, overlay: CommandOverlay) -> tuple:
    """What the command picture of ``state`` reads, by identity (records are immutable and a
    step that leaves a map alone keeps the same map object), with the rules it is drawn under."""
    return (id(state.units), id(state.commanders), id(state.orders), id(state.oob), id(state.flags),
            state.off_table, state.turn, state.side, state.phase, overlay._ruleset_id, id(overlay._params))


def document_state(document: "Document") -> GameState:
    """The game state a document shows: a replaying document's state at its cursor (its
    ``state``, with orders and flags), else the editor's scenario as deployed."""
    state = getattr(document, "state", None)
    return state if isinstance(state, GameState) else GameState.from_scenario(document.scenario)


def _name(state: GameState, rid: str) -> str:
    rec = state.commanders.get(rid) or state.units.get(rid)
    return rec.name if rec is not None and rec.name else rid


def _anchor(state: GameState, rid: str) -> tuple[float, float]:
    """Where a link or mark attaches: a unit's footprint centre, a general's position (cm)."""
    u = state.units.get(rid)
    if u is not None:
        c = u.footprint().centroid
        return (c.x, c.y)
    return state.commanders[rid].position


def _mark_outline(state: GameState, rid: str) -> QPainterPath:
    """A unit's footprint grown by 1 cm, or a 3.5 cm circle round a general (scene path)."""
    path = QPainterPath()
    u = state.units.get(rid)
    if u is not None:
        ring = u.footprint().buffer(1.0, join_style=2).exterior.coords
        path.addPolygon(QPolygonF([table_to_scene(x, y) for x, y in ring]))
        path.closeSubpath()
    else:
        path.addEllipse(table_to_scene(*state.commanders[rid].position), 3.5, 3.5)
    return path


def _hull_path(state: GameState, members: list[str]) -> QPainterPath:
    from shapely import MultiPoint, unary_union
    from shapely.geometry import Point as SPoint

    shapes = []
    for m in members:
        if m in state.units:
            shapes.append(state.units[m].footprint())
        elif m in state.commanders:
            shapes.append(SPoint(state.commanders[m].position))
    path = QPainterPath()
    if not shapes:
        return path
    hull = unary_union(shapes).convex_hull.buffer(3.0)
    if isinstance(hull, MultiPoint) or hull.is_empty:
        return path
    pts = [table_to_scene(x, y) for x, y in hull.exterior.coords]
    path.addPolygon(QPolygonF(pts))
    path.closeSubpath()
    return path
