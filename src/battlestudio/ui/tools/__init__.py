"""Map tools (strategy objects the map view feeds) and the registry the main window uses.

``make_tool(name)`` builds a tool by name: ``select``, ``rotate``, ``vertices``, ``town``,
``measure``, ``delete``, the set-up tools ``zone``, ``objective``, ``reinforcement``, the
deployment tools ``deploy_line``, ``deploy_zone``, ``march_column``, or
``draw:<terrain kind>`` (e.g. ``draw:woods``, ``draw:river``).
"""

from __future__ import annotations

from battlestudio.model.terrain import TerrainKind
from battlestudio.ui.tools.base import Tool
from battlestudio.ui.tools.deploy import DeployLineTool, DeployZoneTool, MarchColumnTool
from battlestudio.ui.tools.delete import DeleteTool, delete_selection
from battlestudio.ui.tools.draw import DrawTerrainTool
from battlestudio.ui.tools.measure import MeasureTool
from battlestudio.ui.tools.place import place_records
from battlestudio.ui.tools.rotate import RotateTool
from battlestudio.ui.tools.select import SelectTool
from battlestudio.ui.tools.setup import DeploymentZoneTool, ObjectiveTool, ReinforcementTool
from battlestudio.ui.tools.town import TownTool
from battlestudio.ui.tools.vertices import VertexTool

SIMPLE_TOOLS: dict[str, type[Tool]] = {
    "select": SelectTool,
    "rotate": RotateTool,
    "vertices": VertexTool,
    "town": TownTool,
    "measure": MeasureTool,
    "delete": DeleteTool,
    "zone": DeploymentZoneTool,
    "objective": ObjectiveTool,
    "reinforcement": ReinforcementTool,
    "deploy_line": DeployLineTool,
    "deploy_zone": DeployZoneTool,
    "march_column": MarchColumnTool,
}

SETUP_TOOLS = ("zone", "objective", "reinforcement", "deploy_line", "deploy_zone", "march_column")
"""The scenario set-up and deployment tools (one toolbar drop-down)."""


def tool_names() -> list[str]:
    """Every tool name, in toolbar order."""
    return list(SIMPLE_TOOLS)[:2] + [f"draw:{k.value}" for k in TerrainKind] + list(SIMPLE_TOOLS)[2:]


def make_tool(name: str) -> Tool:
    """A new tool by name.

    Raises
    ------
    ValueError
        for an unknown tool name or terrain kind.
    """
    if name.startswith("draw:"):
        try:
            return DrawTerrainTool(TerrainKind(name.split(":", 1)[1]))
        except ValueError:
            raise ValueError(f"unknown terrain kind in tool name {name!r}") from None
    if name not in SIMPLE_TOOLS:
        raise ValueError(f"unknown tool {name!r}; expected one of {tool_names()}")
    return SIMPLE_TOOLS[name]()


__all__ = [
    "Tool",
    "SelectTool",
    "RotateTool",
    "DrawTerrainTool",
    "VertexTool",
    "TownTool",
    "MeasureTool",
    "DeleteTool",
    "delete_selection",
    "place_records",
    "make_tool",
    "SETUP_TOOLS",
    "tool_names",
]
