"""Annotated highlights of a game log for reports: the umpire's notes, units eliminated or
routed off the table, command rolls against the odds, orders that got through, and the
bloodiest phase."""

from __future__ import annotations

from dataclasses import dataclass

from battlestudio.analysis.luck import command_rolls
from battlestudio.replay.combat_events import Casualties
from battlestudio.replay.events import Annotation, OrderStateChanged, UnitRemoved
from battlestudio.replay.game import GameLog
from battlestudio.replay.order_events import OrderDelivered, OrderWritten

LUCKY, UNLUCKY = 0.25, 0.75
"""A roll passing at a chance ≤ LUCKY, or failing at a chance ≥ UNLUCKY, is a highlight."""


@dataclass(frozen=True, slots=True)
class Highlight:
    """A moment worth showing: ``position`` in the log (state after it), its ``turn``, ``kind``
    (``note``, ``eliminated``, ``removed``, ``lucky``, ``unlucky``, ``order``, ``bloodiest``),
    a short ``title`` and the ``text``."""

    position: int
    turn: int
    kind: str
    title: str
    text: str


def _name(log: GameLog, rid: str) -> str:
    rec = log.initial.units.get(rid) or log.initial.commanders.get(rid)
    return rec.name if rec is not None and rec.name else rid


def highlights(log: GameLog, limit: int | None = None) -> list[Highlight]:
    """Highlights in log order (at most ``limit``, keeping the first of each kind first)."""
    out: list[Highlight] = []
    written: dict[str, OrderWritten] = {}
    phase_loss: dict[tuple[int, str, str], tuple[int, int]] = {}
    for pos, e in enumerate(log.events, start=1):
        if isinstance(e, Annotation):
            out.append(Highlight(pos, e.turn, "note", e.title or f"Turn {e.turn}", e.text))
        elif isinstance(e, OrderStateChanged) and e.state == "eliminated":
            out.append(
                Highlight(pos, e.turn, "eliminated", f"{_name(log, e.unit)} eliminated", e.reason or "eliminated")
            )
        elif isinstance(e, UnitRemoved):
            out.append(Highlight(pos, e.turn, "removed", f"{_name(log, e.id)} leaves the table", e.reason))
        elif isinstance(e, OrderWritten):
            written[e.order_id] = e
        elif isinstance(e, OrderDelivered) and e.order_id in written:
            w = written[e.order_id]
            out.append(
                Highlight(
                    pos,
                    e.turn,
                    "order",
                    f"{w.order_type} order to {_name(log, w.recipient)}",
                    f"{_name(log, w.issuer)}'s {w.order_type} order reaches {_name(log, w.recipient)}"
                    f" (written turn {w.turn})",
                )
            )
        elif isinstance(e, Casualties):
            k = (e.turn, e.side, e.phase)
            men, first = phase_loss.get(k, (0, pos))
            phase_loss[k] = (men + e.men, first)
    for r in command_rolls(log):
        if r.passed and r.p <= LUCKY:
            out.append(
                Highlight(
                    r.position, r.turn, "lucky", "Against the odds", f"{r.label}: passed at a {float(r.p):.0%} chance"
                )
            )
        elif not r.passed and r.p >= UNLUCKY:
            out.append(
                Highlight(
                    r.position,
                    r.turn,
                    "unlucky",
                    "A sure thing fails",
                    f"{r.label}: failed at a {float(r.p):.0%} chance",
                )
            )
    if phase_loss:
        (t, side, phase), (men, first) = max(phase_loss.items(), key=lambda kv: (kv[1][0], -kv[1][1]))
        out.append(
            Highlight(
                first, t, "bloodiest", "The bloodiest phase", f"turn {t}, {side}'s {phase} phase: {men:,} men lost"
            )
        )
    out.sort(key=lambda h: h.position)
    return out[:limit] if limit is not None else out
