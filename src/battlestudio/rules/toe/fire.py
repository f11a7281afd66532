"""Torden over Europa: Fire (6.1) and ammunition (6.2) as actions (``rules.actions.ActionHandler``)."""

from __future__ import annotations

from battlestudio.rules.actions import ActionHandler

HANDLERS: tuple[ActionHandler, ...] = ()
