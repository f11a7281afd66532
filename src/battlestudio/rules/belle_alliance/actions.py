"""The actions of Belle Alliance (seed 001) in the open phase (``rules.actions``): each an ``ActionHandler``
with its legality, odds and resolution, the rule section in its docstring."""

from __future__ import annotations

from battlestudio.rules.actions import ActionHandler, ActionTable
from battlestudio.rules.params import RuleParameters

HANDLERS: tuple[ActionHandler, ...] = ()

ACTIONS = ActionTable(HANDLERS, lambda params: RuleParameters.for_ruleset("belle-alliance", params))
