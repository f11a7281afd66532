"""Jena 1806 set up for Torden over Europa melee and morale tests: units of V Corps and of the
Prussian advanced guard placed in base contact, a session in the open attack phase."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.rules import get_ruleset
from battlestudio.rules.dice import DiceSpec
from battlestudio.session import GameSession

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"

# V Corps, 2e division: 100e and 103e Ligne (18 figures each, column); 10e Hussards (cavalry)
ATT = "french-100e-ligne"
SUP = "french-103e-ligne"
HUSSAR = "french-10e-hussar"
OTHER_CORPS = "french-18e-ligne"  # Soult's IV Corps
# Prussian advanced guard: von Pelet (24 figures, line), Schimmelpfennig's cavalry, a foot battery
DEF = "prussian-bde-von-pelet"
PCAV = "prussian-cav-bde-von-schimmelpfennig"
BATTERY = "prussian-advanced-guard-foot-guns-1"

FRONT = (362.0, 180.0)
"""Where the 100e's front edge (facing north, 90°) meets von Pelet's front (facing south)."""


@dataclass
class ScriptedDice:
    """Faces handed out in order; ``asked`` keeps every purpose."""

    faces: list[tuple[int, ...]]
    asked: list[str] = field(default_factory=list)

    def roll(self, purpose: str, dice: DiceSpec) -> tuple[int, ...]:
        self.asked.append(purpose)
        f = self.faces.pop(0)
        assert len(f) == dice.count
        return f


def place(battle: Any, uid: str, position: tuple[float, float], facing: float, **changes: Any) -> None:
    u = battle.scenario.units[uid]
    battle.scenario.units[uid] = replace(u, position=position, facing=facing, **changes)


def jena(
    params: dict[str, Any] | None = None,
    dice: Any = None,
    support_gap: float | None = 3.0,
    phase: str = "attack",
    side: str = "french",
    placements: dict[str, tuple[tuple[float, float], float]] | None = None,
    changes: dict[str, dict[str, Any]] | None = None,
    commanders: dict[str, dict[str, Any]] | None = None,
) -> GameSession:
    """A Jena session in ``phase`` of ``side``: the 100e Ligne front to front with von Pelet
    at ``FRONT``; the 103e Ligne ``support_gap`` cm behind the 100e's rear rank (None: where
    the scenario has it); other units where ``placements`` say (id → (position, facing)), with
    the record ``changes`` (id → fields) on top and the ``commanders`` changes (id → fields);
    a placed unit's reinforcement arrives at once."""
    battle = Battle(store.load(JENA).scenario)  # the scenario without its recorded game
    place(battle, ATT, FRONT, 90.0)
    place(battle, DEF, FRONT, 270.0)
    if support_gap is not None:
        depth = battle.scenario.units[ATT].rect().depth
        place(battle, SUP, (FRONT[0], FRONT[1] - depth - support_gap), 90.0)
    for uid, (pos, facing) in (placements or {}).items():
        place(battle, uid, pos, facing)
        sc = battle.scenario
        for rid, r in list(sc.reinforcements.items()):  # a placed reinforcement is on the table from the start
            if uid == r.formation or uid in sc.oob.all_subordinates(r.formation):
                del sc.reinforcements[rid]
    for uid, ch in (changes or {}).items():
        battle.scenario.units[uid] = replace(battle.scenario.units[uid], **ch)
    for cid, ch in (commanders or {}).items():
        battle.scenario.commanders[cid] = replace(battle.scenario.commanders[cid], **ch)
    s = GameSession(battle, get_ruleset("toe"), dice=dice, seed=5, params=params)
    s.advance_to(phase, side)
    return s


TABLES = {
    "toe.melee_modifiers": {"attacker": 1, "support": 1, "formation:column": 1, "attacks_flank": 2, "defender": 0},
    "toe.melee_odds_modifiers": [["3:2", 1], ["2:1", 2], ["3:1", 3]],
    "toe.melee_losses.infantry": [[0, 1, 2, 0], [3, 1, 3, 1], [6, 0, 4, 2]],
    "toe.melee_losses.cavalry": [[0, 1, 2, 0], [3, 1, 3, 1]],
    "toe.melee_losses.artillery": [[0, 0, 1, 0]],
}
"""A scenario's stand-in for the lost Tables 7 and 8 (not the seed's values: the seed lost them)."""
