"""MapScene: the scene of the map, one item per record, reconciled by id.

The scene keeps a dict per record kind from id to item and reconciles it with any mapping of
records: create the items of new ids, ``sync`` those whose record changed, remove those whose
record is gone. The editor feeds it the document's scenario; the replay feeds it the state at
the cursor (``MapView.show_state``). It also owns layer visibility and paints the table.

Terrain features and town zones never change during a replay, so by default
(``MapContext.static_in_background``) the scene paints them in its background, which the view
caches as a pixmap: a repaint then blits it instead of drawing 400 features, and only an edit of
terrain or towns (or a zoom, pan or layer toggle) redraws the part that changed. Their items stay
in the scene, flagged ``ItemHasNoContents``, for hit testing, selection and tools; a selected one
paints its highlight over the background.

Units (``unit_path`` "arrays", the default) are rows of ``ui.unit_arrays.UnitArrays``, drawn
at every zoom by one ``ArrayUnitLayer``; a replay step writes the changed rows and leaves their
items stale until something asks for them (``flush_units``: reading ``items_by_kind["units"]``,
a click or hover in the view, the selection). The older path (``unit_path`` "items", or
``BATTLESTUDIO_UNIT_PATH=items``) syncs every changed item on each step and draws units one item
each, or by one ``UnitLayer`` below ``unit_layer.BATCH_LOD``; it is kept to compare pictures and
timings.
"""

from __future__ import annotations

import os
import weakref

import numpy as np
import shiboken6
from collections.abc import Callable, Iterable, Mapping

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from battlestudio.model.terrain import TerrainKind
from battlestudio.ui.aggregate_layer import LAYER as FORMATIONS_LAYER
from battlestudio.ui.aggregate_layer import AggregateLayer
from battlestudio.ui.commander_arrays import SELECTED as COMMANDER_SELECTED
from battlestudio.ui.commander_arrays import ArrayCommanderLayer, CommanderArrays
from battlestudio.ui.coords import table_rect_to_scene
from battlestudio.ui.items import (
    CommanderItem,
    DeploymentZoneItem,
    MapItem,
    ObjectiveItem,
    ReinforcementItem,
    TerrainItem,
    TownItem,
    UnitItem,
)
from battlestudio.ui.labels import MapContext
from battlestudio.ui.overlays import draw_table
from battlestudio.ui.troop_items import COMMANDER_DOT_LOD, COMMANDER_FLAG_LOD
from battlestudio.ui.unit_arrays import HIDDEN, SELECTED, ArrayUnitLayer, UnitArrays
from battlestudio.ui.unit_layer import BATCH_LOD, UnitLayer

UNIT_PATH = os.environ.get("BATTLESTUDIO_UNIT_PATH", "arrays")
"""How new scenes draw units: ``arrays`` (``ArrayUnitLayer``) or ``items`` (one item each)."""

COMMANDER_LODS = sorted(set(COMMANDER_FLAG_LOD.values()) | set(COMMANDER_DOT_LOD.values()))
"""Zooms at which some commander changes between flag, dot and nothing."""

ITEM_CLASSES: dict[str, type[MapItem]] = {
    "units": UnitItem,
    "commanders": CommanderItem,
    "terrain": TerrainItem,
    "towns": TownItem,
    "objectives": ObjectiveItem,
    "deployment_zones": DeploymentZoneItem,
    "reinforcements": ReinforcementItem,
}
"""Scenario container → item class drawing its records."""

_NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents

STATIC_KINDS = ("terrain", "towns")
"""Containers drawn in the scene's background when ``MapContext.static_in_background``."""

MARGIN = 20.0
"""Scene margin in cm around the table (room to pan and to park units off the table)."""


