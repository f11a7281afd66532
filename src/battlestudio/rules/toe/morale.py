"""Torden over Europa: Morale (8) and reorganisation (9) as actions (``rules.actions.ActionHandler``)."""

from __future__ import annotations

from battlestudio.rules.actions import ActionHandler

HANDLERS: tuple[ActionHandler, ...] = ()
