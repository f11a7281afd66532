"""Torden over Europa's formation changes (1.6, 1.7, 4.4, 4.5): who may change, into what, where
the unit stands afterwards and what it costs.

* 1.6: a unit in order (O) or disorder (U) may change formation, even against its order; a unit
  in complete disorder (FU) may not; only an FU unit stands as a formless mob (``none``);
* 1.7: column needs enough figures for 3–4 ranks, a march column at least 3 ranks
  (``formations.formation_problem``);
* 4.5: the front-edge midpoint and facing are kept; line ↔ march column turns on the spot;
  a square may face out of any of its sides (``formations.reformed_unit``);
* 4.4: the change is paid from the march length, by a deduction the national supplements give
  (lost from the seed): the scenario parameter ``formation_change_cm`` (or
  ``formation_change_cm.<nation>``) when it sets one, else none is deducted and the
  explanation says so.
"""

from __future__ import annotations

from typing import Literal

from battlestudio.model.formations import FormationChange, arm_formation_problem, formation_problem, reformed_unit
from battlestudio.model.geometry import EdgeName
from battlestudio.model.units import Formation, OrderState, UnitValueError
from battlestudio.replay.state import GameState
from battlestudio.rules.params import RuleParameters, RuleRefused

COST_PARAMETER = "formation_change_cm"
"""Scenario parameter of the march-length deduction for a formation change (national supplement)."""


def formation_change(
    state: GameState,
    params: RuleParameters,
    unit_id: str,
    formation: str,
    column_ranks: int | None = None,
    *,
    turn: Literal["right", "left"] = "right",
    side: EdgeName = "front",
) -> FormationChange:
    """``unit_id`` changing to ``formation`` under 1.6, 1.7, 4.4 and 4.5 (see the module).

    Raises
    ------
    RuleRefused
        for an unknown unit or formation, an FU or eliminated unit, a mob that is not FU, or a
        formation its figures cannot take (1.7); the message names the rule.
    """
    u = state.units.get(unit_id)
    if u is None:
        raise RuleRefused(f"no unit {unit_id!r} on the table")
    try:
        new = Formation(formation)
    except ValueError:
        raise RuleRefused(
            f"{u.name}: {formation!r} is not a formation ({', '.join(f.value for f in Formation)})"
        ) from None
    if u.state == OrderState.ELIMINATED.value:
        raise RuleRefused(f"{u.name} is eliminated and has no formation to change")
    if u.state == OrderState.FU.value and new != Formation.NONE:
        raise RuleRefused(
            f"{u.name} is in complete disorder (FU) and cannot change formation (Torden over Europa 1.6); "
            "reorganise it first"
        )
    if new == Formation.NONE and u.state != OrderState.FU.value:
        raise RuleRefused(
            f"only a unit in complete disorder (FU) stands as a mob without formation (Torden over Europa 1.6); "
            f"{u.name} is in state {u.state}: record its order state instead"
        )
    wrong_arm = arm_formation_problem(u.arm, new)
    if wrong_arm is not None:
        raise RuleRefused(f"{u.name}: {wrong_arm} (Torden over Europa 1.7, 4.6)")
    ranks = u.column_ranks if column_ranks is None else column_ranks
    problem = formation_problem(new.value, u.figures, ranks)
    if problem is not None:
        raise RuleRefused(f"{u.name}: {problem}")
    try:
        after = reformed_unit(u, new, column_ranks, turn=turn, side=side)
    except (UnitValueError, ValueError) as exc:
        raise RuleRefused(f"{u.name}: {exc}") from None
    old = u.formation.value
    if {old, new.value} == {"line", "march_column"}:
        anchor = f"the figures turn on the spot to the {turn} (4.5): facing {after.facing:.0f}°"
    elif side != "front":
        anchor = f"the square faces out of its {side} side (4.5): facing {after.facing:.0f}°"
    else:
        anchor = "the centre of the front edge and the facing stay where they were (4.5)"
    found = params.lookup(f"{COST_PARAMETER}.{u.nation}", COST_PARAMETER) if u.nation else params.lookup(COST_PARAMETER)
    if found is not None:
        cost: float | None = float(found[1])
        paid = f"it costs {cost:g} cm of its march length (4.4; scenario parameter {found[0]})"
    else:
        cost = None
        paid = (
            "the march-length deduction for a formation change is in the national supplements, which the "
            f"rules text lost (4.4): none is deducted (scenario parameter {COST_PARAMETER} sets one)"
        )
    text = f"{u.name}: {old.replace('_', ' ')} → {new.value.replace('_', ' ')}; {anchor}; {paid}."
    return FormationChange(after, text, cost)
