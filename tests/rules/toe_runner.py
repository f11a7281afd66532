"""Runner of the data-driven Torden over Europa rule cases in ``tests/rules/toe_cases/``.

A case is a folder with ``scenario.json`` (a base world from ``_bases/`` plus patches),
``actions.json`` (what the umpire does, with the dice it rolls) and ``expected.json`` (a partial
match of each action's result and events, and of the final state). See ``README.md`` there.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, is_dataclass, replace
from pathlib import Path
from typing import Any

from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.orders import Order, OrderStatus
from battlestudio.model.units import Arm, Commander, Formation, Subtype, Unit
from battlestudio.replay.events import event_from_dict
from battlestudio.replay.state import GameState
from battlestudio.rules import MissingParameterError, OrderRequest, ReplayDice, RuleRefused
from battlestudio.rules.toe import ruleset
from battlestudio.rules.toe import checks, command
from battlestudio.rules.toe.common import covered_by, order_in_force_for, params_for

CASES = Path(__file__).parent / "toe_cases"


def _merge(base: dict, patch: dict | None) -> dict:
    out = dict(base)
    for k, v in (patch or {}).items():
        if v is None:
            out.pop(k, None)
        elif isinstance(v, dict) and isinstance(out.get(k), dict) and k not in ("attributes",):
            out[k] = {**out[k], **v}
        else:
            out[k] = v
    return out


def _unit(uid: str, d: dict) -> Unit:
    d = dict(d)
    d["arm"] = Arm(d.get("arm", "infantry"))
    if d.get("subtype"):
        d["subtype"] = Subtype(d["subtype"])
    d["formation"] = Formation(d.get("formation", "line"))
    d["position"] = tuple(d.get("position", (0, 0)))
    d.setdefault("name", uid)
    return Unit(id=uid, **d)


def _commander(cid: str, d: dict) -> Commander:
    d = dict(d)
    d["position"] = tuple(d.get("position", (0, 0)))
    d.setdefault("name", cid)
    return Commander(id=cid, **d)


def load_case(folder: Path) -> tuple[GameState, dict, list, dict]:
    """``(state, params, actions, expected)`` of a case folder."""
    scen = json.loads((folder / "scenario.json").read_text())
    base: dict = {}
    if scen.get("base"):
        base = json.loads((CASES / "_bases" / f"{scen['base']}.json").read_text())
    params = _merge(base.get("params", {}), scen.get("params"))
    units = {}
    for uid, d in _merge(base.get("units", {}), scen.get("units")).items():
        units[uid] = _unit(uid, _merge(base.get("units", {}).get(uid, {}), d) if uid in base.get("units", {}) else d)
    comms = {}
    for cid, d in _merge(base.get("commanders", {}), scen.get("commanders")).items():
        comms[cid] = _commander(
            cid, _merge(base.get("commanders", {}).get(cid, {}), d) if cid in base.get("commanders", {}) else d
        )
    oob = OrderOfBattle()
    for sup, sub in base.get("oob", []) + scen.get("oob", []):
        oob.add(sup, sub)
    orders = {}
    for oid, d in scen.get("orders", {}).items():
        d = dict(d)
        d["status"] = OrderStatus(d.get("status", "delivered"))
        if d.get("objective") is not None:
            d["objective"] = tuple(d["objective"])
        orders[oid] = Order(id=oid, **d)
    flags = {k: (tuple(v) if isinstance(v, list) else v) for k, v in scen.get("flags", {}).items()}
    state = GameState(
        units=units,
        commanders=comms,
        orders=orders,
        oob=oob,
        turn=scen.get("turn", 1),
        side=scen.get("side", "french"),
        phase="orders",
        flags=flags,
    )
    actions = json.loads((folder / "actions.json").read_text())
    expected = json.loads((folder / "expected.json").read_text())
    return state, params, actions, expected


def plain(x: Any) -> Any:
    """Dataclasses, tuples and enums as JSON-like data."""
    if is_dataclass(x) and not isinstance(x, type):
        if hasattr(x, "to_dict"):
            return plain(x.to_dict())
        return {k: plain(v) for k, v in asdict(x).items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if hasattr(x, "value") and not isinstance(x, (int, float, str, bool)):
        return x.value
    return x


def _request(d: dict) -> OrderRequest:
    return OrderRequest(
        issuer=d["issuer"],
        recipient=d.get("recipient", ""),
        order_type=d["order_type"],
        objective=tuple(d["objective"]) if d.get("objective") is not None else None,
        parameters=d.get("parameters", {}),
        modifiers=tuple(tuple(m) for m in d.get("modifiers", ())),
        cancel=d.get("cancel", ""),
    )


def run_action(state: GameState, params: dict, action: dict) -> tuple[dict, GameState]:
    """Do one action; returns its result as plain data and the state after its events."""
    do = action["do"]
    p = params_for(params)
    events: list = []
    dice = ReplayDice([(purpose, tuple(faces)) for purpose, faces in action.get("dice", [])])
    try:
        if do in ("order_phase", "issue_order"):
            reqs = [_request(r) for r in action["requests"]]
            if do == "issue_order":
                out = ruleset.issue_order(state, reqs[0], params, dice)
                result = {
                    "status": out.status,
                    "order_id": out.order_id,
                    "explanation": out.explanation,
                    "rolls": [r.explain() for r in out.rolls],
                    "odds": [str(r.probability()) for r in out.rolls],
                }
                events = list(out.events)
            else:
                ph = ruleset.order_phase(state, reqs, params, dice)
                result = {
                    "outcomes": [
                        {
                            "status": o.status,
                            "order_id": o.order_id,
                            "explanation": o.explanation,
                            "rolls": [r.explain() for r in o.rolls],
                        }
                        for o in ph.outcomes
                    ],
                    "assumed": ph.assumed,
                }
                events = list(ph.events)
            result["dice_left"] = dice.remaining
        elif do == "legal_move":
            mv = ruleset.legal_move(state, action["commander"], params)
            result = {
                k: plain(getattr(mv, k))
                for k in (
                    "order_type",
                    "start",
                    "direction",
                    "min_cm",
                    "max_cm",
                    "end",
                    "stop_reason",
                    "completes",
                    "explanation",
                )
            }
            result["close_up"] = sorted(f.subject for f in mv.close_up)
            events = list(mv.events)
        elif do == "command_check":
            ck = ruleset.command_check(state, action["formation"], params, dice)
            result = {"flags": plain(ck.flags), "restrictions": list(ck.restrictions), "explanation": ck.explanation}
            events = list(ck.events)
        elif do == "out_of_command":
            found = ruleset.out_of_command(state, params, action.get("side"))
            result = {
                "findings": {f.subject: plain(f) for f in found},
                "out": sorted(f.subject for f in found if not f.within),
            }
        elif do == "order_types":
            types = ruleset.order_types(state, action["issuer"], action["recipient"], params)
            result = {"types": {t.id: t.unavailable for t in types}}
        elif do == "reach":
            result = plain(ruleset.command_reach(state, action["commander"], params))
        elif do == "oas":
            cap, spent, left = command.oas_budget(state, p, action["commander"])
            result = {"capacity": cap, "spent": spent, "left": left}
        elif do == "propagation":
            o, holder = order_in_force_for(state, action["node"])
            result = {"order": o.id if o else None, "holder": holder}
        elif do == "covered":
            result = {"nodes": sorted(covered_by(state, action["holder"]))}
        elif do == "cavalry_leaves":
            ck = checks.cavalry_leaves_command(state, p, action["unit"], action["target"])
            result = {"flags": plain(ck.flags), "restrictions": list(ck.restrictions)}
            events = list(ck.events)
        elif do == "cavalry_raid_turn":
            ck = checks.cavalry_raid_turn(state, p, action["unit"], action["attacked"])
            result = {"flags": plain(ck.flags), "restrictions": list(ck.restrictions)}
            events = list(ck.events)
        elif do == "raid_end":
            events = checks.raid_end_events(state, p)
            result = {}
        elif do == "set":
            for uid, patch in action.get("units", {}).items():
                u = state.units[uid]
                fields = {k: (tuple(v) if isinstance(v, list) else v) for k, v in patch.items()}
                state = state.with_unit(replace(u, **fields))
            for cid, patch in action.get("commanders", {}).items():
                c = state.commanders[cid]
                fields = {k: (tuple(v) if isinstance(v, list) else v) for k, v in patch.items()}
                state = state.with_commander(replace(c, **fields))
            if "turn" in action:
                state = state.evolve(turn=action["turn"])
            result = {}
        elif do == "apply":
            events = [event_from_dict(e) for e in action["events"]]
            result = {}
        else:
            raise AssertionError(f"unknown action {do!r}")
    except MissingParameterError as exc:
        return {"error": str(exc), "parameter": exc.parameter}, state
    except RuleRefused as exc:
        return {"error": str(exc)}, state
    result["events"] = [e.to_dict() for e in events]
    if action.get("apply", True):
        for e in events:
            state = e.apply(state)
    return result, state


def final_view(state: GameState) -> dict:
    """The parts of a state ``expected.json``'s ``final`` may check."""
    return {
        "orders": {
            oid: {
                "status": o.status.value,
                "order_type": o.order_type,
                "recipient": o.recipient,
                "objective": plain(o.objective),
                "parameters": plain(o.parameters),
            }
            for oid, o in state.orders.items()
        },
        "flags": plain(dict(state.flags)),
        "superior": {n: state.oob.superior(n) for n in state.oob.graph.nodes},
        "commanders": {cid: {"position": list(c.position)} for cid, c in state.commanders.items()},
    }


