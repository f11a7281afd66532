"""placeholder"""
from battlestudio.rules.actions import ActionHandler

HANDLERS: tuple[ActionHandler, ...] = ()
