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

Zoomed out (below ``unit_layer.BATCH_LOD``) the units are drawn the same way by one
``UnitLayer`` item instead of one item each (``set_zoom`` switches).
"""

from __future__ import annotations

import weakref

import shiboken6
from collections.abc import Callable, Iterable, Mapping

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from battlestudio.model.terrain import TerrainKind
from battlestudio.ui.aggregate_layer import LAYER as FORMATIONS_LAYER
from battlestudio.ui.aggregate_layer import AggregateLayer
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
from battlestudio.ui.unit_layer import BATCH_LOD, UnitLayer

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

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.ctx = MapContext()
        self.items_by_kind: dict[str, dict[str, MapItem]] = {k: {} for k in ITEM_CLASSES}
        self._records: dict[str, dict[str, object]] = {k: {} for k in ITEM_CLASSES}
        self.hidden_layers: set[str] = set()
        self.layer_hooks: dict[str, Callable[[bool], None]] = {}
        """Extra layers drawn by overlays (e.g. ``"command"``): name → what toggling it does."""
        self.label_obstacles: list[Callable[[], Iterable[QGraphicsItem]]] = []
        """Functions giving overlay items (screen-sized, ``ItemIgnoresTransformations``) that map
        labels must keep off, e.g. the command overlay's order-budget badges."""
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
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.set_table(*self.table_size)

    # -- table ---------------------------------------------------------------------------
    def set_table(self, width: float, height: float) -> None:
        """Set the table size in cm; the scene rect is the table plus ``MARGIN`` all round."""
        self.table_size = self.ctx.table_size = (width, height)
        self.setSceneRect(table_rect_to_scene(0.0, 0.0, width, height).adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN))
        self.unit_layer.set_bounds(self.sceneRect())
        self.aggregate_layer.set_bounds(self.sceneRect())
        self.update()

    def set_zoom(self, px_per_cm: float) -> None:
        """The view's zoom changed to ``px_per_cm``: grid spacing, commanders drawn as flags,
        dots or not at all (``COMMANDER_FLAG_LOD``), and units batched below ``BATCH_LOD`` or
        drawn one by one above it."""
        self.px_per_cm = self.ctx.px_per_cm = px_per_cm
        band = sum(px_per_cm >= t for t in COMMANDER_LODS)
        if band != self._commander_band:  # a division's flag shows or hides
            self._commander_band = band
            for item in self.items_by_kind["commanders"].values():
                item.set_lod()
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
    def reconcile(self, kind: str, records: Mapping[str, object], ids: Iterable[str] | None = None) -> None:
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
        """
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

    def resync(self, kind: str, records: Mapping[str, object]) -> None:
        """Sync every item of ``kind`` again (after side colours or styles changed)."""
        self._records[kind].clear()
        self.reconcile(kind, records)

    def clear_items(self) -> None:
        """Remove every record item."""
        self.revision += 1
        for kind in self.kind_revision:
            self.kind_revision[kind] += 1
        self._highlighted.clear()
        self._static_changed(self.sceneRect())
        self.unit_layer.forget_units()
        for kind, items in self.items_by_kind.items():
            for item in items.values():
                self.removeItem(item)
            items.clear()
            self._records[kind].clear()

    def records(self, kind: str) -> Mapping[str, object]:
        """The records of ``kind`` the items were last synced from (id → record)."""
        return self._records[kind]

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
            if name == "towns" or name.startswith("terrain:"):
                self._static_changed(self.sceneRect())
            elif name.startswith("units:"):
                self.unit_layer.mark_all()

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