class UnitItems(dict):
    """The unit items by id; reading an item (``[id]``, ``get``) or walking them syncs what a
    replay step left stale (``MapScene.flush_units``), so callers always see the record's
    place. The scene itself reads the plain ``dict`` methods."""

    def __init__(self, flush: Callable[[Iterable[str] | None], None]) -> None:
        super().__init__()
        self._method = weakref.WeakMethod(flush)  # type: ignore[arg-type]  # no cycle through the scene

    def _flush(self, ids: Iterable[str] | None) -> None:
        flush = self._method()
        if flush is not None:
            flush(ids)

    def __getitem__(self, rid: str) -> MapItem:
        self._flush((rid,))
        return dict.__getitem__(self, rid)

    def get(self, rid: str, default: object = None) -> object:  # type: ignore[override]
        self._flush((rid,))
        return dict.get(self, rid, default)

    def values(self):  # type: ignore[override]
        self._flush(None)
        return dict.values(self)

    def items(self):  # type: ignore[override]
        self._flush(None)
        return dict.items(self)

    def __iter__(self):
        self._flush(None)
        return dict.__iter__(self)


class _UnitsIn(Mapping):
    """``MapScene.unit_items_in``: the units in a rectangle, looked up when first read."""

    def __init__(self, scene: MapScene, rect: QRectF) -> None:
        self._scene, self._rect = scene, QRectF(rect)
        self._items: dict[str, MapItem] | None = None

    def _get(self) -> dict[str, MapItem]:
        if self._items is None:
            s, r = self._scene, self._rect
            a = s.unit_arrays
            ids = [a.ids[i] for i in a.rows_in(r.left(), r.top(), r.right(), r.bottom())]
            s.flush_units(ids)
            items = s.items_by_kind["units"]
            self._items = {rid: dict.__getitem__(items, rid) for rid in ids}
        return self._items

    def __getitem__(self, rid: str) -> MapItem:
        return self._get()[rid]

    def __iter__(self):
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


def layer_of(item: MapItem) -> str:
    """Layer name of an item: ``units:<side>``, ``commanders``, ``terrain:<kind>``, ``towns``,
    ``objectives``, ``deployment_zones``, ``reinforcements``."""
    if isinstance(item, UnitItem):
        return f"units:{item.side}"
    if isinstance(item, TerrainItem):
        return f"terrain:{item.terrain_kind.value}"
    return {
        "commander": "commanders",
        "town": "towns",
        "objective": "objectives",
        "deployment_zone": "deployment_zones",
        "reinforcement": "reinforcements",
    }[item.kind]


