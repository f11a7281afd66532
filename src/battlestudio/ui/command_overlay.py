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
one update on a Jena-sized scenario. The graphics items it places are in ``command_items``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

from PySide6.QtCore import QLineF
from PySide6.QtGui import QPainterPath, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from battlestudio.analysis.command_picture import CommandPicture, command_picture
from battlestudio.replay.state import GameState
from battlestudio.rules import RuleRefused, get_ruleset
from battlestudio.ui.command_items import (
    LAYER, LINK_COLOURS, ORDER_COLOURS, BudgetItem, DetachedItem, LinksItem, MarkItem, OrderItem, ReachItem,
)
from battlestudio.ui.coords import table_to_scene

if TYPE_CHECKING:
    from battlestudio.document import Document
    from battlestudio.ui.map_scene import MapScene

__all__ = ["LAYER", "LINK_COLOURS", "ORDER_COLOURS", "BudgetItem", "CommandOverlay", "OrderItem", "document_state"]


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
