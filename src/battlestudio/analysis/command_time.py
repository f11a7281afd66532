"""Time each formation spent out of command: the ruleset's out-of-command check run on the
state at the end of every turn (Torden over Europa 2.4–2.5; each ruleset's own rule through
the Protocol's ``out_of_command``).

A subject counts as out of command at a turn end when the ruleset finds it outside its
superior's command distance with no exemption (detached, routed, cavalry on an attack are
counted separately as ``exempt``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping

from battlestudio.analysis.common import corps_of, turn_end_positions
from battlestudio.replay.game import GameLog
from battlestudio.rules import Ruleset, RuleRefused


@dataclass(frozen=True, slots=True)
class OutOfCommandTime:
    """One subject (division general or unit): its ``corps``, the ``turns`` sampled where it
    was checked, the turns it was ``out`` of command, and those it was outside but ``exempt``."""

    subject: str
    name: str
    side: str
    corps: str
    checked: tuple[int, ...]
    out: tuple[int, ...]
    exempt: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CommandTimeResult:
    """Per-subject times, and the ruleset's refusal ("" if none) when it could not check
    (e.g. a command distance missing from the scenario's parameters)."""

    rows: tuple[OutOfCommandTime, ...]
    refusal: str = ""


def out_of_command_time(log: GameLog, ruleset: Ruleset, params: Mapping[str, Any]) -> CommandTimeResult:
    """Sample ``ruleset.out_of_command`` at the end of every turn (not the deployment).

    Rows are sorted by (side, corps, subject); only subjects checked at least once appear.
    A ``RuleRefused`` (missing parameter) stops the sampling and is returned as ``refusal``.
    """
    checked: dict[str, list[int]] = {}
    out: dict[str, list[int]] = {}
    exempt: dict[str, list[int]] = {}
    initial = log.initial
    for turn, pos in turn_end_positions(log)[1:]:
        state = log.state_at(pos)
        try:
            findings = ruleset.out_of_command(state, params)
        except RuleRefused as exc:
            return CommandTimeResult((), str(exc))
        for f in findings:
            checked.setdefault(f.subject, []).append(turn)
            if not f.within:
                (exempt if f.exemption else out).setdefault(f.subject, []).append(turn)
    rows = []
    for sid, turns in checked.items():
        rec = initial.commanders.get(sid) or initial.units.get(sid)
        rows.append(
            OutOfCommandTime(
                sid,
                rec.name if rec else sid,
                rec.side if rec else "",
                corps_of(initial, sid),
                tuple(turns),
                tuple(out.get(sid, ())),
                tuple(exempt.get(sid, ())),
            )
        )
    rows.sort(key=lambda r: (r.side, r.corps, r.subject))
    return CommandTimeResult(tuple(rows))


def turns_out_by_corps(result: CommandTimeResult) -> dict[str, int]:
    """Unit-turns out of command summed per corps (for the bar chart)."""
    out: dict[str, int] = {}
    for r in result.rows:
        out[r.corps] = out.get(r.corps, 0) + len(r.out)
    return out
