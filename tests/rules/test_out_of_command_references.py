"""General d'Armée, Regimental and Belle Alliance out of command give exactly what they gave
before they measured whole brigades or armies at once: every field of every finding (distances
to the last bit), in the same order, or the same refusal — on synthetic armies at mid-game
dressed in each ruleset's terms, with adjutant chains for Regimental, and on every rule-case
world of each ruleset.

The ``reference_*`` functions are the methods as they stood before (commit 8c10671), kept
here as the oracle.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from shapely.geometry import Point as ShapelyPoint

from battlestudio.model.units import Commander
from battlestudio.replay.state import GameState
from battlestudio.session.synthetic import synthetic_game
from battlestudio.rules import get_ruleset
from battlestudio.rules.gda import parameters as gda_parameters
from battlestudio.rules.gda.brigades import members
from battlestudio.rules.gda.geometry import under_command
from battlestudio.rules.protocol import OutOfCommandFinding
from battlestudio.rules.regimental import parameters as regimental_parameters
from battlestudio.rules.regimental.command import distance_to, exempt_from_command, hq_link, units_under
from battlestudio.rules.belle_alliance import parameters as ba_parameters
from tests.rules.case_runner import HERE, folders, load_case


# -- the oracles ------------------------------------------------------------------------------
def reference_gda(state: GameState, params: dict, side: str | None = None) -> list[OutOfCommandFinding]:
    p = gda_parameters(params)
    out = []
    for b, c in sorted(state.commanders.items()):
        if c.echelon != "brigade" or (side and c.side != side):
            continue
        for u in members(state, b).present:
            ok, d, r = under_command(state, b, u, p)
            out.append(
                OutOfCommandFinding(
                    u.id,
                    b,
                    d,
                    r,
                    ok,
                    "",
                    "" if ok else "cannot-attack-or-support",
                    f"{u.name or u.id} is {d:.1f} cm from {c.name or b}"
                    + ("" if ok else f", beyond his {r:g} cm: it may not attack or support an attack"),
                    rule="ОБЪЯВЛЕНИЕ АТАКИ; support prohibition А",
                )
            )
    return out


def reference_regimental(state: GameState, params: dict, side: str | None = None) -> list[OutOfCommandFinding]:
    p = regimental_parameters(params)
    zone = float(p.get("general_zone_cm"))
    out = []
    for uid, u in sorted(state.units.items()):
        if side and u.side != side:
            continue
        g = state.oob.superior(uid)
        if not g or g not in state.commanders:
            continue
        brigade_units = units_under(state, g)
        d = distance_to(state.commanders[g].position, brigade_units)
        exempt = "light or irregular cavalry" if exempt_from_command(u, p) else ""
        within = d <= zone + 1e-6
        cons = "" if within or exempt else "order-test"
        text = f"{u.name or uid}: its brigade is {d:.1f} cm from {g} (zone {zone:g} cm)" + (
            ""
            if within or exempt
            else "; an order to this regiment alone takes the order test "
            "(1-2 arrives, 3-4 one action, 5-6 lost) and it loses the general's +1 morale/+1 result"
        )
        out.append(OutOfCommandFinding(uid, g, d, zone, within, exempt, cons, text, "Дистанция командования"))
    for c in sorted(state.commanders.values(), key=lambda c: c.id):
        if c.echelon != "division" or (side and c.side != side):
            continue
        link = hq_link(state, c.side, c.position, p)
        out.append(
            OutOfCommandFinding(
                c.id,
                " → ".join(link.chain),
                link.distance,
                float(p.get("hq_zone_cm")),
                link.within,
                "",
                "" if link.within else "order-test",
                f"{c.name or c.id} {'is' if link.within else 'is not'} in the HQ's zone"
                + (f" via {' → '.join(link.chain)}" if len(link.chain) > 1 else ""),
                "Дистанция командования",
            )
        )
    return out


def reference_belle_alliance(state: GameState, params: dict, side: str | None = None) -> list[OutOfCommandFinding]:
    p = ba_parameters(params)
    reach = float(p.require("command_distance_cm", "command_distance_cm")[1])
    out = []
    for uid, u in sorted(state.units.items()):
        sup = state.oob.superior(uid)
        if (side and u.side != side) or not sup or sup not in state.commanders:
            continue
        d = float(ShapelyPoint(state.commanders[sup].position).distance(u.footprint()))
        ok = d <= reach + 1e-6
        out.append(
            OutOfCommandFinding(
                uid,
                sup,
                d,
                reach,
                ok,
                "",
                "" if ok else "out-of-command",
                f"{uid} is {d:.1f} cm from {sup} (scenario command distance {reach:g} cm)",
                "scenario parameter command_distance_cm",
            )
        )
    return out


REFERENCES = {"gda": reference_gda, "regimental": reference_regimental, "belle-alliance": reference_belle_alliance}


def outcome(fn, state: GameState, params: dict, side: str | None) -> Any:
    try:
        found = fn(state, params, side)
    except Exception as exc:  # noqa: BLE001 - the same refusal is part of "the same result"
        return ("raised", type(exc).__name__, str(exc))
    return [
        tuple(
            (type(v).__name__, v)
            for v in (f.subject, f.superior, f.distance, f.reach, f.within, f.exemption, f.consequence, f.text, f.rule)
        )
        for f in found
    ]


def assert_same(ruleset: str, state: GameState, params: dict, side: str | None = None) -> Any:
    rs = get_ruleset(ruleset)
    new = outcome(lambda s, p, sd: rs.out_of_command(s, p, sd), state, params, side)
    assert new == outcome(REFERENCES[ruleset], state, params, side)
    return new


# -- worlds -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mid_game() -> GameState:
    log = synthetic_game(turns=12, units_per_side=96, seed=11).log()
    return log.state_at(log.phase_starts()[len(log.phases()) // 2])


def dressed(state: GameState, echelons: dict[str, str]) -> GameState:
    return state.evolve(
        commanders={cid: replace(c, echelon=echelons.get(c.echelon, c.echelon)) for cid, c in state.commanders.items()}
    )


def with_adjutants(state: GameState) -> GameState:
    """Regimental HQs (the army generals) with a chain of three adjutants each, 18 cm apart,
    leading towards the middle of their side's divisions."""
    commanders = dict(state.commanders)
    for hq in [c for c in state.commanders.values() if c.echelon == "c_in_c"]:
        divs = [c for c in state.commanders.values() if c.side == hq.side and c.echelon == "division"]
        tx = sum(c.position[0] for c in divs) / len(divs)
        ty = sum(c.position[1] for c in divs) / len(divs)
        dx, dy = tx - hq.position[0], ty - hq.position[1]
        norm = max(1e-9, (dx * dx + dy * dy) ** 0.5)
        for k in range(1, 4):
            aid = f"{hq.side}-adc{k}"
            commanders[aid] = Commander(
                aid,
                f"ADC {k}",
                hq.side,
                hq.nation,
                "corps",
                (hq.position[0] + dx / norm * 18.0 * k, hq.position[1] + dy / norm * 18.0 * k),
                attributes={"role": "adjutant"},
            )
    return state.evolve(commanders=commanders)


