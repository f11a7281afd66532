"""Deployment tools: put a whole formation on the table in one gesture, one undo step each.

* ``deploy_line``: select a commander (in the tree or on the map), click the two ends of the
  formation's front line; its units stand along it in order of battle, facing away from the
  line towards the enemy, in further lines behind it when it is full
  (``edits.deploy.line_deployment``).
* ``deploy_zone``: select a commander, click inside a deployment zone of his side; the
  formation is packed inside it facing the enemy, centred as near the click as the zone allows
  (``edits.deploy.zone_deployment``).
* ``march_column``: select a commander, click on a road; the formation forms a column of march
  along the road from that point, marching towards the enemy (Shift+click: away from him)
  (``edits.deploy.column_deployment``).

The interval between units is ``DEPLOYMENT.interval_cm`` (no bundled ruleset gives one; the
default is ``edits.deploy.DEFAULT_INTERVAL_CM``): change it with + and − while a deployment
tool is active, or with Tools ▸ Scenario Set-up ▸ Deployment Interval….
After a deployment the formation is selected, so the rotate tool turns it about its centre.
"""

from __future__ import annotations

from dataclasses import dataclass

import math

from PySide6.QtCore import QLineF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsLineItem, QGraphicsPolygonItem
from shapely.geometry import Point as ShapelyPoint

from battlestudio.edits.deploy import (
    DEFAULT_INTERVAL_CM,
    DeployError,
    column_deployment,
    line_deployment,
    line_units,
    nearest_road,
    zone_deployment,
)
from battlestudio.model.geometry import Point
from battlestudio.ui.coords import table_to_scene
from battlestudio.ui.tools.base import Tool

ROAD_PICK_PX = 12.0
"""How near a road (screen pixels) a click must be to pick it."""


@dataclass
class DeploymentOptions:
    """The deployment tools' option: interval between units (and gap in column), cm, ≥ 0."""

    interval_cm: float = DEFAULT_INTERVAL_CM


DEPLOYMENT = DeploymentOptions()
"""The option every deployment tool reads (one per application)."""

INTERVAL_STEP_CM = 0.5
"""Change of the interval per + or − key, cm."""


def ask_interval(parent) -> bool:
    """Ask for the deployment interval (cm) in a dialog; True when the designer set one."""
    from PySide6.QtWidgets import QInputDialog

    value, ok = QInputDialog.getDouble(
        parent,
        "Deployment interval",
        "Interval between units deployed side by side, and gap between units in column (cm).\n"
        "No bundled ruleset prints one; the default is the gap a drop from the tree leaves.",
        DEPLOYMENT.interval_cm,
        0.0,
        100.0,
        1,
    )
    if ok:
        DEPLOYMENT.interval_cm = float(value)
    return bool(ok)


def selected_formation(document) -> str | None:
    """The selected commander of the highest echelon (the head of the formation), else a lone
    selected unit; None when neither is selected."""
    s = document.scenario
    chosen = [i for i in sorted(document.selection) if i in s.commanders]
    if chosen:
        tops = [c for c in chosen if not any(c in s.oob.all_subordinates(o) for o in chosen if o != c)]
        return tops[0]
    units = [i for i in sorted(document.selection) if i in s.units]
    return units[0] if len(units) == 1 else None


class _DeployTool(Tool):
    """Shared behaviour: the formation to deploy, the interval keys, selecting the result."""

    cursor = Qt.CursorShape.CrossCursor
    what = ""

    def activate(self, view) -> None:
        super().activate(view)
        self.set_hint(self.idle_hint())

    def idle_hint(self) -> str:
        return f"{self.what} (interval {DEPLOYMENT.interval_cm:g} cm; + and − change it)"

    def formation(self) -> str | None:
        root = selected_formation(self.document)
        if root is None:
            self.set_hint("Select the formation's commander first (in the order-of-battle tree or on the map)")
        return root

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            DEPLOYMENT.interval_cm += INTERVAL_STEP_CM
        elif event.key() in (Qt.Key.Key_Minus, Qt.Key.Key_Underscore):
            DEPLOYMENT.interval_cm = max(0.0, DEPLOYMENT.interval_cm - INTERVAL_STEP_CM)
        elif event.key() == Qt.Key.Key_Escape:
            self.reset()
            self.set_hint(self.idle_hint())
            return True
        else:
            return False
        self.set_hint(self.idle_hint())
        return True

    def select_formation(self, root: str) -> None:
        s = self.document.scenario
        below = [i for i in s.oob.all_subordinates(root) if i in s.units or i in s.commanders]
        self.document.set_selection({root, *below})


