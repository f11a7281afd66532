"""Small General d'Armée worlds for the rule tests: sides, brigades and units on a table."""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.units import Arm, Commander, Formation, Subtype, Unit
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import ReplayDice
from battlestudio.rules.params import RuleParameters


def unit(
    uid: str,
    side: str = "french",
    quality: str = "line",
    x: float = 0.0,
    y: float = 0.0,
    facing: float = 90.0,
    arm: Arm = Arm.INFANTRY,
    state: str = "formed",
    formation: Formation = Formation.COLUMN,
    subtype: Subtype | None = None,
    figures: int = 12,
    bases: int | None = None,
    **attributes: Any,
) -> Unit:
    """A battalion (12 figures, 2 cm × 1.5 cm each) whose front-edge midpoint is (x, y)."""
    return Unit(
        id=uid,
        name=uid,
        side=side,
        arm=arm,
        subtype=subtype,
        quality=quality,
        figures=figures,
        bases=bases,
        position=(x, y),
        facing=facing,
        formation=formation,
        state=state,
        figure_width=2.0,
        figure_depth=1.5,
        attributes=dict(attributes),
    )


def general(
    cid: str,
    side: str = "french",
    echelon: str = "brigade",
    x: float = 0.0,
    y: float = 0.0,
    nation: str = "France",
    **attributes: Any,
) -> Commander:
    return Commander(
        id=cid, name=cid, side=side, nation=nation, echelon=echelon, position=(x, y), attributes=dict(attributes)
    )


def world(
    commanders: Iterable[Commander],
    units: Iterable[Unit],
    edges: Iterable[tuple[str, str]],
    turn: int = 1,
    side: str = "french",
    flags: dict | None = None,
) -> GameState:
    cs = {c.id: c for c in commanders}
    us = {u.id: u for u in units}
    return GameState(
        units=us,
        commanders=cs,
        orders={},
        oob=OrderOfBattle(edges),
        turn=turn,
        side=side,
        phase="command",
        flags=flags or {},
    )


def brigade(
    bid: str, units: list[Unit], side: str = "french", x: float = 0.0, y: float = -10.0, **status: Any
) -> tuple[Commander, list[Unit], list[tuple[str, str]]]:
    c = general(bid, side=side, x=x, y=y, gda=status) if status else general(bid, side=side, x=x, y=y)
    return c, units, [(bid, u.id) for u in units]


def gda_params(**overrides: Any) -> RuleParameters:
    return RuleParameters.for_ruleset("gda", overrides)


def dice(*draws: tuple[str, tuple[int, ...]]) -> ReplayDice:
    return ReplayDice(list(draws))