# -- the tests --------------------------------------------------------------------------------
@pytest.mark.parametrize("side", [None, "french", "prussian"])
def test_gda_on_a_mid_game_army_is_as_before(mid_game, side):
    world = dressed(mid_game, {"division": "brigade"})
    found = assert_same("gda", world, {}, side)
    assert len(found) > 60 and any(f[4][1] for f in found) and not all(f[4][1] for f in found)
    assert assert_same("gda", world, {"measurement": "imperial"}, side) != found
    assert assert_same("gda", world, {"measurement": "furlongs"}, side)[0] == "raised"


@pytest.mark.parametrize("side", [None, "french", "prussian"])
def test_regimental_on_a_mid_game_army_is_as_before(mid_game, side):
    world = dressed(mid_game, {"army": "c_in_c"})
    found = assert_same("regimental", world, {}, side)
    assert len(found) > 100 and any(f[4][1] for f in found) and not all(f[4][1] for f in found)
    chained = with_adjutants(world)
    assert assert_same("regimental", chained, {}, side)[0] == "raised"  # how many adjutants is missing
    via = assert_same("regimental", chained, {"adjutants": 3}, side)
    assert any("via" in f[7][1] for f in via)
    assert assert_same("regimental", chained, {"adjutants": 2}, side)[0] == "raised"  # three on the table
    assert assert_same("regimental", mid_game, {"hq_fallback": "none"}, side)[0] == "raised"  # no HQ
    # no c_in_c: the assumed hq_fallback takes each side's top general as its HQ
    assert assert_same("regimental", mid_game, {}, side)[0] != "raised"


@pytest.mark.parametrize("side", [None, "french"])
def test_belle_alliance_on_a_mid_game_army_is_as_before(mid_game, side):
    found = assert_same("belle-alliance", mid_game, {"command_distance_cm": 15.0}, side)
    assert len(found) > 80 and any(f[4][1] for f in found) and not all(f[4][1] for f in found)
    assert assert_same("belle-alliance", mid_game, {}, side)[0] == "raised"
    empty = mid_game.evolve(units={}, commanders={}, oob=type(mid_game.oob)())
    assert assert_same("belle-alliance", empty, {"command_distance_cm": 15.0}, side) == []


CASE_FOLDERS = [
    (r, f)
    for r, sub in (("gda", "gda_cases"), ("regimental", "regimental_cases"), ("belle-alliance", "belle_alliance_cases"))
    for f in folders(HERE / sub)
]


@pytest.mark.parametrize("ruleset,folder", CASE_FOLDERS, ids=lambda x: getattr(x, "name", x))
def test_every_rule_case_world_is_as_before(ruleset, folder):
    state, params, *_ = load_case(folder, folder.parent)
    for side in [None, *sorted({u.side for u in state.units.values()})]:
        assert_same(ruleset, state, params, side)