class DeployLineTool(_DeployTool):
    """Click the two ends of the selected formation's front line."""

    name = "deploy_line"
    what = "Select a commander, then click the two ends of his formation's front line"
    hint = what

    def __init__(self) -> None:
        super().__init__()
        self.start: Point | None = None
        self._line: QGraphicsLineItem | None = None
        self._ghosts: list[QGraphicsItem] = []

    def reset(self) -> None:
        super().reset()
        self.start = None
        self._line = None
        self._ghosts = []

    def press(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        p = self.table_pos(event)
        if self.start is None:
            if self.formation() is None:
                return
            self.start = p
            pen = QPen(QColor("#ff9d00"), 2.0, Qt.PenStyle.DashLine)
            pen.setCosmetic(True)
            self._line = QGraphicsLineItem(QLineF(table_to_scene(*p), table_to_scene(*p)))
            self._line.setPen(pen)
            self.add_preview(self._line)
            self.set_hint("Click the other end of the front line (Esc cancels)")
            return
        self.deploy(self.start, p)

    def move(self, event: QMouseEvent) -> None:
        if self.start is not None and self._line is not None:
            end = self.table_pos(event)
            self._line.setLine(QLineF(table_to_scene(*self.start), table_to_scene(*end)))
            self._preview_units(self.start, end)

    def _preview_units(self, a: Point, b: Point) -> None:
        """Outline where the formation's units would stand, and say how many lines they make."""
        for item in self._ghosts:
            if item.scene() is not None:
                item.scene().removeItem(item)
            if item in self._previews:
                self._previews.remove(item)
        self._ghosts = []
        root = selected_formation(self.document)
        if root is None or math.dist(a, b) < 1e-6:
            return
        try:
            units, lines = line_units(self.document.scenario, root, a, b, DEPLOYMENT.interval_cm)
        except DeployError as exc:
            self.set_hint(str(exc))
            return
        pen = QPen(QColor("#ff9d00"), 1.0)
        pen.setCosmetic(True)
        for u in units.values():
            ghost = QGraphicsPolygonItem(QPolygonF([table_to_scene(x, y) for x, y in u.footprint().exterior.coords]))
            ghost.setPen(pen)
            ghost.setBrush(QColor(255, 157, 0, 50))
            self._ghosts.append(self.add_preview(ghost))
        more = f" in {lines} lines" if lines > 1 else ""
        self.set_hint(f"Click the other end of the front line: {len(units)} units{more} (Esc cancels)")

    def deploy(self, a: Point, b: Point) -> bool:
        """Deploy the selected formation along a→b (cm) as one undo step; False (and a hint) if refused."""
        self.reset()
        root = self.formation()
        if root is None:
            return False
        try:
            edit, lines = line_deployment(self.document.scenario, root, a, b, DEPLOYMENT.interval_cm)
        except DeployError as exc:
            self.set_hint(str(exc))
            return False
        self.document.push(edit)
        self.select_formation(root)
        self.set_hint(f"{edit.text}: in {lines} lines, the line was full" if lines > 1 else edit.text)
        return True


class DeployZoneTool(_DeployTool):
    """Click inside a deployment zone to pack the selected formation into it."""

    name = "deploy_zone"
    what = "Select a commander, then click inside a deployment zone of his side"
    hint = what

    def press(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.deploy_at(self.table_pos(event, snap=False))

    def deploy_at(self, p: Point) -> bool:
        """Deploy the selected formation in the zone under ``p`` (cm); False (and a hint) if refused."""
        root = self.formation()
        if root is None:
            return False
        s = self.document.scenario
        here = ShapelyPoint(p)
        side = (s.commanders.get(root) or s.units[root]).side
        zones = [z for z in s.deployment_zones.values() if z.polygon.covers(here)]
        zones.sort(key=lambda z: (z.side != side, z.polygon.area))  # own side first, then the innermost
        if not zones:
            self.set_hint("There is no deployment zone here: click inside one (draw it with the Deployment zone tool)")
            return False
        try:
            edit = zone_deployment(s, root, zones[0].id, DEPLOYMENT.interval_cm, at=p)
        except DeployError as exc:
            self.set_hint(str(exc))
            return False
        self.document.push(edit)
        self.select_formation(root)
        self.set_hint(edit.text)
        return True


class MarchColumnTool(_DeployTool):
    """Click on a road to form the selected formation into a column of march along it."""

    name = "march_column"
    what = (
        "Select a commander, then click on a road where the head of his column stands "
        "(it marches towards the enemy; Shift+click: away from him)"
    )
    hint = what

    def press(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            away = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self.deploy_at(self.table_pos(event, snap=False), away)

    def deploy_at(self, p: Point, away: bool = False) -> bool:
        """Form the column with its head on the road nearest ``p`` (cm), marching towards the
        enemy (``away``: from him); False (and a hint) if refused."""
        root = self.formation()
        if root is None:
            return False
        s = self.document.scenario
        road = nearest_road(s, p, self.px_to_cm(ROAD_PICK_PX))
        if road is None:
            self.set_hint("There is no road here: click on a road (draw one with Draw road)")
            return False
        try:
            edit, overrun = column_deployment(s, root, road, p, DEPLOYMENT.interval_cm, away)
        except DeployError as exc:
            self.set_hint(str(exc))
            return False
        self.document.push(edit)
        self.select_formation(root)
        note = f"; the tail runs {overrun:.0f} cm past the road's end" if overrun > 0.0 else ""
        self.set_hint(f"{edit.text}{note}")
        return True
