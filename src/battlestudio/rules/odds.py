"""The odds of command a ruleset gives for an issuer and a recipient (``Ruleset.odds``), as
the odds panel shows them: exact ``Fraction``s from ``rules.dice``, nothing rolled.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from battlestudio.replay.state import GameState


@dataclass(frozen=True, slots=True)
class OddsRow:
    """One line of the odds table: ``label``, exact ``chance`` of success (None when the row
    is an expectation), ``expected`` value (e.g. actions), ``detail`` in words, ``current``
    when it is the situation now."""

    label: str
    chance: Fraction | None
    expected: Fraction | None = None
    detail: str = ""
    current: bool = False


@dataclass(frozen=True, slots=True)
class Odds:
    """The odds of command between ``issuer`` and ``recipient`` under ``ruleset`` (its id).

    ``headline`` says it in one sentence; ``rows`` per zone or situation; ``modifiers`` as
    (value, source); ``distance`` cm and ``zone`` where the ruleset measures them;
    ``what_if`` how the odds change if the commander moved into the next zone; ``refusal`` why
    no odds could be given ("" when they could); ``rule`` the sections.
    """

    ruleset: str
    issuer: str
    recipient: str
    headline: str = ""
    rows: tuple[OddsRow, ...] = ()
    modifiers: tuple[tuple[int, str], ...] = ()
    distance: float | None = None
    zone: int | None = None
    what_if: str = ""
    refusal: str = ""
    rule: str = ""


def pct(p: Fraction | None) -> str:
    """``Fraction(3, 10)`` → ``"30 %"`` (one decimal where needed); None → ``"–"``."""
    if p is None:
        return "–"
    v = float(p) * 100
    return f"{v:.0f} %" if abs(v - round(v)) < 0.05 else f"{v:.1f} %"


def name_of(state: GameState, rid: str) -> str:
    """The name of commander or unit ``rid`` in ``state``, else the id itself."""
    rec = state.commanders.get(rid) or state.units.get(rid)
    return rec.name if rec is not None and rec.name else rid
