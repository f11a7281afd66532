"""The command overlay: the "command" map layer that shows the command system at work.

For the state shown (the editor's scenario, or the replay's state at the cursor) it draws, from
``analysis.command_picture``:

* each commander's reach — a radius ring labelled with its distance, or a chief's zone bands
  labelled "zone 1 ≤ 20 cm", … (Torden over Europa 2.2–2.5) — only for the selection: the
  selected commanders and the superiors of selected units (``set_reach_ids``; every reach with
  ``show_all_reaches``), since a table of rings hides the troops;
* a line from every subordinate to its commander: green within command distance or a zone,
  red outside it, amber dashed outside but exempt (detached, routed, cavalry on an attack),
  thin grey where no distance binds the pair;
* a red mark on every out-of-command unit or general, whose tooltip gives the consequence the
  ruleset imposes (e.g. "must move back inside in its movement phase …"); all marks are one
  batched item (``command_marks.MarksLayer``, a grid of combined paths and the hit index);
* standing orders as arrows from the recipient to the objective, labelled with the order type
  (dashed while the order is still pending);
* each chief's order budget (OAS, ADCs) as a badge beside him;
* zoomed out (below ``command_items.SUMMARY_LOD`` px per cm), instead of the red lines, outlines
  and badges, one "!n" count of the out-of-command beside each corps commander
  (``command_summaries``);
* detached formations inside a dashed violet outline labelled "detached".

It follows every document change. A commander dragged in the editor pushes one move edit per
mouse move: then only what depends on the moved records is redone — the editor state gets the
moved records (no new state from the scenario), ``analysis.command_update`` recomputes his link,
his subordinates' findings and links (and, for Regimental, the brigade and HQ-chain distances),
and only their items are touched. Any other change (order of battle, ruleset, parameters, other
fields) recomputes the whole picture; even then a mark whose finding and record did not change
is kept, and outlines are cached per immutable record. ``bench/bench_overlay.py`` (Jena) and
``bench/bench_overlay_large.py`` (Leipzig scale) measure a drag. The graphics items it places
are in ``command_items`` and ``command_marks``; the editor state it follows in ``command_state``.
"""

from __future__ import annotations

import weakref

import shiboken6
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable, Mapping

from PySide6.QtCore import QLineF
from PySide6.QtWidgets import QGraphicsItem

from battlestudio.analysis.command_picture import CommandPicture, command_picture
from battlestudio.analysis.command_update import local_change, update_picture
from battlestudio.replay.pmap import ChunkedMap
from battlestudio.replay.state import GameState
from battlestudio.rules import RuleRefused, get_ruleset
from battlestudio.ui.command_items import (
    LAYER,
    LINK_COLOURS,
    ORDER_COLOURS,
    BudgetItem,
    DetachedItem,
    LinksItem,
    OrderItem,
    ReachItem,
)
from battlestudio.ui.command_marks import Mark, MarksLayer
from battlestudio.ui.command_state import MOVED_STATES, document_state, moved_records
from battlestudio.ui.command_summaries import FormationSummaries
from battlestudio.ui.command_shapes import Pool, anchor, hull_path, mark_outline, name_of
from battlestudio.ui.coords import table_to_scene

if TYPE_CHECKING:
    from battlestudio.document import Document
    from battlestudio.ui.map_scene import MapScene

