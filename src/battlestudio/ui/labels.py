"""Map labels that stay legible at every zoom, and the shared drawing context of map items.

A label is drawn in **device pixels** (a fixed font size on screen), anchored at a scene point,
on top of every item (the view paints them in its foreground). Each item says, for the current
level of detail (screen pixels per table cm), whether its label fits (``label_request``); a
label too large for its item is hidden instead of shrunk into illegibility. The view then
places the requested labels greedily by priority (towns, commanders, objectives, units,
terrain), skipping any that would overlap one already placed (``labels_in_view`` walks a
map's items, ``place_labels`` places them in plain floats). Text is a ``QStaticText`` laid
out once per name, when first drawn, so drawing a thousand labels costs a thousand glyph
blits and creating a thousand items costs no text layout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from collections.abc import Callable, Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QStaticText, QTransform

LABEL_PX = 11
"""Label font height in screen pixels."""

LABEL_MIN_LOD = 1.5
"""No label is drawn below this zoom (screen pixels per table cm)."""

HALO = QColor(255, 255, 250, 190)
INK = QColor("#1b1b1b")


class MapContext:
    """What every map item needs besides its own record.

    Attributes
    ----------
    side_colours : dict[str, str]
        side id → ``#rrggbb`` (fallback colour of units whose nation is unknown).
    labels_visible : bool
        the "labels" layer.
    static_in_background : bool
        terrain features and town zones are drawn by the scene's background (cached by the
        view, redrawn only when they change or the view zooms); their items then draw only a
        selection highlight and serve hit testing.
    font : QFont
        label font, ``LABEL_PX`` pixels high.
    metrics : QFontMetricsF
        metrics of ``font``.
    px_per_cm : float
        the view's zoom (screen pixels per table cm), for items whose drawing depends on it
        (commanders: flag, dot or nothing).
    table_size : tuple[float, float]
        (width, height) of the table in cm (reinforcement markers point in from its edge).
    record_names : dict[str, str]
        commander and unit id → name (reinforcement markers name their formation).
    """

    def __init__(self) -> None:
        self.side_colours: dict[str, str] = {}
        self.table_size = (240.0, 180.0)
        self.record_names: dict[str, str] = {}
        self.px_per_cm = 1.0
        self.labels_visible = True
        self.static_in_background = True
        self.font = QFont()
        self.font.setPixelSize(LABEL_PX)
        self.metrics = QFontMetricsF(self.font)
        self.bold = QFont(self.font)
        self.bold.setBold(True)
        self.bold_metrics = QFontMetricsF(self.bold)
        self.struck = QFont(self.font)
        self.struck.setStrikeOut(True)
        self.height = self.metrics.height()
        self.bold_height = self.bold_metrics.height()


class Label:
    """A one-line label of a map item.

    Its width is measured and its ``QStaticText`` laid out only when first needed (a label
    too large for its item at the current zoom is never measured nor laid out), so creating
    the items of a large map costs no text layout.

    Parameters
    ----------
    text : str
    ctx : MapContext
    bold : bool
        town names and commanders are bold.
    struck : bool
        struck out (an eliminated unit's name).
    """

    __slots__ = ("text", "_static", "_width", "_metrics", "font", "height_px", "struck")

    def __init__(self, text: str, ctx: MapContext, bold: bool = False, struck: bool = False) -> None:
        self.text = text
        self.struck = struck
        self.font = ctx.bold if bold else ctx.struck if struck else ctx.font
        self._metrics = ctx.bold_metrics if bold else ctx.metrics
        self._static: QStaticText | None = None
        self._width: float | None = None
        self.height_px = (ctx.bold_height if bold else ctx.height) + 2.0
        """Height of the label with its halo margin, in screen pixels."""

    @property
    def width_px(self) -> float:
        """Width of the label with its halo margin, in screen pixels."""
        if self._width is None:
            self._width = self._metrics.horizontalAdvance(self.text) + 4.0
        return self._width

    @property
    def static(self) -> QStaticText:
        """The text laid out once for drawing."""
        if self._static is None:
            self._static = QStaticText(self.text)
            self._static.setTextFormat(Qt.TextFormat.PlainText)
            self._static.prepare(QTransform(), self.font)
        return self._static

    def min_lod(self, room_cm: float) -> float:
        """Smallest zoom (px per cm) at which the label fits in ``room_cm`` table cm of width."""
        return max(LABEL_MIN_LOD, self.width_px / max(room_cm, 1e-3))

    def device_rect(self, anchor: QPointF, below: bool = True) -> QRectF:
        """Device rectangle of the label anchored at device point ``anchor``.

        ``anchor`` is the label's top-centre when ``below``, else its centre.
        """
        w, h = self.width_px, self.height_px
        x = round(anchor.x() - w / 2.0)
        y = round(anchor.y() if below else anchor.y() - h / 2.0)
        return QRectF(x, y, w, h)

    def draw(self, painter: QPainter, rect: QRectF) -> None:
        """Draw on a halo filling ``rect`` (painter in device pixels, no world transform)."""
        painter.fillRect(rect, HALO)
        painter.setFont(self.font)
        painter.setPen(INK)
        painter.drawStaticText(QPointF(rect.x() + 2.0, rect.y() + 1.0), self.static)


class AlongLabel:
    """A label placed along a line (a river, stream or road): ``label`` turned by ``angle``
    degrees (clockwise on screen, within ±90 so it never reads upside down) about the centre
    of the rectangle it is drawn in, on a halo. The rectangle ``place_labels`` reserves is the
    turned label's bounding box."""

    __slots__ = ("label", "angle", "text")

    def __init__(self, label: Label, angle: float) -> None:
        self.label, self.angle, self.text = label, angle, label.text

    def draw(self, painter: QPainter, rect: QRectF) -> None:
        lab = self.label
        w, h = lab.width_px, lab.height_px
        painter.save()
        painter.translate(rect.center())
        painter.rotate(self.angle)
        painter.fillRect(QRectF(-w / 2.0, -h / 2.0, w, h), HALO)
        painter.setFont(lab.font)
        painter.setPen(ALONG_INK)
        painter.drawStaticText(QPointF(-w / 2.0 + 2.0, -h / 2.0 + 1.0), lab.static)
        painter.restore()


ALONG_INK = QColor("#1d4f8f")
"""Ink of names along water and roads (a map's blue lettering)."""


def turned_size(w: float, h: float, angle: float) -> tuple[float, float]:
    """Width and height of the bounding box of a ``w`` × ``h`` rectangle turned by ``angle`` degrees."""
    a = math.radians(angle)
    c, s = abs(math.cos(a)), abs(math.sin(a))
    return w * c + h * s, w * s + h * c


@dataclass(frozen=True, slots=True)
class LabelRequest:
    """An item's wish to show its label: where (scene anchor + pixel offset) and how urgently.

    Attributes
    ----------
    label : Label
    anchor : QPointF
        scene point of the top-centre (``below``) or centre of the label.
    below : bool
    offset_px : float
        extra downward shift in screen pixels (commander flags).
    priority : int
        the kind: 0 towns, 1 commanders, 2 objectives, 3 units, 4 terrain.
    rank : float | None
        placing order, lower first (``RANKS``; None: the rank of ``priority``). The most
        important names win: army > corps > town > division > objective > brigade > unit > terrain.
    along : tuple[tuple[QPointF, float], ...]
        for a name along a line: candidate (scene centre, angle in degrees) placements, tried
        in order; the label is then centred on the point and turned (``AlongLabel``).
    shifts : tuple[tuple[float, float], ...]
        candidate (dx, dy) screen-pixel shifts from the anchored place, tried in order instead
        of the kind's own (a formation marker's name: below its symbol, above, right, left).
    """

    label: Label
    anchor: QPointF
    below: bool = True
    offset_px: float = 0.0
    priority: int = 3
    rank: float | None = None
    along: tuple[tuple[QPointF, float], ...] = ()
    shifts: tuple[tuple[float, float], ...] = ()


RANKS = {"army": 0.0, "c_in_c": 0.0, "corps": 1.0, "town": 2.0, "division": 3.0, "objective": 4.0, "brigade": 5.0}
"""Placing order of label kinds and commanders' echelons (lower is placed first)."""

PRIORITY_RANK = {0: 2.0, 1: 5.0, 2: 4.0, 3: 6.0, 4: 7.0}
"""Rank of a request that names none, by its ``priority``."""


CELL_PX = 64
"""Cell size of the spatial hash used to find label collisions."""


def place_labels(
    requests: list[LabelRequest],
    to_device,
    obstacles: list[QRectF] = (),
    obstacle_priority: int = 4,
    bounds: QRectF | None = None,
    fixed: Iterable[QRectF] = (),
) -> list[tuple[QRectF, Label | AlongLabel]]:
    """Choose labels that do not overlap, by priority then request order.

    Labels of ``obstacle_priority`` or lower urgency (terrain names) must also keep off the
    ``obstacles`` (device rectangles of troops), so they never hide a unit. With ``bounds``
    (device pixels: the part of the table in view) a label reaching past an edge is slid back
    inside it (a label wider than ``bounds`` starts at its left edge). Rectangles are compared
    as plain floats in a spatial hash of ``CELL_PX`` cells (a few µs per label).

    Parameters
    ----------
    requests : list[LabelRequest]
    to_device : QTransform | Callable[[QPointF], QPointF]
        maps a scene point to device pixels (the view's transform).
    obstacles : list[QRectF] | Callable[[], list[QRectF]]
        or a function giving them, called only when a label of ``obstacle_priority`` is asked.
    fixed : Iterable[QRectF]
        device rectangles no label may cover (overlay badges such as a chief's order budget).
        A town name (priority 0) that meets one, or another town's name, is tried one line
        higher, then one line lower, and a commander's name (priority 1) one line lower, before
        it is dropped.

    Returns
    -------
    list[tuple[QRectF, Label | AlongLabel]]
        device rectangles and labels to draw (no two rectangles overlap).
    """
    if isinstance(to_device, QTransform):
        m11, m12, m21, m22, tx, ty = (
            to_device.m11(),
            to_device.m12(),
            to_device.m21(),
            to_device.m22(),
            to_device.dx(),
            to_device.dy(),
        )

        def device(p: QPointF) -> tuple[float, float]:
            x, y = p.x(), p.y()
            return m11 * x + m21 * y + tx, m12 * x + m22 * y + ty
    else:

        def device(p: QPointF) -> tuple[float, float]:
            q = to_device(p)
            return q.x(), q.y()

    if bounds is not None:
        bl, bt, br, bb = bounds.left(), bounds.top(), bounds.right(), bounds.bottom()
    placed: list[tuple[QRectF, Label | AlongLabel]] = []
    grid: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
    blocked = False
    for rect in fixed:
        _register(grid, (rect.left(), rect.top(), rect.right(), rect.bottom()))
    for req in sorted(requests, key=_priority):
        if not blocked and req.priority >= obstacle_priority:
            blocked = True
            for rect in obstacles() if callable(obstacles) else obstacles:
                _register(grid, (rect.left(), rect.top(), rect.right(), rect.bottom()))
        label = req.label
        w, h = label.width_px, label.height_px
        ax, ay = device(req.anchor)
        ay += req.offset_px
        if req.along:
            tries = []
            for point, angle in req.along:
                cx, cy = device(point)
                tw, th = turned_size(w, h, angle)
                tries.append((round(cx - tw / 2.0), round(cy - th / 2.0), tw, th, angle))
        else:
            if req.shifts:
                shifts = req.shifts
            elif req.priority == 0:
                shifts = ((0.0, 0.0), (0.0, -h), (0.0, h))
            else:
                shifts = ((0.0, 0.0), (0.0, h)) if req.priority == 1 else ((0.0, 0.0),)
            tries = [
                (round(ax - w / 2.0 + sx), round((ay if req.below else ay - h / 2.0) + sy), w, h, None)
                for sx, sy in shifts
            ]
        for x0, y0, tw, th, angle in tries:
            x1, y1 = x0 + tw, y0 + th
            if angle is not None and bounds is not None and not (bl <= x0 and x1 <= br and bt <= y0 and y1 <= bb):
                continue  # a name along a line is not slid off it: the next place is tried
            if bounds is not None:
                dx = max(min(0.0, br - x1), bl - x0)
                dy = max(min(0.0, bb - y1), bt - y0)
                if dx or dy:
                    dx, dy = round(dx), round(dy)
                    x0, x1, y0, y1 = x0 + dx, x1 + dx, y0 + dy, y1 + dy
            cx0, cx1, cy0, cy1 = int(x0 // CELL_PX), int(x1 // CELL_PX), int(y0 // CELL_PX), int(y1 // CELL_PX)
            if not _meets(grid, cx0, cx1, cy0, cy1, x0, y0, x1, y1):
                break
        else:
            continue
        r = (x0, y0, x1, y1)
        for cx in range(cx0, cx1 + 1):
            for cy in range(cy0, cy1 + 1):
                grid.setdefault((cx, cy), []).append(r)
        placed.append((QRectF(x0, y0, x1 - x0, y1 - y0), label if angle is None else AlongLabel(label, angle)))
    return placed


def _meets(
    grid: dict[tuple[int, int], list[tuple[float, float, float, float]]],
    cx0: int,
    cx1: int,
    cy0: int,
    cy1: int,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
) -> bool:
    """Whether a rectangle registered in cells ``cx0..cx1`` × ``cy0..cy1`` of ``grid`` overlaps
    (x0, y0, x1, y1) by more than a boundary."""
    get = grid.get
    for cx in range(cx0, cx1 + 1):
        for cy in range(cy0, cy1 + 1):
            for a, b, c, d in get((cx, cy), ()):
                if a < x1 and x0 < c and b < y1 and y0 < d:
                    return True
    return False


def first_free(candidates: list[QRectF], taken: Iterable[QRectF]) -> int:
    """Index of the first of ``candidates`` (a badge's possible rectangles, best first) that
    meets none of ``taken`` (rectangles in the same coordinates, e.g. neighbours' order-budget
    badges); 0 when every one meets something."""
    rects = list(taken)
    for i, c in enumerate(candidates):
        if not any(c.intersects(r) for r in rects):
            return i
    return 0


def _priority(req: LabelRequest) -> float:
    return req.rank if req.rank is not None else PRIORITY_RANK.get(req.priority, 8.0)


def _register(
    grid: dict[tuple[int, int], list[tuple[float, float, float, float]]], r: tuple[float, float, float, float]
) -> None:
    for cx in range(int(r[0] // CELL_PX), int(r[2] // CELL_PX) + 1):
        for cy in range(int(r[1] // CELL_PX), int(r[3] // CELL_PX) + 1):
            grid.setdefault((cx, cy), []).append(r)


def merge_town_objectives(
    towns: list[tuple[QRectF, LabelRequest]], objectives: list[tuple[QRectF, LabelRequest]]
) -> list[LabelRequest]:
    """One label where an objective sits on a town of the same name.

    ``towns`` and ``objectives`` pair each request with its item's scene rectangle. An
    objective whose label reads "<town name> (n VP)" and whose rectangle meets the town's
    replaces the town's label and takes its rank (priority 0); every other request is kept.

    Returns
    -------
    list[LabelRequest]
        the town and objective requests to place.
    """
    out: list[LabelRequest] = []
    merged: set[int] = set()
    for t_rect, town in towns:
        match = next(
            (
                i
                for i, (o_rect, obj) in enumerate(objectives)
                if i not in merged and obj.label.text.startswith(town.label.text + " (") and o_rect.intersects(t_rect)
            ),
            None,
        )
        if match is None:
            out.append(town)
        else:
            merged.add(match)
            out.append(replace(objectives[match][1], priority=town.priority))
    out.extend(obj for i, (_r, obj) in enumerate(objectives) if i not in merged)
    return out


def labels_in_view(
    by_kind: dict,
    t: QTransform,
    vp: QRectF,
    lod: float,
    table: QRectF,
    fixed: Iterable[QRectF] = (),
    aggregates=None,
    named_commanders: Callable[[QRectF], Iterable] | None = None,
    static: tuple[dict, object] | None = None,
) -> list[tuple[QRectF, Label | AlongLabel]]:
    """The labels of a map's items in view, placed (``place_labels``).

    The items (``by_kind``: container → id → item, as ``MapScene.items_by_kind``) are walked
    by kind in plain floats (their ``scene_box``), skipping whole kinds whose labels the zoom
    ``lod`` (px per cm) hides (unit names below ``LABEL_MIN_LOD``); troops are measured as
    obstacles only when a terrain name asks for room. ``t`` maps scene to device pixels, ``vp``
    is the viewport (device pixels), ``table`` the table's scene rectangle and ``fixed`` device
    rectangles no label may cover (``place_labels``). ``aggregates`` (an ``AggregateLayer``)
    adds the names and strengths of the formation markers drawn at this zoom, ranked as their
    commanders, in place of those commanders' own names. ``named_commanders`` gives, for a
    scene rectangle, the commander items that may show a name there at this zoom (a superset,
    in item order: the map's arrays find them without walking every item); every commander
    item is still measured as an obstacle when a terrain name asks for room. ``static`` (a
    dict and a key: what the terrain, towns, objectives, zones, reinforcements, layers and this
    view's transform were) keeps the requests of those kinds in the dict while the key is the
    same (a replay step changes none of them).
    """
    inverse, ok = t.inverted()
    if not ok:
        return []
    view = inverse.mapRect(vp)
    vx0, vy0, vx1, vy1 = view.left(), view.top(), view.right(), view.bottom()
    flag = 35.0 / max(lod, 1e-9)  # a commander's flag reaches ~30 px from his position
    fx0, fy0, fx1, fy1 = vx0 - flag, vy0 - flag, vx1 + flag, vy1 + flag

    def units_in_view() -> list:
        return [
            i
            for i in by_kind["units"].values()
            if i.scene_box[0] < vx1
            and vx0 < i.scene_box[2]
            and i.scene_box[1] < vy1
            and vy0 < i.scene_box[3]
            and i.isVisible()
        ]

    def commanders_in(items: Iterable) -> list:
        return [i for i in items if fx0 < i.scene_box[0] < fx1 and fy0 < i.scene_box[1] < fy1 and i.isVisible()]

    if named_commanders is None:
        commanders = every = commanders_in(by_kind["commanders"].values())
    else:
        pad = 2.0 * flag
        commanders = commanders_in(
            named_commanders(QRectF(fx0 - pad, fy0 - pad, fx1 - fx0 + 2 * pad, fy1 - fy0 + 2 * pad))
        )
        every = None
    requests: list[LabelRequest] = []
    named: set[str] = set()
    if aggregates is not None:
        requests, named = aggregates.label_requests(lod, view)
    for item in commanders:
        if item.id in named:
            continue
        req = item.label_request(lod)
        if req is not None:
            rank = RANKS.get(getattr(item, "echelon", ""), RANKS["brigade"])
            requests.append(replace(req, rank=rank))
    if lod >= LABEL_MIN_LOD:
        for item in units_in_view():
            req = item.label_request(lod)
            if req is not None:
                requests.append(req)
    if static is not None and static[0].get("key") == static[1]:
        fixed_requests = static[0]["requests"]
    else:
        fixed_requests = []
        towns, objectives = [], []
        kinds = (("terrain", fixed_requests), ("deployment_zones", fixed_requests), ("reinforcements", fixed_requests))
        for kind, out in (*kinds, ("towns", towns), ("objectives", objectives)):
            for item in by_kind[kind].values():
                x0, y0, x1, y1 = item.scene_box
                if x0 < vx1 and vx0 < x1 and y0 < vy1 and vy0 < y1 and item.isVisible():
                    req = item.label_request(lod)
                    if req is not None:
                        out.append(req if out is fixed_requests else (QRectF(x0, y0, x1 - x0, y1 - y0), req))
        fixed_requests += merge_town_objectives(towns, objectives)
        if static is not None:
            static[0].update(key=static[1], requests=fixed_requests)
    requests += fixed_requests

    def troops() -> list[QRectF]:
        out = [
            t.mapRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)))
            for x0, y0, x1, y1 in (i.scene_box for i in units_in_view())
        ]
        for item in every if every is not None else commanders_in(by_kind["commanders"].values()):
            extent = item.device_extent()
            if extent is not None:
                p = t.map(item.pos())
                out.append(QRectF(p, p).adjusted(*extent))
        return out

    bounds = vp.intersected(t.mapRect(table))
    return place_labels(requests, t, troops, bounds=bounds if bounds.isValid() else None, fixed=fixed)
