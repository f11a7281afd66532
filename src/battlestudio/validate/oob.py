"""Checks of the order of battle: its structure (``OrderOfBattle.validate``: unknown ids,
cycles, several superiors, units without a commander, roots per side, echelons) and commanders
with nobody to command."""

from __future__ import annotations

from collections.abc import Iterable

from battlestudio.model.scenario import Scenario
from battlestudio.validate.problem import Problem, error, warning


def structure(s: Scenario) -> Iterable[Problem]:
    """``OrderOfBattle.validate`` as errors, check id ``oob.<its code>``."""
    for p in s.validate_oob():
        yield error(f"oob.{p.code.replace('-', '_')}", f"oob: {p.message}", *p.ids)


def idle_commanders(s: Scenario) -> Iterable[Problem]:
    """Commanders with no subordinate in the order of battle (warnings)."""
    for cid, c in s.commanders.items():
        if not s.oob.subordinates(cid):
            yield warning("commander.idle", f"oob[{cid!r}]: {c.name} commands nobody", cid)
