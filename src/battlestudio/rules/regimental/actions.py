"""The actions of the Regimental rules (seed 003) in the open phase (``rules.actions``): move,
deploy and the skirmish chain (``orders``, Перемещение, Артиллерия, Застрельщики), fire and
artillery fire (``fire``, 3.3-3.3.3), melee with the square test (``melee``, 3.4-3.4.2), morale,
reform, the end of the turn and the commander casualty test (``upkeep``), each an
``ActionHandler`` with its legality, odds and resolution."""

from __future__ import annotations

from battlestudio.rules.actions import ActionHandler, ActionTable
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental import fire, melee, orders, upkeep

HANDLERS: tuple[ActionHandler, ...] = orders.HANDLERS + fire.HANDLERS + melee.HANDLERS + upkeep.HANDLERS

ACTIONS = ActionTable(HANDLERS, lambda params: RuleParameters.for_ruleset("regimental", params))
