"""Scenario set-up tools: deployment zones, objectives and reinforcement entry points.

* ``zone`` draws a deployment zone polygon vertex by vertex (as the draw tool does); it belongs
  to the side of the selected troops, else to the first side without a zone, else the first.
* ``objective`` places an objective where you click: inside a town zone it takes the town's
  outline and name (an area objective), elsewhere it is a point; 1 VP, wanted by both sides.
* ``reinforcement`` sets the selected commander's formation (or lone unit) to arrive at the
  clicked point snapped to the nearest table edge, at any turn of the game with certainty —
  the designer then narrows the window and the chance in Properties.

Each creation is one undo step and selects the new record, so the Properties dock shows it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QMouseEvent
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from battlestudio.edits import PutRecords
from battlestudio.model.geometry import Point
from battlestudio.model.scenario import DeploymentZone, Objective, Reinforcement, Scenario
from battlestudio.model.terrain import TerrainKind
from battlestudio.ui.tools.base import Tool
from battlestudio.ui.tools.draw import DrawTerrainTool


def zone_side(s: Scenario, selection: frozenset[str] | set[str]) -> str:
    """The side a new deployment zone belongs to (see the module docstring); "" without sides."""
    for rid in sorted(selection):
        rec = s.units.get(rid) or s.commanders.get(rid)
        if rec is not None and rec.side in s.sides:
            return rec.side
    with_zone = {z.side for z in s.deployment_zones.values()}
    free = [sid for sid in s.sides if sid not in with_zone]
    return (free or list(s.sides) or [""])[0]


def snap_to_edge(p: Point, table: tuple[float, float]) -> Point:
    """``p`` (cm) moved onto the nearest table edge, clamped to the table."""
    w, h = table
    x, y = min(max(p[0], 0.0), w), min(max(p[1], 0.0), h)
    edges = ((x, (0.0, y)), (w - x, (w, y)), (y, (x, 0.0)), (h - y, (x, h)))
    return min(edges, key=lambda e: e[0])[1]


class DeploymentZoneTool(DrawTerrainTool):
    """Draw a deployment zone: click its corners; Enter or a double click finishes."""

    def __init__(self) -> None:
        super().__init__(TerrainKind.WOODS)  # an area outline, drawn as the draw tool draws one
        self.name = "zone"
        self.hint = self._idle_hint()

    def _idle_hint(self) -> str:
        return (
            "Click the corners of a deployment zone (for the selected troops' side); Enter or "
            "double-click finishes, Backspace undoes a corner, Esc cancels"
        )

    def finish(self) -> str | None:
        """Push the zone drawn so far; return its id, or None (and a hint) if it is no polygon."""
        if len(self.vertices) < 3:
            self.set_hint(f"a deployment zone needs at least 3 corners, got {len(self.vertices)}; keep clicking")
            return None
        poly = Polygon(self.vertices)
        if not poly.is_valid:
            self.set_hint("the outline of the deployment zone crosses itself; Backspace undoes a corner")
            return None
        s = self.document.scenario
        side = zone_side(s, self.document.selection)
        zid = s.next_id("dz")
        side_name = s.sides[side].name if side in s.sides else "no side"
        zone = DeploymentZone(zid, side, f"{side_name} deployment", poly)
        self.reset()
        self.document.push(PutRecords("deployment_zones", {zid: zone}, f"Draw deployment zone of {side_name}"))
        self.document.set_selection({zid})
        self.set_hint(self._idle_hint())
        return zid


class ObjectiveTool(Tool):
    """Click to place an objective (a town's outline when the click is in a town zone)."""

    name = "objective"
    hint = "Click to place an objective (inside a town zone it takes the town's outline and name)"
    cursor = Qt.CursorShape.CrossCursor

    def press(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.place(self.table_pos(event))

    def place(self, p: Point) -> str:
        """Push a new objective at ``p`` (cm); return its id."""
        s = self.document.scenario
        oid = s.next_id("obj")
        here = ShapelyPoint(p)
        town = next((t for t in s.towns.values() if t.polygon.covers(here)), None)
        if town is not None:
            obj = Objective(oid, town.name, town.polygon)
        else:
            obj = Objective(oid, f"Objective {len(s.objectives) + 1}", here)
        self.document.push(PutRecords("objectives", {oid: obj}, f"Add objective {obj.name}"))
        self.document.set_selection({oid})
        return oid


class ReinforcementTool(Tool):
    """Click a table edge to make the selected formation a reinforcement entering there."""

    name = "reinforcement"
    hint = "Select a commander (its formation arrives) or a lone unit, then click where it enters on a table edge"
    cursor = Qt.CursorShape.CrossCursor

    def press(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.place(self.table_pos(event, snap=False))

    def formation(self) -> str | None:
        """The selected commander of the highest echelon, else a lone selected unit; None if neither."""
        s = self.document.scenario
        chosen = [i for i in sorted(self.document.selection) if i in s.commanders]
        if chosen:
            tops = [c for c in chosen if not any(c in s.oob.all_subordinates(o) for o in chosen if o != c)]
            return tops[0]
        units = [i for i in sorted(self.document.selection) if i in s.units]
        return units[0] if len(units) == 1 else None

    def place(self, p: Point) -> str | None:
        """Push a reinforcement of the selected formation entering at ``p`` snapped to the edge."""
        s = self.document.scenario
        formation = self.formation()
        if formation is None:
            self.set_hint("Select the arriving formation's commander (or one unit) first, in the tree or on the map")
            return None
        rec = s.commanders.get(formation) or s.units[formation]
        rid = s.next_id("rf")
        entry = snap_to_edge(p, (s.info.table_width, s.info.table_height))
        last = max(1, s.info.turns)
        rein = Reinforcement(rid, rec.side, formation, 1, last, entry)
        self.document.push(PutRecords("reinforcements", {rid: rein}, f"Make {rec.name} a reinforcement"))
        self.document.set_selection({rid})
        self.set_hint(f"{rec.name} enters at {entry[0]:.0f}, {entry[1]:.0f} cm; set its turns and chance in Properties")
        return rid