__all__ = ["LAYER", "LINK_COLOURS", "ORDER_COLOURS", "BudgetItem", "CommandOverlay", "OrderItem", "document_state"]


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
    last_update : str
        how the last change was drawn: ``"full"`` (picture recomputed), ``"moved"`` (only what
        depends on the moved records), ``"kept"`` (nothing the picture reads changed) or
        ``"hidden"`` (layer off: state kept, drawn when shown).
    """

    def __init__(self, scene: MapScene, visible: bool = True) -> None:
        self.scene = scene
        self.visible = visible
        self.picture = CommandPicture()
        self.message = ""
        self._state: GameState | None = None
        self._ruleset_id = ""
        self._params: Mapping[str, Any] = {}
        self._document: Document | None = None
        self._doc_state: GameState | None = None  # the editor state the overlay built from the document
        self._drawn_key: tuple | None = None  # what the items show (see _picture_key)
        self._detached_members: dict[str, frozenset[str]] = {}
        self._drawn_orders: tuple = ()  # the picture's orders the order arrows show
        self.last_update = ""
        self.reaches = Pool(scene, lambda: ReachItem("#808080"))
        self.marks = MarksLayer()
        self.marks.setVisible(visible)
        self.marks.attach(scene)
        self.orders = Pool(scene, OrderItem)
        self.budgets = Pool(scene, BudgetItem)
        self.detached = Pool(scene, DetachedItem)
        self.summaries = FormationSummaries(scene)
        self.summaries.layer.setVisible(visible)
        self.show_all_reaches = False
        self._reach_ids: frozenset[str] = frozenset()
        self._follow_selection = True
        self.links = LinksItem()
        self.links.setVisible(visible)
        scene.addItem(self.links)
        hooks = getattr(scene, "layer_hooks", None)
        if hooks is not None:
            hooks[LAYER] = self.set_visible
        obstacles = getattr(scene, "label_obstacles", None)
        if obstacles is not None:  # map labels keep off the budget badges
            obstacles.append(lambda: self.budgets.items.values())
            obstacles.append(lambda: [i for i in self.summaries.items.values() if i.shown()])
        budgets = getattr(scene, "order_budgets", None)
        if budgets is not None:  # "!n" badges keep off the order budgets (SummaryItem.slot)
            budgets.append(lambda: self.budgets.items.values())
        if not visible:
            scene.hidden_layers.add(LAYER)
        if hasattr(scene, "selectionChanged"):
            ref = weakref.ref(self)
            scene.selectionChanged.connect(lambda: (o := ref()) is not None and o._on_selection())

    # -- reaches of the selection -------------------------------------------------------
    def set_reach_ids(self, ids: frozenset[str] | set[str]) -> None:
        """Draw the reaches of these ids (commanders, or units: their superior's) instead of
        following the scene's selection."""
        self._follow_selection = False
        self._reach_ids = frozenset(ids)
        self._apply_reaches()

    def set_show_all_reaches(self, on: bool) -> None:
        """Draw every commander's reach (True) or only the selection's (False, the default)."""
        self.show_all_reaches = on
        self._apply_reaches()

    def _on_selection(self) -> None:
        if not self._follow_selection or not shiboken_valid(self.scene):
            return
        self._reach_ids = frozenset(i.id for i in self.scene.selectedItems() if isinstance(getattr(i, "id", None), str))
        self._apply_reaches()

    def reach_commanders(self) -> set[str]:
        """Commander ids whose reach is drawn now."""
        reaches = self.picture.reaches
        if self.show_all_reaches:
            return set(reaches)
        out = set()
        for rid in self._reach_ids:
            if rid in reaches:  # a commander: his own reach
                out.add(rid)
                continue
            link = self.picture.links.get(rid)  # a unit: its commander's
            if link is not None and link.superior in reaches:
                out.add(link.superior)
        return out

    def _apply_reaches(self, redo: Iterable[str] | None = ()) -> None:
        """Reach items for exactly the reaches shown (``reach_commanders``; none while the
        layer is off): a hidden reach has no item. Those in ``redo`` (every one for None) are
        brought up to the picture and their general's position."""
        state = self._state
        shown = self.reach_commanders() if self.visible and state is not None else set()
        items = self.reaches.items
        for cid in [c for c in items if c not in shown]:
            self.reaches.remove(cid)
        again = set(shown) if redo is None else set(redo)
        for cid in shown:
            if cid in items and cid not in again:
                continue
            assert state is not None
            c, reach = state.commanders.get(cid), self.picture.reaches.get(cid)
            if c is None or reach is None:
                self.reaches.remove(cid)
                continue
            self.reaches.get(cid, True).set_reach(reach, c.position, self._colour(c.side))

    # -- inputs --------------------------------------------------------------------------
    def set_rules(self, ruleset_id: str, params: Mapping[str, Any]) -> None:
        """Use the ruleset registered as ``ruleset_id`` with the scenario's ``params``."""
        self._ruleset_id, self._params = ruleset_id, params
        self._drawn_key = None

    def bind(self, document: Document) -> None:
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
        self._doc_state = None

    def _on_changed(self, changes: list) -> None:
        info = self._document.scenario.info
        if info.ruleset != self._ruleset_id or info.parameters is not self._params:
            self.set_rules(info.ruleset, info.parameters)
        elif self._follow_moves(changes):
            return
        self._drawn_key = None  # an edit may change the scenario's maps in place: always redraw
        self.summaries.forget_formations()  # ... and its order of battle
        state = document_state(self._document)
        self._doc_state = state if state is not getattr(self._document, "state", None) else None
        self.show_state(state)

    def _follow_moves(self, changes: list) -> bool:
        """Bring the editor state and the items up to ``changes`` when they only move or turn
        units and commanders the state already has; False when that is not the case (then
        the caller recomputes everything)."""
        old = self._state
        if old is None or old is not self._doc_state or not changes:
            return False
        records = moved_records(old, self._document.scenario, changes)
        if records is None:
            return False
        new = old.with_records(records) if records else old
        self._state = self._doc_state = new
        MOVED_STATES[self._document] = (self._document.revision, new)
        if not self.visible:
            self._drawn_key, self.last_update = None, "hidden"
        elif self._drawn_key != _picture_key(old, self):
            self.refresh()
        elif records:
            self._update_moved(new, {r.id for r in records})
        else:
            self._drawn_key, self.last_update = _picture_key(new, self), "kept"
        return True

    def _update_moved(self, state: GameState, moved: set[str]) -> None:
        try:
            ruleset = get_ruleset(self._ruleset_id)
        except RuleRefused:
            self.refresh()
            return
        result = update_picture(self.picture, state, ruleset, self._params, moved)
        if result is None:
            self.refresh()
            return
        self.picture, touched = result
        self.message = "; ".join(self.picture.refusals)
        self._sync(state, touched | moved, moved)
        self._drawn_key = _picture_key(state, self)
        self.last_update = "moved"

    def show_state(self, state: GameState) -> None:
        """Draw the command situation of ``state`` (replay: the state at the cursor).

        A replay step whose events changed nothing the picture reads (same record maps, order
        of battle, flags, off-table set, turn, side and phase: a roll, a note) keeps what is
        drawn instead of recomputing it; one that only changed some units' or generals'
        records (moves, formations, losses) updates what depends on them, as a drag does.
        """
        if self._state is not None and self.visible and self._drawn_key == _picture_key(state, self):
            self._state = state
            self.last_update = "kept"
            return
        moved = self._changed_records(state)
        if moved is not None:
            self._state = state
            self._update_moved(state, moved)
            return
        self._state = state
        if self.visible:
            self.refresh()
        else:
            self.last_update = "hidden"

    def _changed_records(self, state: GameState) -> set[str] | None:
        """Ids of the units and commanders whose records differ between the state drawn and
        ``state`` when that is all that differs for the picture (same order of battle, flags,
        orders, off-table set and turn; records of one log compared chunk by chunk), each a
        ``local_change`` (units may be eliminated or gone) and not too many to update one by
        one; else None."""
        old = self._state
        if (
            old is None
            or not self.visible
            or self._drawn_key != _picture_key(old, self)
            or state.oob is not old.oob
            or state.flags is not old.flags
            or state.orders is not old.orders
            or state.off_table != old.off_table
            or state.turn != old.turn
        ):
            return None
        if not isinstance(state.units, ChunkedMap) or not isinstance(state.commanders, ChunkedMap):
            return None
        units = state.units.changed_keys(old.units)
        commanders = state.commanders.changed_keys(old.commanders)
        if len(units) + len(commanders) > max(64, (len(state.units) + len(state.commanders)) // 2):
            return None  # a far jump: recomputing everything is as quick
        for ids, before, after in ((units, old.units, state.units), (commanders, old.commanders, state.commanders)):
            for rid in ids:
                a = before.get(rid)
                if a is None or not local_change(a, after.get(rid)):  # new records: recompute
                    return None
        return units | commanders

    def set_visible(self, visible: bool) -> None:
        """The "command" layer toggle."""
        self.visible = visible
        for pool in (self.orders, self.budgets, self.detached, self.summaries):
            pool.set_visible(visible)
        self.links.setVisible(visible)
        self.marks.setVisible(visible)
        self._apply_reaches()
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
        self.last_update = "full"

    def clear(self) -> None:
        """Draw nothing (no state) until the next ``show_state``: a document's overlay that is
        drawn later does not show the last document's meanwhile."""
        state = self._state
        self.picture, self.message = CommandPicture(), ""
        if state is not None:
            self._sync(state)
        self._state = None
        self._drawn_key = None
        self.last_update = "cleared"

    def _colour(self, side: str) -> str:
        return self.scene.ctx.side_colours.get(side, "#606060")

    def _sync(self, state: GameState, touched: set[str] | None = None, moved: set[str] | None = None) -> None:
        """Bring the items in line with the picture: all of them (``touched`` None), or only
        those of the ids in ``touched`` (findings or links recomputed) and ``moved`` (records
        moved: reaches, budgets, order arrows, detached outlines)."""
        pic, vis = self.picture, self.visible
        moved = touched if moved is None else moved
        self._apply_reaches(None if touched is None else moved)

        lines: dict[str, tuple[str, QLineF] | None] = {}
        for sub in pic.links if touched is None else touched:
            link = pic.links.get(sub)
            if link is None:
                lines[sub] = None
                continue
            a = anchor(state, sub)
            b = state.commanders[link.superior].position
            lines[sub] = (link.status, QLineF(table_to_scene(*a), table_to_scene(*b)))
        if touched is None:
            self.links.set_links({k: v for k, v in lines.items() if v is not None})
        else:
            self.links.update_links(lines)

        marks: dict[str, Mark | None] = {}
        drawn = self.marks.items
        for sub in pic.findings if touched is None else touched:
            f = pic.findings.get(sub)
            if f is None or f.within:
                marks[sub] = None
                continue
            rec = state.units.get(sub) or state.commanders.get(sub)
            mark = drawn.get(sub)
            if mark is None or mark.key != (f, rec):
                text = f.text + (
                    f"\nConsequence ({f.rule}): {f.consequence}" if f.consequence else f"\nExempt: {f.exemption}"
                )
                mark = Mark(mark_outline(rec), bool(f.exemption), text, (f, rec))
            marks[sub] = mark
        if touched is None:
            self.marks.set_marks({k: m for k, m in marks.items() if m is not None})
        else:
            self.marks.update_marks(marks)

        shown: set[str] = set()
        all_orders = touched is None or pic.orders is not self._drawn_orders  # an order came or went
        for o in pic.orders:
            if o.objective is None:
                continue
            if not all_orders and o.recipient not in moved:
                continue
            rec = state.commanders.get(o.recipient) or state.units.get(o.recipient)
            if rec is None:
                continue
            pending = o.status != "delivered"
            side = rec.side
            colour = ORDER_COLOURS.get(o.order_type, "#404040")
            text = f"{o.order_type}" + (" (pending)" if pending else "")
            tip = (
                f"Order {o.order_id}: {o.order_type} from {name_of(state, o.issuer)} to {rec.name or rec.id}, "
                f"{o.status}; objective at {o.objective[0]:.0f}, {o.objective[1]:.0f} cm"
            )
            self.orders.get(o.order_id, vis).set_order(
                rec.position, o.objective, text, pending, colour if side else "#404040", tip
            )
            shown.add(o.order_id)
        if all_orders:
            self.orders.keep_only(shown)
            self._drawn_orders = pic.orders

        for cid in pic.budgets if touched is None else [c for c in moved if c in state.commanders]:
            b = pic.budgets.get(cid)
            if b is None:
                self.budgets.remove(cid)
                continue
            tip = f"{name_of(state, cid)}: {b.unit} {b.capacity}, spent {b.spent} this turn, {b.left} left"
            self.budgets.get(cid, vis).set_budget(
                state.commanders[cid].position, f"{b.unit} {b.left}/{b.capacity}", tip
            )
        if touched is None:
            self.budgets.keep_only(set(pic.budgets))

        if touched is None:
            roots = {n for n in pic.detached if f"detached:{n}" in state.flags}
            self._detached_members = {n: frozenset([n, *state.oob.all_subordinates(n)]) for n in roots}
            self.detached.keep_only(roots)
        for node, members in self._detached_members.items():
            if touched is None or not members.isdisjoint(moved):
                self.detached.get(node, vis).setPath(hull_path(state, members))
        self.summaries.sync(state, pic, vis, touched, moved or ())

    def items(self) -> list[QGraphicsItem]:
        """Every item the overlay has in the scene (for tests and exports)."""
        out: list[QGraphicsItem] = [self.links, self.marks, self.summaries.layer]
        for pool in (self.reaches, self.orders, self.budgets, self.detached, self.summaries.pool):
            out += list(pool.items.values())
        return out


def shiboken_valid(obj: object) -> bool:
    """False once the C++ side of a Qt object (a closed window's scene) is gone."""
    return shiboken6.isValid(obj)


def _picture_key(state: GameState, overlay: CommandOverlay) -> tuple:
    """What the command picture of ``state`` reads, by identity (records are immutable and a
    step that leaves a map alone keeps the same map object), with the rules it is drawn under."""
    return (
        id(state.units),
        id(state.commanders),
        id(state.orders),
        id(state.oob),
        id(state.flags),
        state.off_table,
        state.turn,
        state.side,
        state.phase,
        overlay._ruleset_id,
        id(overlay._params),
    )