def match(expected: Any, actual: Any, where: str = "") -> None:
    """Partial match: dict keys of ``expected`` only; ``"~text"`` a substring (of some item, for a
    list); numbers to 1e-6;
    ``{"len": n}`` a list's length; lists elementwise."""
    if isinstance(expected, dict) and set(expected) == {"len"}:
        assert isinstance(actual, (list, dict)) and len(actual) == expected["len"], (
            f"{where}: expected length {expected['len']}, got {actual!r}"
        )
        return
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected a mapping, got {actual!r}"
        for k, v in expected.items():
            assert k in actual, f"{where}: missing key {k!r} in {sorted(actual)}"
            match(v, actual[k], f"{where}.{k}")
    elif isinstance(expected, list):
        assert isinstance(actual, (list, tuple)), f"{where}: expected a list, got {actual!r}"
        assert len(expected) == len(actual), f"{where}: expected {len(expected)} items, got {len(actual)}: {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            match(e, a, f"{where}[{i}]")
    elif isinstance(expected, str) and expected.startswith("~") and isinstance(actual, (list, tuple)):
        assert any(isinstance(a, str) and expected[1:] in a for a in actual), (
            f"{where}: {expected[1:]!r} in none of {actual!r}"
        )
    elif isinstance(expected, str) and expected.startswith("~"):
        assert isinstance(actual, str) and expected[1:] in actual, f"{where}: {expected[1:]!r} not in {actual!r}"
    elif isinstance(expected, bool) or expected is None:
        assert actual is expected or actual == expected, f"{where}: expected {expected!r}, got {actual!r}"
    elif isinstance(expected, (int, float)):
        assert isinstance(actual, (int, float)) and math.isclose(expected, actual, abs_tol=1e-6), (
            f"{where}: expected {expected!r}, got {actual!r}"
        )
    else:
        assert expected == actual, f"{where}: expected {expected!r}, got {actual!r}"
