"""The actions of Torden over Europa in the open phase (``rules.actions``): carrying out a
standing order (``execution``, 2.5-2.11 and chapter 4), unfolding a square (``formations``,
1.7, 4.5), attack declaration and reactions (``reactions``, chapter 5), fire and ammunition
(``fire``, chapter 6), melee (``melee``, chapter 7), morale and reorganisation (``morale``,
chapters 8-9)."""

from __future__ import annotations

from battlestudio.rules.actions import ActionTable
from battlestudio.rules.toe import execution, fire, formations, melee, morale, reactions
from battlestudio.rules.toe.common import params_for

ACTIONS = ActionTable(
    execution.HANDLERS + formations.HANDLERS + reactions.HANDLERS + fire.HANDLERS + melee.HANDLERS + morale.HANDLERS,
    params_for,
)
