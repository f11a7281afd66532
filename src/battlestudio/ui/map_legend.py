"""What a map page's legend lists and how its swatches look: the entries for what a scene
draws (sides, nations in their own colours, unit states, commanders, formation markers, terrain,
towns, objectives, the command overlay's marks) and one painted swatch per entry kind. Sizes are
page pixels (``ui.map_export``)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QPolygonF


def swatch(painter: QPainter, kind: str, c: QColor, sw: QRectF, px: float) -> None:
    """One legend swatch of ``kind`` in colour ``c`` filling ``sw``."""
    painter.save()
    if kind in ("box", "faded"):
        painter.setPen(QPen(QColor("#222222"), 1))
        fill = QColor(c)
        if kind == "faded":
            fill.setAlpha(90)
        painter.setBrush(fill)
        painter.drawRect(sw)
        if kind == "faded":
            painter.setPen(QPen(QColor("#a01010"), 2.0))
            y = sw.center().y()
            painter.drawLine(QPointF(sw.left() - px * 0.2, y), QPointF(sw.right() + px * 0.2, y))
    elif kind == "area":
        painter.setPen(QPen(c.darker(150), 1))
        painter.setBrush(c)
        painter.drawRoundedRect(sw, px * 0.3, px * 0.3)
    elif kind in ("line", "dash", "arrow", "thick"):
        w = px * 0.5 if kind == "thick" else 2.5
        painter.setPen(QPen(c, w, Qt.PenStyle.DashLine if kind == "dash" else Qt.PenStyle.SolidLine))
        painter.drawLine(QPointF(sw.left(), sw.center().y()), QPointF(sw.right(), sw.center().y()))
        if kind == "arrow":
            painter.setBrush(c)
            painter.drawPolygon(
                QPolygonF(
                    [
                        sw.topRight() + QPointF(2, px / 2),
                        sw.topRight() + QPointF(-px * 0.5, 0),
                        sw.bottomRight() + QPointF(-px * 0.5, 0),
                    ]
                )
            )
    elif kind == "mark":
        painter.setPen(QPen(c, 2.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(sw.adjusted(px * 0.3, 0, -px * 0.3, 0))
    elif kind == "formation":
        from battlestudio.ui.aggregate_layer import draw_symbol

        hull = QColor(c)
        hull.setAlpha(70)
        painter.setPen(QPen(c.darker(160), 1.0))
        painter.setBrush(hull)
        painter.drawRoundedRect(sw.adjusted(-px * 0.2, -px * 0.2, px * 0.2, px * 0.2), px * 0.3, px * 0.3)
        draw_symbol(painter, sw.adjusted(px * 0.35, px * 0.15, -px * 0.35, -px * 0.15), QColor("#b8b8b8"), "")
    elif kind == "flag":
        painter.setPen(QPen(QColor("#202020"), 1))
        painter.drawLine(QPointF(sw.left() + px * 0.3, sw.bottom()), QPointF(sw.left() + px * 0.3, sw.top()))
        painter.setBrush(c)
        painter.drawRect(QRectF(sw.left() + px * 0.3, sw.top(), px * 1.2, px * 0.7))
    elif kind == "text":
        painter.setPen(c)
        f = QFont(painter.font())
        f.setBold(True)
        painter.setFont(f)
        painter.drawText(sw.adjusted(-px * 0.3, -px * 0.3, px * 0.3, px * 0.3), Qt.AlignmentFlag.AlignCenter, "Aa")
    else:  # ring
        painter.setPen(QPen(c, 1.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(sw.center(), px * 0.5, px * 0.5)
    painter.restore()


def colour_distance(a: QColor, b: QColor) -> int:
    """Sum of the RGB differences: above ~60 two swatches read as different colours."""
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue())


def drawn_nations(scene, scenario) -> list[tuple[str, str]]:
    """(nation, ``#rrggbb``) of every nation whose units or commanders ``scene`` draws in a
    colour other than their side's (``Side.colour``): units and generals keep their nation's
    coat colour (``styles.nation_colour``), so the legend must name it. Sorted by nation;
    hidden layers and eliminated units left out (those are listed as eliminated)."""
    from battlestudio.ui.map_scene import layer_of
    from battlestudio.ui.styles import nation_colour

    hidden = scene.hidden_layers
    sides = {sid: side.colour for sid, side in scenario.sides.items()}
    sides.update(scene.ctx.side_colours)
    nations: dict[str, str] = {}
    for kind in ("units", "commanders"):
        items = scene.items_by_kind[kind]
        for rid, rec in scene.records(kind).items():
            item = items.get(rid)
            if item is None or layer_of(item) in hidden or getattr(rec, "state", "") == "eliminated":
                continue
            nation = getattr(rec, "nation", "")
            if not nation or nation in nations:
                continue
            side_colour = sides.get(rec.side, "#808080")
            fill = nation_colour(nation, side_colour)
            if colour_distance(fill, QColor(side_colour)) > 60:
                nations[nation] = fill.name()
    return sorted(nations.items())


def legend_entries(scene, state, scenario, overlay) -> list[tuple[str, str, str]]:
    """(swatch kind, colour, text) of what ``scene`` draws: sides with troops shown (in their
    ``Side.colour``), nations drawn in their own colour (``drawn_nations``), unit states named
    after the names, eliminated units, commanders, the formation markers drawn at this zoom
    (``ui.aggregate_layer``), terrain kinds, towns and objectives present and not hidden, and the
    command overlay's reaches, links, marks and orders that are drawn."""
    from battlestudio.analysis.command_picture import EXEMPT, IN, OUT
    from battlestudio.ui.command_items import SUMMARY_LOD
    from battlestudio.ui.command_overlay import LINK_COLOURS, ORDER_COLOURS
    from battlestudio.ui.map_scene import layer_of
    from battlestudio.ui.styles import ECHELON_MARKS, TERRAIN_STYLES

    hidden = scene.hidden_layers
    kinds = scene.items_by_kind
    out: list[tuple[str, str, str]] = []
    troop_sides = {i.side for i in kinds["units"].values() if i.isVisible() or layer_of(i) not in hidden}
    general_sides = {getattr(i, "side", "") for i in kinds["commanders"].values() if layer_of(i) not in hidden}
    for sid, side in scenario.sides.items():
        if sid in troop_sides or sid in general_sides:
            out.append(("box", side.colour, side.name))
    for nation, colour in drawn_nations(scene, scenario):
        out.append(("box", colour, nation[:1].upper() + nation[1:]))
    if any(getattr(i, "eliminated", False) and layer_of(i) not in hidden for i in kinds["units"].values()):
        out.append(("faded", "#9a9a9a", "eliminated (struck out)"))
    states = sorted({i.state for i in kinds["units"].values() if getattr(i, "state", "") and layer_of(i) not in hidden})
    if states:
        said = {"U": "U disorder", "FU": "FU complete disorder"}
        out.append(("text", "#1b1b1b", "Name (" + ", ".join(said.get(st, st) for st in states) + ")"))
    if general_sides and any(layer_of(i) not in hidden for i in kinds["commanders"].values()):
        marks = ", ".join(f"{ECHELON_MARKS[e]} {e}" for e in ("army", "corps", "division", "brigade"))
        out.append(("flag", "#d8d8d8", f"commander ({marks})"))
    layer = getattr(scene, "aggregate_layer", None)
    markers = layer.markers() if layer is not None else []
    if markers:
        what = markers[0].echelon
        out.append(("formation", "#d8d8d8", f"{what}: its units' ground, symbol, name and men (zoomed out)"))
    seen: set[str] = set()
    for item in kinds["terrain"].values():
        kind = getattr(item, "terrain_kind", None)
        if kind is None or kind.value in seen or layer_of(item) in hidden:
            continue
        seen.add(kind.value)
        st = TERRAIN_STYLES.get(kind)
        if st is None:
            continue
        if st.line:
            out.append(("thick", st.line, kind.value.replace("_", " ")))
        elif st.fill:
            out.append(("area", st.fill, kind.value.replace("_", " ")))
    if kinds["towns"] and "towns" not in hidden:
        out.append(("area", "#b5654a", "town"))
    if kinds["objectives"] and "objectives" not in hidden:
        out.append(("ring", "#c9a227", "objective (VP)"))
    if overlay is not None and overlay.visible:
        statuses = {link.status for link in overlay.picture.links.values()}
        if any(i.isVisible() for i in overlay.reaches.items.values()):
            out.append(("ring", "#808080", "command reach of the selection"))
        if IN in statuses:
            out.append(("line", LINK_COLOURS[IN], "within command distance / zone"))
        summary = scene.ctx.px_per_cm < SUMMARY_LOD
        if OUT in statuses and not summary:
            out.append(("line", LINK_COLOURS[OUT], "out of command"))
        if EXEMPT in statuses:
            out.append(("dash", LINK_COLOURS[EXEMPT], "outside, exempt (detached, routed)"))
        if overlay.marks.items and not summary:
            out.append(("mark", LINK_COLOURS[OUT], "out-of-command mark"))
        if overlay.summaries.items and summary:
            out.append(("mark", LINK_COLOURS[OUT], "!n: n out of command in the corps"))
        if overlay.orders.items:
            out.append(("arrow", ORDER_COLOURS["A"], "standing order → objective"))
    return out
