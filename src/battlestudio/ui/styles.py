"""Cartographic styles of the map: terrain kinds, town zones, nations and arms.

Colours follow the conventions of printed wargame maps: woods green, hills in brown steps
that darken with each level, water blue, roads buff with a dark casing, hedges dark green,
walls grey, marsh blue-green with reed hatching, towns brick red. Nations take their
traditional uniform colours; a nation not listed falls back to its side's colour
(``Side.colour``). Widths are either in table cm (scale with zoom) or cosmetic pixels
(constant on screen) and say which.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPen

from battlestudio.model.terrain import TerrainKind


@dataclass(frozen=True)
class TerrainStyle:
    """How one terrain kind is drawn.

    Attributes
    ----------
    fill : str | None
        ``#rrggbb`` area fill, None for no fill.
    outline : str | None
        outline colour, None for none.
    outline_px : float
        cosmetic outline width in screen pixels.
    line : str | None
        colour of a linear feature's stroke (rivers, roads …).
    line_cm : float
        default stroke width in table cm when the feature gives no ``width``.
    casing : str | None
        a darker stroke drawn under a linear feature (roads), 0.3 cm wider each side.
    dash : Qt.PenStyle
        pen style of the outline or stroke.
    hatch : Qt.BrushStyle | None
        a hatching drawn over the fill (marsh reeds, impassable ground).
    z : float
        stacking order: areas below lines, water below roads, bridges on top.
    """

    fill: str | None = None
    outline: str | None = None
    outline_px: float = 1.0
    line: str | None = None
    line_cm: float = 1.0
    casing: str | None = None
    dash: Qt.PenStyle = Qt.PenStyle.SolidLine
    hatch: Qt.BrushStyle | None = None
    z: float = 0.0


TERRAIN_STYLES: dict[TerrainKind, TerrainStyle] = {
    TerrainKind.HILL: TerrainStyle(fill="#e2cf9f", outline="#8a6a3a", outline_px=1.2, z=1),
    TerrainKind.MARSH: TerrainStyle(
        fill="#cfe3d6",
        outline="#6f9f8f",
        dash=Qt.PenStyle.DashLine,
        hatch=Qt.BrushStyle.HorPattern,
        z=2,
    ),
    TerrainKind.WOODS: TerrainStyle(fill="#8fbf72", outline="#3f6f2a", outline_px=1.2, z=3),
    TerrainKind.BUILT_UP: TerrainStyle(fill="#c98b72", outline="#7a3b28", z=3),
    TerrainKind.IMPASSABLE: TerrainStyle(
        fill="#9a9a92",
        outline="#4a4a44",
        hatch=Qt.BrushStyle.BDiagPattern,
        z=3,
    ),
    TerrainKind.RIVER: TerrainStyle(line="#4f86c6", line_cm=2.5, z=4),
    TerrainKind.STREAM: TerrainStyle(line="#6a9fd8", line_cm=0.8, z=4),
    TerrainKind.FORD: TerrainStyle(
        fill="#b9d6f0",
        outline="#2f5f9f",
        dash=Qt.PenStyle.DashLine,
        line_cm=3.0,
        z=5,
    ),
    TerrainKind.ROAD: TerrainStyle(line="#e8d6a0", line_cm=0.9, casing="#8a6f3f", z=6),
    TerrainKind.HEDGE: TerrainStyle(line="#2f5a1f", line_cm=0.5, dash=Qt.PenStyle.DotLine, z=6),
    TerrainKind.WALL: TerrainStyle(line="#6d6d6d", line_cm=0.4, z=6),
    TerrainKind.BRIDGE: TerrainStyle(fill="#a0743f", outline="#4a3015", line_cm=3.0, z=7),
}
"""Style per terrain kind."""

HILL_LEVEL_FILLS = ("#e2cf9f", "#d3b77f", "#c29f66", "#ad8650", "#94703f")
"""Hill fill per level (1 = lowest); levels above the last reuse it."""

TOWN_FILL = "#d9a489"
TOWN_BLOCK = "#a4503a"
TOWN_OUTLINE = "#5f2a1c"

TABLE_FILL = "#f4efe1"
"""The table cloth: a pale parchment so every terrain colour reads on it."""

OUTSIDE_FILL = "#8e9096"
GRID_MINOR = QColor(120, 110, 90, 45)
GRID_MAJOR = QColor(100, 90, 70, 90)
TABLE_EDGE = "#3a3326"

NATION_COLOURS: dict[str, str] = {
    "france": "#2a4fa8",
    "french": "#2a4fa8",
    "bavaria": "#7fb2e0",
    "württemberg": "#1f3f7a",
    "wurttemberg": "#1f3f7a",
    "saxony": "#3f7f3f",
    "italy": "#3f8f4f",
    "poland": "#5f6fb8",
    "baden": "#2f5f9f",
    "westphalia": "#efefef",
    "britain": "#c0262d",
    "great britain": "#c0262d",
    "hanover": "#b8342f",
    "brunswick": "#2a2a2a",
    "netherlands": "#2f3f6f",
    "prussia": "#2c2f44",
    "russia": "#2f5f3a",
    "austria": "#e8e4d8",
    "sweden": "#3a66b0",
    "spain": "#d8d0b8",
    "portugal": "#5a4030",
}
"""Uniform colour per nation (lower-case name); unknown nations use the side colour."""


def nation_colour(nation: str, side_colour: str = "#808080") -> QColor:
    """Colour of a unit of ``nation``; ``side_colour`` (``#rrggbb``) when the nation is unknown."""
    return QColor(NATION_COLOURS.get(nation.strip().lower(), side_colour))


def contrast_ink(fill: QColor) -> QColor:
    """Black or white, whichever reads better on ``fill`` (for glyphs drawn on a unit)."""
    luminance = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF()
    return QColor("#111111") if luminance > 0.55 else QColor("#f8f8f8")


def cosmetic_pen(colour: QColor | str, px: float = 1.0, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    """A pen ``px`` screen pixels wide whatever the zoom."""
    pen = QPen(QColor(colour), px, style)
    pen.setCosmetic(True)
    return pen


def cm_pen(colour: QColor | str, cm: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    """A pen ``cm`` table centimetres wide (scales with zoom), round caps and joins."""
    pen = QPen(QColor(colour), cm, style, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    return pen


def brush(colour: str | QColor | None, style: Qt.BrushStyle = Qt.BrushStyle.SolidPattern) -> QBrush:
    """A brush of ``colour`` (no brush for None)."""
    if colour is None:
        return QBrush(Qt.BrushStyle.NoBrush)
    return QBrush(QColor(colour), style)


ECHELON_MARKS: dict[str, str] = {
    "c_in_c": "XXXXX",
    "army": "XXXX",
    "corps": "XXX",
    "division": "XX",
    "brigade": "X",
}
"""Echelon marks on a commander's flag (the NATO APP-6 convention)."""
