"""Regimental sessions on the bundled Elchingen scenario for the action tests: units placed
where a rule needs them, a scripted dice source that hands each purpose its faces, and the
activation of a division through the orders test (2.2)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from battlestudio import store
from battlestudio.rules import get_ruleset
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.dice import DiceSpec
from battlestudio.rules.protocol import OrderRequest
from battlestudio.session import GameSession

ELCHINGEN = Path(__file__).resolve().parents[2] / "scenarios" / "elchingen-1805.battle.json"
HQ = {"austrian": "austrian-riesch-corps", "french": "french-vi-corps"}


class Script:
    """Faces by purpose: ``{fragment: [faces, ...]}``; a roll takes the next faces of the first
    fragment found in its purpose; an unscripted roll fails the test (names it)."""

    def __init__(self, table: dict[str, list[list[int]]] | None = None) -> None:
        self.table: dict[str, list[list[int]]] = {k: [list(f) for f in v] for k, v in (table or {}).items()}
        self.log: list[tuple[str, tuple[int, ...]]] = []

    def add(self, fragment: str, *faces: list[int]) -> Script:
        self.table.setdefault(fragment, []).extend(list(f) for f in faces)
        return self

    def roll(self, purpose: str, dice: DiceSpec) -> tuple[int, ...]:
        for frag, queue in self.table.items():
            if frag in purpose and queue:
                faces = tuple(queue.pop(0))
                assert len(faces) == dice.count, (purpose, faces, str(dice))
                self.log.append((purpose, faces))
                return faces
        raise AssertionError(f"unscripted roll {purpose!r} ({dice})")

    def purposes(self) -> list[str]:
        return [p for p, _ in self.log]


def session(
    dice: Script,
    units: dict[str, dict[str, Any]] | None = None,
    params: dict[str, Any] | None = None,
    oob: dict[str, str] | None = None,
) -> GameSession:
    """Elchingen under the Regimental rules with ``units`` patched (id → fields) and ``oob``
    moves (node → new superior); the initiative is scripted (Austria first)."""
    battle = store.load(ELCHINGEN)
    for uid, fields in (units or {}).items():
        battle.scenario.units[uid] = replace(battle.scenario.units[uid], **fields)
    for node, sup in (oob or {}).items():
        battle.scenario.oob.add(sup, node)
    dice.add("initiative", [6], [1])
    s = GameSession(battle, get_ruleset("regimental"), dice=dice, params=params)
    s.start()
    return s


def activate(s: GameSession, side: str, formation: str, actions: list[str], die: int = 1) -> Any:
    """Advance to ``side``'s activation and activate ``formation`` with ``actions`` announced;
    the orders test rolls ``die``, an order test out of the HQ's zone rolls 1 (arrives)."""
    if (s.key.side, s.key.phase) != (side, "activation"):
        s.advance_to("activation", side)
    assert isinstance(s.dice, Script)
    s.dice.add(f"regimental-orders:{formation}", [die])
    s.dice.add(f"regimental-zone:{formation}", [1])
    out = s.issue_order(OrderRequest(HQ[side], formation, "activate", parameters={"actions": actions}))
    assert out.status == "delivered", out.explanation
    return out


def act(s: GameSession, action: str, subject: str, **params: Any) -> Any:
    return s.act(ActionRequest(action, subject, params))


def preview(s: GameSession, action: str, subject: str, **params: Any) -> Any:
    return s.preview_action(ActionRequest(action, subject, params))
