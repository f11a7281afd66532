"""A small Torden over Europa game whose analysis answers are known by construction.

Each side: an army general (chief, OAS 3), a corps general (command distance 30 cm), a division
general (15 cm) and two 4-figure brigades of 400 men. Three turns. Five command rolls with exact
chances 1/2, 3/10, 9/10, 3/10, 1/2 (in log order), of which three pass (expected successes 5/2). The French
division general rides 40 cm from his corps general in turn 2 (he and both his brigades are then
out of command) and back in turn 3. Losses: 100 French men in turn 1 (firing), 200 Prussian men
in turn 2 (attack) and 100 French men in turn 2 (firing).
"""

from __future__ import annotations

from fractions import Fraction

from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.scenario import Scenario, ScenarioInfo, Side
from battlestudio.model.units import Arm, Commander, Subtype, Unit
from battlestudio.replay.events import Annotation, Casualties, Moved, PhaseStarted, TurnEnded
from battlestudio.replay.game import GameLog
from battlestudio.replay.order_events import CommandRolled, OrderCompleted, OrderDelivered, OrderFailed, OrderWritten
from battlestudio.rules.dice import DiceSpec, Modifier, RollRecord

PARAMS = {
    "toe.zones_cm.army": [20, 40, "60+"],
    "toe.command_thresholds": [4, 6, 8],
    "toe.command_modifiers": {},
}
D10 = DiceSpec(1, 10, True)
ROLL_ODDS = (Fraction(1, 2), Fraction(3, 10), Fraction(9, 10), Fraction(3, 10), Fraction(1, 2))
"""Exact chance of each command roll, in log order."""
ROLL_PASSED = (True, False, False, True, True)


def scenario() -> Scenario:
    s = Scenario(
        info=ScenarioInfo(title="Known game", date="1806-10-14", ruleset="toe", turns=3, parameters=dict(PARAMS))
    )
    s.sides = {
        "french": Side("french", "French", ("France",), "#2a4fa8"),
        "prussian": Side("prussian", "Prussian", ("Prussia",), "#303030"),
    }
    oob = OrderOfBattle()
    for side, nation, y, sign, facing in (
        ("french", "France", 0.0, 1, 90.0),
        ("prussian", "Prussia", 180.0, -1, 270.0),
    ):
        a, c, d = f"{side}-army", f"{side}-c1", f"{side}-d1"
        s.commanders[a] = Commander(
            a, f"{nation} army", side, nation, "army", (100.0, y + sign * 10), order_capacity=3, command_ability=1
        )
        s.commanders[c] = Commander(
            c,
            f"{nation} corps",
            side,
            nation,
            "corps",
            (100.0, y + sign * 40),
            command_distance=30.0,
            command_ability=1,
        )
        s.commanders[d] = Commander(
            d, f"{nation} division", side, nation, "division", (100.0, y + sign * 50), command_distance=15.0
        )
        oob.add(a, c)
        oob.add(c, d)
        for i, x in ((1, 95.0), (2, 105.0)):
            uid = f"{side}-u{i}"
            s.units[uid] = Unit(
                uid,
                f"{nation} brigade {i}",
                side,
                nation,
                Arm.INFANTRY,
                Subtype.LINE_INFANTRY,
                figures=4,
                men=400,
                position=(x, y + sign * 60),
                facing=facing,
            )
            oob.add(d, uid)
    s.oob = oob
    return s


def _roll(oid: str, i: int, raw: int, mod: int, threshold: int, turn: int) -> dict:
    ok = raw + mod >= threshold
    rec = RollRecord(
        f"toe-command-control:{oid}:order:t{turn}",
        f"roll {i + 1} for {oid}",
        D10,
        (raw,),
        (Modifier(mod, "command ability (KE)"),) if mod else (),
        threshold,
        "test",
        "",
        ok,
    )
    return rec.to_dict()


def events() -> list:
    ev = []

    def phase(t: int, side: str, ph: str) -> None:
        ev.append(PhaseStarted(t, side, ph, name=ph))

    # turn 1
    phase(1, "french", "orders")
    ev.append(
        OrderWritten(
            1,
            "french",
            "orders",
            order_id="o1",
            issuer="french-army",
            recipient="french-c1",
            order_type="A",
            objective=(100.0, 90.0),
            cost=1,
        )
    )
    ev.append(CommandRolled(1, "french", "orders", order_id="o1", roll=_roll("o1", 0, 7, 1, 6, 1)))
    ev.append(OrderDelivered(1, "french", "orders", order_id="o1", origin=(100.0, 40.0)))
    phase(1, "french", "firing")
    ev.append(Casualties(1, "french", "firing", unit="french-u1", figures=1, men=100, cause="fire"))
    phase(1, "prussian", "orders")
    ev.append(
        OrderWritten(
            1,
            "prussian",
            "orders",
            order_id="o2",
            issuer="prussian-army",
            recipient="prussian-c1",
            order_type="A",
            objective=(100.0, 100.0),
            cost=1,
        )
    )
    ev.append(CommandRolled(1, "prussian", "orders", order_id="o2", roll=_roll("o2", 1, 3, 0, 7, 1)))
    ev.append(OrderFailed(1, "prussian", "orders", order_id="o2", reason="3 < 7"))
    ev.append(TurnEnded(1, "prussian", "orders"))
    # turn 2
    phase(2, "french", "orders")
    ev.append(
        OrderWritten(
            2,
            "french",
            "orders",
            order_id="o3",
            issuer="french-army",
            recipient="french-c1",
            order_type="H",
            objective=(100.0, 40.0),
            cost=1,
        )
    )
    ev.append(CommandRolled(2, "french", "orders", order_id="o3", roll=_roll("o3", 3, 0, 1, 2, 2)))
    ev.append(OrderFailed(2, "french", "orders", order_id="o3", reason="1 < 2"))
    phase(2, "french", "movement")
    ev.append(Moved(2, "french", "movement", id="french-d1", path=((100.0, 50.0), (100.0, 80.0))))
    ev.append(
        Annotation(
            2, "french", "movement", title="A rash ride", text="The division general rides ahead.", ids=("french-d1",)
        )
    )
    phase(2, "prussian", "orders")
    ev.append(CommandRolled(2, "prussian", "orders", order_id="o2", roll=_roll("o2", 2, 8, 0, 7, 2)))
    ev.append(OrderDelivered(2, "prussian", "orders", order_id="o2", origin=(100.0, 140.0)))
    phase(2, "prussian", "attack")
    ev.append(Casualties(2, "prussian", "attack", unit="prussian-u1", figures=2, men=200, cause="melee"))
    phase(2, "prussian", "firing")
    ev.append(Casualties(2, "prussian", "firing", unit="french-u2", figures=1, men=100, cause="fire"))
    ev.append(TurnEnded(2, "prussian", "firing"))
    # turn 3
    phase(3, "french", "orders")
    ev.append(CommandRolled(3, "french", "orders", order_id="o3", roll=_roll("o3", 4, 6, 1, 6, 3)))
    ev.append(OrderDelivered(3, "french", "orders", order_id="o3", origin=(100.0, 40.0)))
    phase(3, "french", "movement")
    ev.append(Moved(3, "french", "movement", id="french-d1", path=((100.0, 80.0), (100.0, 50.0))))
    phase(3, "prussian", "orders")
    ev.append(
        OrderCompleted(
            3, "prussian", "orders", order_id="o2", reason="objective reached", defence_objective=(100.0, 100.0)
        )
    )
    ev.append(TurnEnded(3, "prussian", "orders"))
    return ev


def log() -> GameLog:
    return GameLog.from_scenario(scenario(), events())
