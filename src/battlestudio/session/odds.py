"""The exact odds of an order before it is rolled, from the ruleset itself.

The ruleset is asked to issue the order against a probe dice source that records which dice it
wants and answers with the lowest faces; nothing is appended anywhere (rulesets never mutate
state). Each roll record the ruleset returns carries its modifiers and threshold, so
``RollRecord.probability`` gives the exact chance, and the preview describes the roll without
the probe's faces: what the order dialog shows before "Roll".
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from collections.abc import Mapping

from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSpec, RollRecord
from battlestudio.rules.params import RuleRefused
from battlestudio.rules.protocol import OrderRequest, Ruleset


class ProbeDice:
    """A dice source that throws the lowest face of every die and remembers what was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, DiceSpec]] = []

    def roll(self, purpose: str, dice: DiceSpec) -> tuple[int, ...]:
        self.asked.append((purpose, dice))
        return (dice.low,) * dice.count


@dataclass(frozen=True, slots=True)
class OrderPreview:
    """What an order would need, before any die is thrown.

    Attributes
    ----------
    legal : bool
        False when the ruleset refuses the order (then ``reason`` says why).
    reason : str
        the refusal, "" when legal.
    rolls : tuple[RollRecord, ...]
        the rolls the order needs, each with its label (zone, distance), modifiers with their
        sources and threshold; the faces in them are the probe's, not a throw.
    probability : Fraction | None
        exact chance that every pass/fail roll succeeds (1 when no roll is needed; None when
        refused).
    text : str
        one line per roll: ``"<label>: d10 +2 command ability … ≥ 6 needed: 1/2 (50%)"``.
    """

    legal: bool
    reason: str
    rolls: tuple[RollRecord, ...]
    probability: Fraction | None
    text: str


def describe_roll(r: RollRecord) -> str:
    """A roll's label, dice, modifiers and threshold with its exact chance, without faces."""
    parts = [str(r.dice)] + [f"{m.value:+d} {m.source}" for m in r.modifiers]
    text = ", ".join(parts)
    p = r.probability()
    if r.threshold is not None and p is not None:
        text += f" ≥ {r.threshold} needed"
        if r.threshold_source:
            text += f" ({r.threshold_source})"
        text += f": {p.numerator}/{p.denominator} ({float(p):.0%})"
    return f"{r.label}: {text}" if r.label else text


def preview_order(ruleset: Ruleset, state: GameState, request: OrderRequest, params: Mapping[str, Any]) -> OrderPreview:
    """The legality and exact odds of ``request`` in ``state`` (the ruleset's own procedure,
    e.g. Torden over Europa 3.2–3.3: zone by distance, d10 + KE + Table 1 modifiers ≥ threshold).

    A ``RuleRefused`` from the ruleset (a missing scenario parameter, a distance beyond every
    zone) is reported as not legal with its message, never raised.
    """
    probe = ProbeDice()
    try:
        out = ruleset.issue_order(state, request, params, probe)
    except RuleRefused as exc:
        return OrderPreview(False, str(exc), (), None, f"Refused: {exc}")
    if out.status == "refused":
        reason = out.explanation.removeprefix("Refused: ")  # the dialogs say "Refused:" themselves
        return OrderPreview(False, reason, (), None, out.explanation)
    chance = Fraction(1)
    for r in out.rolls:
        p = r.probability()
        if p is not None:
            chance *= p
    text = "\n".join(describe_roll(r) for r in out.rolls) or "No roll needed."
    return OrderPreview(True, "", tuple(out.rolls), chance, text)
