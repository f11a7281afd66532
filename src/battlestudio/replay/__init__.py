"""Game log and replay: battle events, keyframes, state_at, Timeline.

Importing this package registers every battle event kind (``events`` pulls in the flow and
combat kinds; ``order_events`` adds the order and chain-of-command kinds), so the store can
rebuild any event with ``event_from_dict``.
"""

from battlestudio.replay import events  # noqa: F401  (registers the flow and combat kinds)

try:
    import battlestudio.replay.order_events  # noqa: F401  (registers the order kinds)
except ModuleNotFoundError as exc:  # not written yet; any other import failure must surface
    if exc.name != "battlestudio.replay.order_events":
        raise
