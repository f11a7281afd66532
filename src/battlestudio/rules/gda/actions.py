"""The actions of General d'Armée (seed 002) in the open phase (``rules.actions``): each an ``ActionHandler``
with its legality, odds and resolution, the rule section in its docstring.

``melee``: declare an attack (attack-declaration phase), roll it and apply its result
(attacks phase); ``reactions``: the target's reaction, the attack move and the Fate test
(attacks phase); ``fire``: the defenders' fire at an attack, entered by the umpire and split
(attacks phase); ``rally``: the Steady brigade's automatic rally and the Hesitant brigade's
retreating and routing units (movement phase).
"""

from __future__ import annotations

from battlestudio.rules.actions import ActionHandler, ActionTable
from battlestudio.rules.gda import (
    attack_move,
    declaration,
    discipline,
    fate,
    fire,
    fire_support,
    melee,
    rally,
    reactions,
    results,
)
from battlestudio.rules.params import RuleParameters

HANDLERS: tuple[ActionHandler, ...] = (
    *declaration.HANDLERS,
    *melee.HANDLERS,
    *results.HANDLERS,
    *attack_move.HANDLERS,
    *reactions.HANDLERS,
    *discipline.HANDLERS,
    *fate.HANDLERS,
    *fire.HANDLERS,
    *fire_support.HANDLERS,
    *rally.HANDLERS,
)

ACTIONS = ActionTable(HANDLERS, lambda params: RuleParameters.for_ruleset("gda", params))
