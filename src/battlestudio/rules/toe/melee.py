"""Torden over Europa: Melee (7.1-7.3) as actions (``rules.actions.ActionHandler``)."""

from __future__ import annotations

from battlestudio.rules.actions import ActionHandler

HANDLERS: tuple[ActionHandler, ...] = ()