class MapScene(QGraphicsScene):
    """The map's scene (1 scene unit = 1 table cm, y down; see ``ui.coords``).

    Attributes
    ----------
    ctx : MapContext
        colours and label settings shared by the items.
    items_by_kind : dict[str, dict[str, MapItem]]
        container name → id → item.
    table_size : tuple[float, float]
        (width, height) in cm.
    px_per_cm : float
        the zoom of the (first) view, used for the grid spacing.
    """

    def __init__(self, parent=None, unit_path: str | None = None) -> None:
        super().__init__(parent)
        self.ctx = MapContext()
        self.unit_path = unit_path or UNIT_PATH
        self.arrays_on = self.unit_path == "arrays"
        """Units drawn from ``unit_arrays`` (and items synced lazily)."""
        self.items_by_kind: dict[str, dict[str, MapItem]] = {k: {} for k in ITEM_CLASSES}
        self.unit_arrays = UnitArrays()
        """The units' rows (kept and drawn only when ``arrays_on``)."""
        self._stale: set[str] = set()  # unit ids whose item is behind its record (arrays path)
        self._synced: dict[str, object] = {}  # unit id -> record its item was last synced with
        self.commander_arrays = CommanderArrays()
        """The commanders' rows (kept and drawn only when ``arrays_on``)."""
        self._stale_commanders: set[str] = set()  # commander ids whose item is behind its record
        self._synced_commanders: dict[str, object] = {}  # commander id -> record his item was synced with
        if self.arrays_on:
            self.items_by_kind["units"] = UnitItems(self.flush_units)
            self.items_by_kind["commanders"] = UnitItems(self.flush_commanders)
        self._records: dict[str, dict[str, object]] = {k: {} for k in ITEM_CLASSES}
        self.hidden_layers: set[str] = set()
        self.layer_hooks: dict[str, Callable[[bool], None]] = {}
        """Extra layers drawn by overlays (e.g. ``"command"``): name → what toggling it does."""
        self.label_obstacles: list[Callable[[], Iterable[QGraphicsItem]]] = []
        """Functions giving overlay items (screen-sized, ``ItemIgnoresTransformations``) that map
        labels must keep off, e.g. the command overlay's order-budget badges."""
        self.order_budgets: list[Callable[[], Iterable[QGraphicsItem]]] = []
        """Functions giving the command overlays' order-budget badges, which the "!n" summary
        badges keep off (``SummaryItem.slot``)."""
        self.grid_visible = True
        self.table_size = (240.0, 180.0)
        self.px_per_cm = 1.0
        self.revision = 0
        """Grows whenever items or layer visibility change."""
        self.kind_revision: dict[str, int] = {k: 0 for k in ITEM_CLASSES}
        """Per container, grows whenever its items change (the view re-places labels only when a
        kind whose labels or obstacles it shows at the current zoom changed)."""
        self.layer_revision = 0
        """Grows whenever layer visibility changes."""
        self._static_order: list[MapItem] | None = None  # terrain and towns in stacking order
        self._highlighted: set[MapItem] = set()  # static items painting their selection
        # through a weak reference: a scene being garbage-collected clears its items and emits
        # selectionChanged once more, and PySide then raised "Slot 'MapScene::' not found" in
        # whatever event loop ran next (an order-dependent failure of the GUI tests)
        me = weakref.ref(self)

        def selection_changed() -> None:
            scene = me()
            if scene is not None and shiboken6.isValid(scene):
                scene._selection_changed()

        self.selectionChanged.connect(selection_changed)
        self._commander_band = -1  # how many of COMMANDER_LODS the zoom reaches
        self.units_batched = False
        """Units are drawn by ``unit_layer`` (zoomed out), their own items paint nothing."""
        self.unit_layer = UnitLayer(self)
        self.unit_layer.setVisible(False)
        self.addItem(self.unit_layer)
        self.aggregate_layer = AggregateLayer(self)
        """One marker per corps or division when zoomed out (``ui.aggregate_layer``)."""
        self.addItem(self.aggregate_layer)
        self.layer_hooks[FORMATIONS_LAYER] = self.aggregate_layer.set_shown
        self.array_layer = ArrayUnitLayer(self.unit_arrays)
        self.array_layer.setVisible(self.arrays_on)
        self.addItem(self.array_layer)
        self.commander_layer = ArrayCommanderLayer(self.commander_arrays, self.ctx)
        self.commander_layer.setVisible(self.arrays_on)
        self.addItem(self.commander_layer)
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.set_table(*self.table_size)

    # -- table ---------------------------------------------------------------------------
    def set_table(self, width: float, height: float) -> None:
        """Set the table size in cm; the scene rect is the table plus ``MARGIN`` all round."""
        self.table_size = self.ctx.table_size = (width, height)
        self.setSceneRect(table_rect_to_scene(0.0, 0.0, width, height).adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN))
        self.unit_layer.set_bounds(self.sceneRect())
        self.aggregate_layer.set_bounds(self.sceneRect())
        self.array_layer.set_bounds(self.sceneRect())
        self.commander_layer.set_bounds(self.sceneRect())
        self.update()

    def set_zoom(self, px_per_cm: float) -> None:
        """The view's zoom changed to ``px_per_cm``: grid spacing, commanders drawn as flags,
        dots or not at all (``COMMANDER_FLAG_LOD``), and units batched below ``BATCH_LOD`` or
        drawn one by one above it."""
        self.px_per_cm = self.ctx.px_per_cm = px_per_cm
        band = sum(px_per_cm >= t for t in COMMANDER_LODS)
        if band != self._commander_band:  # a division's flag shows or hides
            self._commander_band = band
            for item in dict.values(self.items_by_kind["commanders"]):
                item.set_lod()  # type: ignore[attr-defined]
        if self.arrays_on:
            self.array_layer.mark_all()
            self.commander_layer.zoom_changed()
            return
        batched = px_per_cm < BATCH_LOD
        if batched == self.units_batched:
            return
        self.units_batched = batched
        for item in self.items_by_kind["units"].values():
            item.setFlag(_NO_CONTENTS, batched)
        self.unit_layer.setVisible(batched)
        self.unit_layer.mark_all()

    def table_rect(self) -> QRectF:
        """The table in scene coordinates."""
        return table_rect_to_scene(0.0, 0.0, *self.table_size)

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:  # noqa: N802 - Qt API
        draw_table(painter, rect, *self.table_size, self.grid_visible, self.px_per_cm)
        if self.ctx.static_in_background:
            self.draw_static(painter, rect)

    def draw_static(self, painter: QPainter, rect: QRectF) -> None:
        """Draw the shown terrain features and town zones meeting scene rectangle ``rect``, in
        stacking order (painter in scene coordinates)."""
        if self._static_order is None:
            self._static_order = sorted(
                (i for k in STATIC_KINDS for i in self.items_by_kind[k].values()), key=lambda i: i.zValue()
            )
        hidden = self.hidden_layers
        for item in self._static_order:
            if item.boundingRect().intersects(rect) and layer_of(item) not in hidden:
                item.draw(painter)

    def set_static_in_background(self, on: bool) -> None:
        """Draw terrain and towns in the background (True, the default) or as items of their own."""
        self.ctx.static_in_background = on
        for k in STATIC_KINDS:
            for item in self.items_by_kind[k].values():
                self._set_static_flags(item)
        self.invalidate(self.sceneRect(), QGraphicsScene.SceneLayer.BackgroundLayer)

    def _set_static_flags(self, item: MapItem) -> None:
        background = self.ctx.static_in_background
        item.setFlag(_NO_CONTENTS, background and not item.isSelected())
        item.setCacheMode(
            QGraphicsItem.CacheMode.NoCache if background else QGraphicsItem.CacheMode.DeviceCoordinateCache
        )

    def _selection_changed(self) -> None:
        if self.units_batched:
            self.unit_layer.mark_all()
        if self.arrays_on:
            a = self.unit_arrays
            chosen = [a.row[i.id] for i in self.selectedItems() if isinstance(i, UnitItem) and i.id in a.row]
            was = np.flatnonzero(a.flags & SELECTED)
            now = np.array(sorted(chosen), dtype=np.intp)
            if not np.array_equal(was, now):
                a.set_flag(was, SELECTED, False)
                a.set_flag(now, SELECTED, True)
                self.array_layer.mark_boxes(a.boxes(np.union1d(was, now).astype(np.intp)))
                self.flush_units([a.ids[r] for r in now])
            ca = self.commander_arrays
            chosen = [ca.row[i.id] for i in self.selectedItems() if isinstance(i, CommanderItem) and i.id in ca.row]
            was = np.flatnonzero(ca.flags & COMMANDER_SELECTED)
            now = np.array(sorted(chosen), dtype=np.intp)
            if not np.array_equal(was, now):
                ca.flags[was] &= ~np.uint8(COMMANDER_SELECTED)
                ca.flags[now] |= COMMANDER_SELECTED
                ca.touch()
                self.commander_layer.update()
                self.flush_commanders([ca.ids[r] for r in now])
        now = {i for i in self.selectedItems() if getattr(i, "kind", "") in ("terrain", "town")}
        for item in now ^ self._highlighted:
            self._set_static_flags(item)
            item.update()
        self._highlighted = now

    def _static_changed(self, rect: QRectF) -> None:
        """Terrain or towns changed within scene rectangle ``rect``: redraw that background."""
        self._static_order = None
        if rect.isValid():
            self.invalidate(rect, QGraphicsScene.SceneLayer.BackgroundLayer)

    # -- reconciling ---------------------------------------------------------------------
    def reconcile(
        self, kind: str, records: Mapping[str, object], ids: Iterable[str] | None = None, lazy: bool = False
    ) -> None:
        """Bring the items of ``kind`` in line with ``records`` (id → frozen record).

        Parameters
        ----------
        kind : str
            ``units``, ``commanders``, ``terrain``, ``towns`` or ``objectives``.
        records : Mapping[str, record]
            the records as they are now.
        ids : Iterable[str] | None
            the ids touched; None reconciles every id (records present and items held).
            A record that is the very object last synced is not synced again.
        lazy : bool
            units and commanders on the arrays path: leave the changed items (and new unit
            items) stale, a replay step or an open, until something reads them (``flush_units``);
            otherwise they are synced now.
        """
        if kind == "units" and self.arrays_on:
            self._reconcile_units(records, ids, lazy)
            return
        if kind == "commanders" and self.arrays_on:
            self._reconcile_commanders(records, ids, lazy)
            return
        items = self.items_by_kind[kind]
        seen = self._records[kind]
        static = kind in STATIC_KINDS
        units = kind == "units"
        dirty = QRectF()
        boxes: list[tuple[float, float, float, float]] = []  # units: where the drawing changed
        todo = set(records) | set(items) if ids is None else set(ids)
        for rid in sorted(todo):  # by id: item order (and so label placement) is the same every run
            rec = records.get(rid)
            item = items.get(rid)
            if rec is None:
                if item is not None:
                    if static:
                        dirty = dirty.united(item.sceneBoundingRect())
                        self._highlighted.discard(item)
                    elif units:
                        boxes.append(item.scene_box)
                        self.unit_layer.place(item, None)
                    self.removeItem(item)
                    del items[rid]
                    seen.pop(rid, None)
                continue
            if item is None:
                item = ITEM_CLASSES[kind](rid, self.ctx)
                item.sync(rec)
                items[rid] = item
                item.setVisible(layer_of(item) not in self.hidden_layers)
                if static:
                    self._set_static_flags(item)
                    dirty = dirty.united(item.sceneBoundingRect())
                elif units:
                    item.setFlag(_NO_CONTENTS, self.units_batched)
                    boxes.append(item.scene_box)
                    self.unit_layer.place(item, item.scene_box)
                self.addItem(item)
            elif seen.get(rid) is not rec:
                if static:
                    before = layer_of(item)
                    dirty = dirty.united(item.sceneBoundingRect())
                elif units:
                    box, look, before = item.scene_box, item.look, item.side
                else:
                    before = layer_of(item)
                item.sync(rec)
                if static:
                    dirty = dirty.united(item.sceneBoundingRect())
                elif units and (item.scene_box != box or item.look != look):
                    boxes += (box, item.scene_box)
                    self.unit_layer.place(item, item.scene_box)
                if (item.side if units else layer_of(item)) != before:
                    item.setVisible(layer_of(item) not in self.hidden_layers)
                    if units:
                        boxes.append(item.scene_box)
            seen[rid] = rec
        if todo:
            self.revision += 1
            self.kind_revision[kind] += 1
        if static and todo:
            self._static_changed(dirty)
        elif boxes:
            self.unit_layer.mark_dirty(boxes)

    def _reconcile_units(self, records: Mapping[str, object], ids: Iterable[str] | None, lazy: bool) -> None:
        """``reconcile`` of the units on the arrays path: rows written in a few vectorised
        steps, new and removed items added and removed now, changed items synced now or
        (``lazy``) when read."""
        items = self.items_by_kind["units"]
        seen = self._records["units"]
        a = self.unit_arrays
        a.side_colours = self.ctx.side_colours
        todo = set(records) | set(dict.keys(items)) if ids is None else set(ids)
        gone: list[str] = []
        new_ids: list[str] = []
        new_vals: list[tuple] = []
        changed: list[str] = []
        vals: list[tuple] = []
        for rid in sorted(todo):  # by id: the drawing order is the same every run
            rec = records.get(rid)
            item = dict.get(items, rid)
            if rec is None:
                if item is not None:
                    self.removeItem(item)
                    dict.__delitem__(items, rid)
                    seen.pop(rid, None)
                    self._synced.pop(rid, None)
                    self._stale.discard(rid)
                    gone.append(rid)
                continue
            if item is None:
                item = UnitItem(rid, self.ctx)
                if lazy:  # placed when first read (``flush_units``), like a changed one
                    self._stale.add(rid)
                else:
                    item.sync(rec)
                    self._synced[rid] = rec
                dict.__setitem__(items, rid, item)
                item.setVisible(layer_of(item) not in self.hidden_layers)
                item.setFlag(_NO_CONTENTS, True)
                item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
                self.addItem(item)
                new_ids.append(rid)
                new_vals.append(a.values_of(rec))  # type: ignore[arg-type]
            elif seen.get(rid) is not rec:
                changed.append(rid)
                vals.append(a.values_of(rec))  # type: ignore[arg-type]
                self._stale.add(rid)
            seen[rid] = rec
        boxes = []
        if gone:
            boxes.append(a.remove(gone))
        if new_ids:
            a.append(new_ids, new_vals)
            new_rows = np.arange(len(a) - len(new_ids), len(a), dtype=np.intp)
            self._hide_rows(new_rows)
            boxes.append(a.boxes(new_rows))
        if changed:
            rows = [a.row[r] for r in changed]
            boxes.append(a.update(rows, vals))
            r = np.array(rows, dtype=np.intp)
            self._hide_rows(r)
            chosen = r[(a.flags[r] & SELECTED) != 0]
            if not lazy:
                self.flush_units(changed)
            elif chosen.size:
                self.flush_units([a.ids[i] for i in chosen])
        if todo:
            self.revision += 1
            self.kind_revision["units"] += 1
        if boxes:
            self.array_layer.mark_boxes(np.concatenate(boxes))

    def _reconcile_commanders(self, records: Mapping[str, object], ids: Iterable[str] | None, lazy: bool) -> None:
        """``reconcile`` of the commanders on the arrays path: rows written, new and removed
        items added and removed now (painting nothing: ``commander_layer`` draws them), changed
        items synced now or (``lazy``) when read."""
        items = self.items_by_kind["commanders"]
        seen = self._records["commanders"]
        a = self.commander_arrays
        a.side_colours = self.ctx.side_colours
        todo = set(records) | set(dict.keys(items)) if ids is None else set(ids)
        gone: list[str] = []
        new_ids: list[str] = []
        new_vals: list[tuple] = []
        changed: list[str] = []
        vals: list[tuple] = []
        for rid in sorted(todo):  # by id: the drawing order is the same every run
            rec = records.get(rid)
            item = dict.get(items, rid)
            if rec is None:
                if item is not None:
                    self.removeItem(item)
                    dict.__delitem__(items, rid)
                    seen.pop(rid, None)
                    self._synced_commanders.pop(rid, None)
                    self._stale_commanders.discard(rid)
                    gone.append(rid)
                continue
            if item is None:
                item = CommanderItem(rid, self.ctx)
                item.sync(rec)  # type: ignore[arg-type]
                self._synced_commanders[rid] = rec
                dict.__setitem__(items, rid, item)
                item.setVisible(layer_of(item) not in self.hidden_layers)
                item.setFlag(_NO_CONTENTS, True)
                self.addItem(item)
                new_ids.append(rid)
                new_vals.append(a.values_of(rec))  # type: ignore[arg-type]
            elif seen.get(rid) is not rec:
                changed.append(rid)
                vals.append(a.values_of(rec))  # type: ignore[arg-type]
                self._stale_commanders.add(rid)
            seen[rid] = rec
        a.remove(gone)
        a.append(new_ids, new_vals)
        if changed:
            rows = [a.row[r] for r in changed]
            a.update(rows, vals)
            if not lazy:
                self.flush_commanders(changed)
            else:
                chosen = [rid for rid, r in zip(changed, rows, strict=True) if a.flags[r] & COMMANDER_SELECTED]
                self.flush_commanders(chosen)
        if todo:
            self.revision += 1
            self.kind_revision["commanders"] += 1
        if gone or new_ids or changed:
            self.commander_layer.update()

    def flush_commanders(self, ids: Iterable[str] | None = None) -> None:
        """Sync the commander items a lazy ``reconcile`` left behind their records (all, or ``ids``)."""
        stale = self._stale_commanders
        if not stale:
            return
        targets = list(stale) if ids is None else [i for i in ids if i in stale]
        items = self.items_by_kind["commanders"]
        records = self._records["commanders"]
        for rid in targets:
            stale.discard(rid)
            item = dict.get(items, rid)
            rec = records.get(rid)
            if item is None or rec is None or self._synced_commanders.get(rid) is rec:
                continue
            item.sync(rec)  # type: ignore[attr-defined]
            self._synced_commanders[rid] = rec

    def _hide_rows(self, rows: np.ndarray) -> None:
        """Set the ``HIDDEN`` bit of ``rows`` from their side's layer."""
        a = self.unit_arrays
        hidden = [a.side_id(n[6:]) for n in self.hidden_layers if n.startswith("units:")]
        if hidden:
            a.set_flag(rows[np.isin(a.side[rows], hidden)], HIDDEN, True)
            a.set_flag(rows[~np.isin(a.side[rows], hidden)], HIDDEN, False)
        else:
            a.set_flag(rows, HIDDEN, False)

    def flush_units(self, ids: Iterable[str] | None = None) -> None:
        """Sync the unit items a lazy ``reconcile`` left behind their records (all, or ``ids``);
        all of them and every stale commander item when ``ids`` is None."""
        if ids is None:
            self.flush_commanders()
        stale = self._stale
        if not stale:
            return
        targets = list(stale) if ids is None else [i for i in ids if i in stale]
        items = self.items_by_kind["units"]
        records = self._records["units"]
        for rid in targets:
            stale.discard(rid)
            item = dict.get(items, rid)
            rec = records.get(rid)
            if item is None or rec is None:
                continue
            if self._synced.get(rid) is rec:
                self.unit_arrays.synced(rid, item.scene_box)
                continue
            side = item.side
            item.sync(rec)  # type: ignore[attr-defined]
            self._synced[rid] = rec
            self.unit_arrays.synced(rid, item.scene_box)
            if item.side != side:  # type: ignore[attr-defined]
                item.setVisible(layer_of(item) not in self.hidden_layers)

    def flush_units_in(self, rect: QRectF) -> None:
        """Sync the stale unit items that are, or are to be, within scene rectangle ``rect``
        (a hover or tooltip there finds the unit where its record is); and the stale commander
        items (a flag is a screen size: any may reach into ``rect``)."""
        self.flush_commanders()
        if not self._stale:
            return
        a = self.unit_arrays
        rows = a.stale_rows_in(rect.left(), rect.top(), rect.right(), rect.bottom())
        self.flush_units([a.ids[r] for r in rows])

    def unit_items_in(self, rect: QRectF) -> Mapping[str, MapItem]:
        """id → unit item of the shown units whose footprint meets scene rectangle ``rect``,
        found from the arrays and synced when first read (label placement reads these, and
        only at the zooms that show unit names); every unit on the items path."""
        if not self.arrays_on:
            return self.items_by_kind["units"]
        return _UnitsIn(self, rect)

    def commander_items_named(self, rect: QRectF, lod: float) -> list[MapItem]:
        """The commander items whose position is within scene rectangle ``rect`` and who are
        drawn and named at zoom ``lod`` (``COMMANDER_LABEL_LOD``), in item order, synced; found
        from the arrays (at whole-table zoom a few army commanders of thousands). Every
        commander item on the items path."""
        items = self.items_by_kind["commanders"]
        if not self.arrays_on:
            return list(items.values())
        a = self.commander_arrays
        flag, dot = a.modes(lod)
        x, y = a.pos[:, 0], a.pos[:, 1]
        hit = (lod >= a.label_lod) & (flag | dot)
        hit &= (rect.left() <= x) & (x <= rect.right()) & (rect.top() <= y) & (y <= rect.bottom())
        ids = [a.ids[i] for i in np.flatnonzero(hit).tolist()]
        self.flush_commanders(ids)
        return [dict.__getitem__(items, rid) for rid in ids]

    def unit_positions(self) -> dict[str, tuple[float, float]]:
        """id → footprint centre (scene cm) as drawn, from the arrays (labels, overlays)."""
        if self.arrays_on:
            return self.unit_arrays.positions()
        return {rid: (i.pos().x(), i.pos().y()) for rid, i in self.items_by_kind["units"].items()}

    def resync(self, kind: str, records: Mapping[str, object]) -> None:
        """Sync every item of ``kind`` again (after side colours or styles changed)."""
        self._records[kind].clear()
        if kind == "units":
            self._synced.clear()
        if kind == "commanders":
            self._synced_commanders.clear()
        self.reconcile(kind, records)

    def clear_items(self) -> None:
        """Remove every record item."""
        self.revision += 1
        for kind in self.kind_revision:
            self.kind_revision[kind] += 1
        self._highlighted.clear()
        self._static_changed(self.sceneRect())
        self.unit_layer.forget_units()
        self._stale.clear()
        self._synced.clear()
        self.unit_arrays.clear()
        self.array_layer.mark_all()
        self._stale_commanders.clear()
        self._synced_commanders.clear()
        self.commander_arrays.clear()
        self.commander_layer.update()
        for kind, items in self.items_by_kind.items():
            for item in items.values():
                self.removeItem(item)
            items.clear()
            self._records[kind].clear()

    def records(self, kind: str) -> Mapping[str, object]:
        """The records of ``kind`` the items were last synced from (id → record)."""
        return self._records[kind]

    def items(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        """``QGraphicsScene.items`` after syncing the stale unit items (Python callers hit-test
        the records' places; Qt's own look-ups come through the view's mouse handlers, which
        sync first)."""
        self.flush_units()
        return super().items(*args, **kwargs)

    def itemAt(self, *args, **kwargs):  # type: ignore[no-untyped-def]  # noqa: N802 - Qt API
        self.flush_units()
        return super().itemAt(*args, **kwargs)

    def item_for(self, rid: str) -> MapItem | None:
        """The item of record ``rid`` whatever its kind, or None."""
        for items in self.items_by_kind.values():
            if rid in items:
                return items[rid]
        return None

    def all_items(self) -> Iterable[MapItem]:
        """Every record item."""
        for items in self.items_by_kind.values():
            yield from items.values()

    # -- layers --------------------------------------------------------------------------
    def set_layer_visible(self, name: str, visible: bool) -> None:
        """Show or hide a layer.

        Names: ``terrain:<kind>`` (a ``TerrainKind`` value), ``towns``, ``objectives``,
        ``units:<side id>``, ``commanders``, ``labels`` and ``grid``.
        """
        self.revision += 1
        self.layer_revision += 1
        if visible:
            self.hidden_layers.discard(name)
        else:
            self.hidden_layers.add(name)
        if name == "labels":
            self.ctx.labels_visible = visible
            self.invalidate_items()
        elif name == "grid":
            self.grid_visible = visible
            self.invalidate(self.sceneRect(), QGraphicsScene.SceneLayer.BackgroundLayer)
        elif name in self.layer_hooks:
            self.layer_hooks[name](visible)
        else:
            for item in self.all_items():
                if layer_of(item) == name:
                    item.setVisible(visible)
            if name == "commanders" and self.arrays_on:
                self.commander_layer.setVisible(visible)
            if name == "towns" or name.startswith("terrain:"):
                self._static_changed(self.sceneRect())
            elif name.startswith("units:"):
                self.unit_layer.mark_all()
                if self.arrays_on:
                    self._hide_rows(np.arange(len(self.unit_arrays), dtype=np.intp))
                    self.array_layer.mark_all()

    def is_layer_visible(self, name: str) -> bool:
        """Whether layer ``name`` is shown."""
        return name not in self.hidden_layers

    def layer_names(self, side_ids: Iterable[str]) -> list[str]:
        """Every layer name for sides ``side_ids``: terrain kinds, towns, objectives, units per side, …"""
        return (
            [f"terrain:{k.value}" for k in TerrainKind]
            + ["towns", "objectives", "deployment_zones", "reinforcements"]
            + [f"units:{s}" for s in side_ids]
            + ["commanders", "labels", "grid"]
            + list(self.layer_hooks)
        )

    def invalidate_items(self, where: Callable[[MapItem], bool] | None = None) -> None:
        """Repaint items (all, or those ``where`` accepts), dropping any cached pixmaps."""
        for item in self.all_items():
            if where is None or where(item):
                if item.cacheMode() != QGraphicsItem.CacheMode.NoCache:
                    item.setCacheMode(item.cacheMode())
                item.update()
