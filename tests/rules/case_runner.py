"""Runner of the data-driven rule cases of General d'Armée (``gda_cases/``), the Regimental rules
(``regimental_cases/``) and Belle Alliance (``belle_alliance_cases/``): the Torden over Europa
case format of ``toe_runner`` (scenario, actions with exact dice, expected partial results)
generalised to any ruleset. See ``README.md`` in each folder for the actions it knows.

The scenario adds ``terrain`` (features as ``{"id", "kind", "polygon": [[x, y], ...]}`` or
``"line"``) to the ToE format; units and commanders are given in full or merged over a base
world in ``<cases>/_bases/``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from collections.abc import Callable

from shapely.geometry import LineString, Polygon

from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.orders import Order, OrderStatus
from battlestudio.model.terrain import TerrainFeature, TerrainKind
from battlestudio.replay.events import event_from_dict
from battlestudio.replay.state import GameState
from battlestudio.rules import MissingParameterError, ReplayDice, RuleRefused, get_ruleset

from tests.rules.toe_runner import _commander, _merge, _request, _unit, final_view, match, plain

HERE = Path(__file__).parent
Handler = Callable[[GameState, dict, dict, ReplayDice, list], tuple[dict, list]]


def folders(cases: Path) -> list[Path]:
    """The case folders under ``cases`` (those not starting with ``_``), sorted."""
    return sorted(p for p in cases.iterdir() if p.is_dir() and not p.name.startswith("_"))


def _feature(d: dict) -> TerrainFeature:
    geom = Polygon([tuple(p) for p in d["polygon"]]) if "polygon" in d else LineString([tuple(p) for p in d["line"]])
    return TerrainFeature(id=d.get("id", d["kind"]), kind=TerrainKind(d["kind"]), geometry=geom)


def load_case(folder: Path, cases: Path) -> tuple[GameState, dict, list, dict, list]:
    """``(state, params, actions, expected, terrain)`` of a case folder under ``cases``."""
    scen = json.loads((folder / "scenario.json").read_text())
    base: dict = {}
    if scen.get("base"):
        base = json.loads((cases / "_bases" / f"{scen['base']}.json").read_text())
    params = _merge(base.get("params", {}), scen.get("params"))
    units = {}
    for uid, d in _merge(base.get("units", {}), scen.get("units")).items():
        bu = base.get("units", {})
        units[uid] = _unit(uid, _merge(bu[uid], d) if uid in bu else d)
    comms = {}
    for cid, d in _merge(base.get("commanders", {}), scen.get("commanders")).items():
        bc = base.get("commanders", {})
        comms[cid] = _commander(cid, _merge(bc[cid], d) if cid in bc else d)
    oob = OrderOfBattle()
    for sup, sub in base.get("oob", []) + scen.get("oob", []):
        oob.add(sup, sub)
    orders = {}
    for oid, d in _merge(base.get("orders", {}), scen.get("orders")).items():
        d = dict(d)
        d["status"] = OrderStatus(d.get("status", "delivered"))
        if d.get("objective") is not None:
            d["objective"] = tuple(d["objective"])
        orders[oid] = Order(id=oid, **d)
    flags = {**base.get("flags", {}), **scen.get("flags", {})}
    flags = {k: (tuple(v) if isinstance(v, list) else v) for k, v in flags.items()}
    state = GameState(
        units=units,
        commanders=comms,
        orders=orders,
        oob=oob,
        turn=scen.get("turn", 1),
        side=scen.get("side", base.get("side", "french")),
        phase=scen.get("phase", "orders"),
        flags=flags,
    )
    terrain = [_feature(t) for t in base.get("terrain", []) + scen.get("terrain", [])]
    actions = json.loads((folder / "actions.json").read_text())
    expected = json.loads((folder / "expected.json").read_text())
    return state, params, actions, expected, terrain


def protocol_action(ruleset_id: str) -> Handler:
    """The actions every ruleset answers through the Protocol: ``issue_order``, ``command_check``,
    ``order_types``, ``reach``, ``out_of_command``, ``initiative``, ``next_activation``."""
    rs = get_ruleset(ruleset_id)

    def run(state: GameState, params: dict, action: dict, dice: ReplayDice, terrain: list) -> tuple[dict, list]:
        do = action["do"]
        if do == "issue_order":
            out = rs.issue_order(state, _request(action["request"]), params, dice)
            return (
                {
                    "status": out.status,
                    "order_id": out.order_id,
                    "explanation": out.explanation,
                    "rolls": [r.explain() for r in out.rolls],
                    "odds": [str(r.probability()) for r in out.rolls],
                    "spent": dict(out.spent),
                },
                list(out.events),
            )
        if do == "command_check":
            ck = rs.command_check(state, action["formation"], params, dice)
            return (
                {
                    "flags": plain(ck.flags),
                    "restrictions": list(ck.restrictions),
                    "explanation": ck.explanation,
                    "rolls": [r.explain() for r in ck.rolls],
                },
                list(ck.events),
            )
        if do == "order_types":
            types = rs.order_types(state, action["issuer"], action["recipient"], params)
            return {"types": {t.id: t.unavailable for t in types}, "costs": {t.id: t.cost for t in types}}, []
        if do == "reach":
            return plain(rs.command_reach(state, action["commander"], params)), []
        if do == "out_of_command":
            found = rs.out_of_command(state, params, action.get("side"))
            return (
                {
                    "findings": {f.subject: plain(f) for f in found},
                    "out": sorted(f.subject for f in found if not f.within),
                },
                [],
            )
        if do == "initiative":
            ini = rs.initiative(state, params, dice)
            return (
                {
                    "side": ini.side,
                    "explanation": ini.explanation,
                    "rolls": [r.explain() for r in ini.rolls],
                    "totals": [r.total for r in ini.rolls],
                },
                list(getattr(ini, "events", ())),
            )
        if do == "next_activation":
            return {"side": rs.next_activation(state)}, []
        raise KeyError(do)

    return run


def run_action(
    state: GameState, params: dict, action: dict, terrain: list, special: Handler, common: Handler
) -> tuple[dict, GameState]:
    """Do one action (``set`` — units, commanders, flags, turn, side, phase; ``run_case``
    applies its ``params`` — and ``apply`` here, the ruleset's own actions in ``special``,
    then the Protocol's in ``common``); returns its result as plain data and the state after
    its events (unless ``"apply": false``)."""
    from dataclasses import replace

    do = action["do"]
    dice = ReplayDice([(purpose, tuple(faces)) for purpose, faces in action.get("dice", [])])
    events: list = []
    try:
        if do == "set":
            for uid, patch in action.get("units", {}).items():
                fields = {k: (tuple(v) if isinstance(v, list) else v) for k, v in patch.items()}
                state = state.with_unit(replace(state.units[uid], **fields))
            for cid, patch in action.get("commanders", {}).items():
                fields = {k: (tuple(v) if isinstance(v, list) else v) for k, v in patch.items()}
                state = state.with_commander(replace(state.commanders[cid], **fields))
            if "flags" in action:
                state = state.evolve(flags={**state.flags, **action["flags"]})
            for k in ("turn", "side", "phase"):
                if k in action:
                    state = state.evolve(**{k: action[k]})
            result: dict = {}
        elif do == "apply":
            events = [event_from_dict(e) for e in action["events"]]
            result = {}
        else:
            try:
                result, events = special(state, params, action, dice, terrain)
            except KeyError as exc:
                if exc.args != (do,):
                    raise
                result, events = common(state, params, action, dice, terrain)
        result["dice_left"] = dice.remaining
    except MissingParameterError as exc:
        return {"error": str(exc), "parameter": exc.parameter}, state
    except RuleRefused as exc:
        return {"error": str(exc)}, state
    result["events"] = [e.to_dict() for e in events]
    if action.get("apply", True):
        for e in events:
            state = e.apply(state)
    return result, state


def final_state(state: GameState) -> dict:
    """``final_view`` of the ToE runner plus unit positions, facings and states."""
    out = final_view(state)
    out["units"] = {
        uid: {"position": list(u.position), "facing": u.facing, "state": u.state} for uid, u in state.units.items()
    }
    return out


def run_case(folder: Path, cases: Path, ruleset_id: str, special: Handler) -> None:
    """Run one case folder to the end, asserting each step and the final state."""
    state, params, actions, expected, terrain = load_case(folder, cases)
    steps = expected["steps"]
    assert len(steps) == len(actions), f"{folder.name}: {len(actions)} actions but {len(steps)} expected steps"
    common = protocol_action(ruleset_id)
    for i, (action, want) in enumerate(zip(actions, steps, strict=True)):
        if action["do"] == "set" and "params" in action:
            params = _merge(params, action["params"])
        result, state = run_action(state, params, action, terrain, special, common)
        match(want, result, f"{folder.name} step {i + 1} ({action['do']})")
    if "final" in expected:
        match(expected["final"], final_state(state), f"{folder.name} final")


def expect_three_files(cases: Path, minimum: int) -> None:
    """Every case folder holds scenario.json, actions.json and expected.json; at least ``minimum``."""
    found = folders(cases)
    assert len(found) >= minimum, f"{cases.name}: {len(found)} cases, expected at least {minimum}"
    for f in found:
        assert {"scenario.json", "actions.json", "expected.json"} <= {p.name for p in f.iterdir()}, f.name


def as_plain(x: Any) -> Any:
    """``plain`` of the ToE runner (re-exported for the ruleset handlers)."""
    return plain(x)
