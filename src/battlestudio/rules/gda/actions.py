"""The actions of General d'Armée (seed 002) in the open phase (``rules.actions``): each an ``ActionHandler``
with its legality, odds and resolution, the rule section in its docstring.

In the order of an attack: ``declaration`` (attack-declaration phase: Атака!, restrictions
1-16, supports); then in the attacks phase ``attack_move`` (the wheel, Forward!'s dice, closing
to 5 cm), ``reactions`` (the target fires, wheels, forms square, turns about, evades or routs),
``fire`` (the defenders' fire at 5 cm, entered by the umpire and split), ``fire_support``
(ПРОВЕДЕНИЕ АТАКИ 6), ``discipline`` (the attackers' tests at 5 cm), ``melee`` (the 2D6 roll
with its supports' rerolls), ``fate`` (a clean double six), ``results`` (the lost Attack Results
table applied to every unit); ``rally``: the Steady brigade's automatic rally and the Hesitant
brigade's retreating and routing units (movement phase).
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
