"""The actions of Belle Alliance (seed 001) in the open phase (``rules.actions``): each an ``ActionHandler``
with its legality, odds and resolution, the rule section in its docstring.

``order_roll`` (1.1.3, orders phase) in ``orders``; ``announce_attack`` (4.1.1–4.1.2, movement
phase) in ``announce``; ``fire`` (the umpire's entry; 4.1.3 fired this turn) in ``fire``;
``melee`` (4.1.1, 4.1.3–4.1.8, melee and continued-advance phases) in ``melee``;
``melee_several`` (one unit attacking several at once, 4.1.5) in ``several``;
``retreat`` (the loser's retreat or rout, 4.1.4-4.1.5) in ``retreat``; ``continued_attack`` and
``continued_advance`` (4.1.4) in ``continued``.
"""

from __future__ import annotations

from battlestudio.rules.actions import ActionHandler, ActionTable
from battlestudio.rules.belle_alliance import announce, continued, fire, melee, orders, retreat, several
from battlestudio.rules.params import RuleParameters

HANDLERS: tuple[ActionHandler, ...] = (
    orders.HANDLER,
    *announce.HANDLERS,
    fire.HANDLER,
    *melee.HANDLERS,
    several.HANDLER,
    retreat.HANDLER,
    *continued.HANDLERS,
)

ACTIONS = ActionTable(HANDLERS, lambda params: RuleParameters.for_ruleset("belle-alliance", params))
