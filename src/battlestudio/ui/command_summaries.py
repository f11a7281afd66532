"""The command overlay's per-formation out-of-command counts, shown at whole-table zoom.

Below ``command_items.SUMMARY_LOD`` screen pixels per cm the red marks and lines of the units
and generals out of command are not drawn; instead each formation gets one red "!n" badge
beside its head (``SummaryItem``): the corps commander above them, else the commander they
answer to. Exempt subjects (detached, routed, ...) are not counted. The counts are kept per
subject, so a drag or a replay step that recomputed a few findings only moves those subjects
between formations and redraws the badges whose count, tooltip or position changed.

The badges' items hold the tooltip, the count and the room labels keep off, but paint nothing:
one ``SummaryLayer`` draws them all in one call (a whole table at x10 has ~600 of them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlestudio.analysis.command_picture import CommandPicture
from battlestudio.replay.state import GameState
from battlestudio.ui.command_items import SUMMARY_LOD, Z_BUDGET, SummaryItem
from battlestudio.ui.command_shapes import Pool, name_of

if TYPE_CHECKING:
    from battlestudio.ui.map_scene import MapScene


class FormationSummaries:
    """The "!n" badges of one overlay; ``items`` maps a formation head's id → its badge."""

    def __init__(self, scene: MapScene) -> None:
        self.layer = SummaryLayer(self)
        scene.addItem(self.layer)
        self.pool = Pool(scene, _silent_badge)
        self._oob: object = None
        self._heads: dict[str, str] = {}  # subject -> its formation's head (per order of battle)
        self._of: dict[str, str] = {}  # counted subject -> head
        self._members: dict[str, set[str]] = {}  # head -> counted subjects

    @property
    def items(self) -> dict[str, SummaryItem]:
        return self.pool.items  # type: ignore[return-value]

    def set_visible(self, visible: bool) -> None:
        self.pool.set_visible(visible)
        self.layer.setVisible(visible)

    def forget_formations(self) -> None:
        """Find each subject's formation afresh at the next sync (an edit may change the order
        of battle in place; a replay's states share one that does not change)."""
        self._oob = None

    def sync(
        self,
        state: GameState,
        pic: CommandPicture,
        visible: bool,
        touched: Iterable[str] | None = None,
        moved: Iterable[str] = (),
    ) -> None:
        """Count ``pic``'s out of command per formation: all of them (``touched`` None; also
        for another order of battle), or only the subjects in ``touched`` and the badges of the
        heads in ``moved``. Formations are found once per order of battle (``forget_formations``)."""
        if touched is None or self._oob is not state.oob:
            if self._oob is not state.oob:
                self._oob, self._heads = state.oob, {}
            self._of, self._members = {}, {}
            touched, changed = pic.findings, None
        else:
            changed = {h for h in moved if h in self._members}
        for sub in touched:
            head = self._head_if_counted(state, pic, sub)
            old = self._of.get(sub)
            if old == head:
                continue
            if old is not None:
                self._members[old].discard(sub)
                if changed is not None:
                    changed.add(old)
            if head is None:
                del self._of[sub]
                continue
            self._of[sub] = head
            self._members.setdefault(head, set()).add(sub)
            if changed is not None:
                changed.add(head)
        for head in list(self._members) if changed is None else changed:
            subs = self._members.get(head)
            if not subs:
                self._members.pop(head, None)
                gone = self.pool.items.get(head)
                if gone is not None:
                    self.layer.update_at(gone.pos())
                    self.pool.remove(head)
                continue
            self._draw(state, head, subs, visible)
        if changed is None:
            for head in [h for h in self.pool.items if h not in self._members]:
                self.layer.update_at(self.pool.items[head].pos())
            self.pool.keep_only(set(self._members))

    def _head_if_counted(self, state: GameState, pic: CommandPicture, sub: str) -> str | None:
        f = pic.findings.get(sub)
        if f is None or f.within or f.exemption:
            return None
        link = pic.links.get(sub)
        if link is None or link.superior not in state.commanders:
            return None
        head = self._heads.get(sub)
        if head is None:
            head = self._heads[sub] = corps_of(state, sub, link.superior)
        return head

    def _draw(self, state: GameState, head: str, subs: set[str], visible: bool) -> None:
        item = self.pool.get(head, visible)
        assert isinstance(item, SummaryItem)
        at = state.commanders[head].position
        key = (len(subs), at, frozenset(subs))
        if item.key == key:
            return
        names = sorted(name_of(state, i) for i in subs)
        listed = ", ".join(names[:6]) + (" …" if len(names) > 6 else "")
        if item.key:
            self.layer.update_at(item.pos())  # where it was
        item.set_summary(at, len(subs), f"{name_of(state, head)}: {len(subs)} out of command ({listed})")
        item.key = key
        self.layer.include(item.pos())
        self.layer.update_at(item.pos())


def corps_of(state: GameState, sub: str, superior: str) -> str:
    """The corps commander above ``sub``, else its ``superior``."""
    for cid in state.oob.chain_of_command(sub) if sub in state.oob else ():
        c = state.commanders.get(cid)
        if c is not None and c.echelon == "corps":
            return cid
    return superior


def _silent_badge() -> SummaryItem:
    item = SummaryItem()
    item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, True)  # the layer paints it
    return item


_BADGE_PX = 80.0
"""How far (screen pixels) a badge reaches from its commander, at most."""

_REACH_CM = 1500.0
"""How far (scene cm) a badge in screen pixels may reach from its commander at the smallest zoom."""


class SummaryLayer(QGraphicsItem):
    """Paints every shown "!n" badge of ``summaries`` in one call, below ``SUMMARY_LOD``."""

    def __init__(self, summaries: FormationSummaries) -> None:
        super().__init__()
        self.setZValue(Z_BUDGET)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.summaries = summaries
        self._rect = QRectF()

    def include(self, at: QPointF) -> None:
        """Grow the bounds to a badge's commander at ``at`` (scene; badges are in pixels: a wide
        margin). The bounds only grow, so a badge that moved does not repaint the whole layer."""
        m = _REACH_CM
        room = QRectF(at.x() - m, at.y() - m, 2 * m, 2 * m)
        if not self._rect.isEmpty() and self._rect.contains(room):
            return
        self.prepareGeometryChange()
        self._rect = self._rect.united(room)

    def update_at(self, at: QPointF) -> None:
        """Repaint a badge of the commander at ``at`` (scene), if badges are drawn at this zoom."""
        ctx = getattr(self.scene(), "ctx", None)
        if ctx is None or ctx.px_per_cm >= SUMMARY_LOD or ctx.px_per_cm <= 0:
            return
        m = _BADGE_PX / ctx.px_per_cm
        self.update(QRectF(at.x() - m, at.y() - m, 2 * m, 2 * m))

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        ctx = getattr(self.scene(), "ctx", None)
        if ctx is not None and ctx.px_per_cm >= SUMMARY_LOD:
            return  # zoomed in: each unit's own mark says it (the view's zoom, as ``SummaryItem.shown``)
        t = painter.worldTransform()
        exposed = t.mapRect(option.exposedRect)  # type: ignore[attr-defined]
        painter.save()
        painter.setTransform(QTransform())
        for item in self.summaries.pool.items.values():
            if not item.isVisible():
                continue
            at = t.map(item.pos())
            if not exposed.intersects(item.boundingRect().translated(at)):
                continue
            painter.translate(at)
            assert isinstance(item, SummaryItem)
            item.draw(painter)
            painter.translate(QPointF(-at.x(), -at.y()))
        painter.restore()
