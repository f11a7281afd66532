"""The report's summary per side: men at the start and the end, men lost and men who left the
table alive (``analysis.losses.loss_ledger``: start − end = lost + left), command rolls passed
and expected."""

from __future__ import annotations

from battlestudio.analysis import command_luck
from battlestudio.analysis.losses import loss_ledger
from battlestudio.model.scenario import Scenario
from battlestudio.replay.game import GameLog
from battlestudio.reports.html import SideSummary


def side_summaries(scenario: Scenario, log: GameLog) -> list[SideSummary]:
    """One ``SideSummary`` per side of ``scenario``, in its order, from the game ``log``."""
    ledger = {r.side: r for r in loss_ledger(log)}
    luck = {r.group: r for r in command_luck(log)}
    out = []
    for sid, side in scenario.sides.items():
        m, r = ledger.get(sid), luck.get(sid)
        out.append(
            SideSummary(
                side.name,
                side.colour,
                m.start if m else 0,
                m.end if m else 0,
                m.lost if m else 0,
                r.rolls if r else 0,
                r.observed if r else 0,
                float(r.expected) if r else 0.0,
                m.casualties if m else 0,
                m.eliminated if m else 0,
                m.left if m else 0,
                m.other if m else 0,
            )
        )
    return out
