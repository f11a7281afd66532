"""A deterministic generator of realistic synthetic games, for tests and benchmarks.

``synthetic_scenario`` builds two armies (French and Prussian) organised army → corps →
division → brigade, deployed in lines facing each other, with one Prussian corps arriving as a
reinforcement. ``synthetic_game`` then plays Torden over Europa's turn sequence (1.2: seven
phases per player-turn, initiative mostly French) for a number of turns: generals ride about,
brigades advance, change formation and face about, the passive side fires (batteries spend and
resupply ammunition), melees end in morale tests, disorder and rout, units rally, the umpire
annotates. Every event is applied as it is generated, so the result is always a valid log.

The same seed gives the same events on every machine (no set or hash order is used).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Any

from battlestudio.model.geometry import Point
from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.scenario import Reinforcement, Scenario, ScenarioInfo, Side
from battlestudio.model.units import Arm, Commander, Subtype, Unit
from battlestudio.replay.events import (
    AmmunitionResupplied,
    AmmunitionUsed,
    Annotation,
    BattleEvent,
    Casualties,
    Fired,
    FormationChanged,
    Melee,
    MoraleTest,
    Moved,
    OrderStateChanged,
    PhaseStarted,
    ReinforcementArrived,
    Rotated,
    TurnEnded,
    UnitRemoved,
)
from battlestudio.replay.order_events import CommandRolled, OrderDelivered, OrderFailed, OrderWritten
from battlestudio.replay.game import GameLog
from battlestudio.replay.state import GameState

TOE_PHASES: tuple[tuple[str, str], ...] = (
    ("orders", "Ordregivning og kommandoforhold"),
    ("movement", "Bevægelser"),
    ("visual_contact", "Visuel kontakt"),
    ("attack_declaration", "Erklæring af angreb"),
    ("firing", "Skydning"),
    ("attack", "Angreb"),
    ("reorganisation", "Reorganisering"),
)
"""Torden over Europa's phases of a player-turn (1.2): (phase id, Danish name)."""

SIDES = ("french", "prussian")
D10 = {"count": 1, "sides": 10, "zero_based": False}
"""The synthetic game's die: a d10 read 1–10 (``rules.dice.DiceSpec(1, 10).to_dict()``)."""
ROW = 40  # brigades per row of a deployment
SPACING = 14.0  # cm between brigade front midpoints in a row
ROW_DEPTH = 25.0  # cm between rows


@dataclass
class SyntheticGame:
    """A generated game: the ``scenario`` it starts from and its ``events``, oldest first."""

    scenario: Scenario
    events: list[BattleEvent] = field(default_factory=list)

    def log(self, **kw: int) -> GameLog:
        """A ``GameLog`` of this game (keyword arguments go to ``GameLog``)."""
        return GameLog.from_scenario(self.scenario, self.events, **kw)


def synthetic_scenario(units_per_side: int = 24, seed: int = 1806) -> Scenario:
    """Two armies of ``units_per_side`` brigades each (≥ 4), facing each other across the table.

    Divisions have four brigades (one a battery, some a cavalry brigade), corps four divisions.
    The Prussian side's last corps (or last division when there is only one corps) waits off
    the table as a reinforcement due from turn 10. Table size grows with the armies (cm). It
    names no ruleset (``ScenarioInfo.ruleset`` ""): the registry's default, Torden over Europa,
    whose turn sequence ``synthetic_game`` plays.

    Raises
    ------
    ValueError
        for fewer than 4 units per side.
    """
    if units_per_side < 4:
        raise ValueError(f"units_per_side must be >= 4, got {units_per_side}")
    rng = random.Random(seed)
    rows = math.ceil(units_per_side / ROW)
    width = max(240.0, min(units_per_side, ROW) * SPACING + 40.0)
    height = max(180.0, 2 * (40.0 + rows * ROW_DEPTH) + 60.0)
    s = Scenario(
        info=ScenarioInfo(
            title=f"Synthetic battle ({units_per_side} brigades a side)",
            date="1806-10-14",
            table_width=width,
            table_height=height,
            turns=40,
        )
    )
    s.sides = {
        "french": Side("french", "French", ("France",), "#2040c0"),
        "prussian": Side("prussian", "Prussian", ("Prussia",), "#303030"),
    }
    oob = OrderOfBattle()
    for side in SIDES:
        nation = "France" if side == "french" else "Prussia"
        up = side == "french"
        facing = 90.0 if up else 270.0
        army = f"{side}-army"
        s.commanders[army] = Commander(
            army,
            f"{nation} army",
            side,
            nation,
            "army",
            (width / 2, 10.0 if up else height - 10.0),
            facing,
            figures=4,
            order_capacity=3,
            command_ability=1,
        )
        oob.add_node(army)
        corps = div = ""
        for i in range(units_per_side):
            if i % 16 == 0:
                corps = f"{side}-c{i // 16 + 1}"
                s.commanders[corps] = Commander(
                    corps,
                    f"{nation} corps {i // 16 + 1}",
                    side,
                    nation,
                    "corps",
                    figures=3,
                    order_capacity=2,
                    command_ability=rng.choice((0, 1, 2)),
                )
                oob.add(army, corps)
            if i % 4 == 0:
                div = f"{side}-d{i // 4 + 1}"
                s.commanders[div] = Commander(div, f"{nation} division {i // 4 + 1}", side, nation, "division")
                oob.add(corps, div)
            row, col = divmod(i, ROW)
            x = 20.0 + SPACING / 2 + col * SPACING
            y = 40.0 + row * ROW_DEPTH
            pos = (x, y) if up else (x, height - y)
            uid = f"{side}-u{i + 1}"
            if i % 4 == 3:
                unit = Unit(
                    uid,
                    f"Battery {i + 1}",
                    side,
                    nation,
                    Arm.ARTILLERY,
                    Subtype.FOOT_ARTILLERY,
                    figures=2,
                    men=180,
                    guns=8,
                    position=pos,
                    facing=facing,
                    ammunition=6,
                    figure_width=3.0,
                    figure_depth=4.0,
                )
            elif i % 8 == 2:
                unit = Unit(
                    uid,
                    f"Cavalry brigade {i + 1}",
                    side,
                    nation,
                    Arm.CAVALRY,
                    Subtype.LIGHT_CAVALRY,
                    figures=rng.randint(8, 14),
                    position=pos,
                    facing=facing,
                    figure_width=2.5,
                    figure_depth=3.0,
                )
                unit = _with_men(unit, 80)
            else:
                sub = Subtype.LIGHT_INFANTRY if rng.random() < 0.3 else Subtype.LINE_INFANTRY
                unit = Unit(
                    uid,
                    f"Brigade {i + 1}",
                    side,
                    nation,
                    Arm.INFANTRY,
                    sub,
                    figures=rng.randint(12, 30),
                    position=pos,
                    facing=facing,
                )
                unit = _with_men(unit, 100)
            s.units[uid] = unit
            oob.add(div, uid)
    s.oob = oob
    for cid, c in list(s.commanders.items()):
        subs = [s.units[u].position for u in oob.all_subordinates(cid) if u in s.units]
        if subs and c.echelon != "army":
            x = sum(p[0] for p in subs) / len(subs)
            y = sum(p[1] for p in subs) / len(subs) + (-8.0 if c.side == "french" else 8.0)
            s.commanders[cid] = c.moved((x, y))
    late = [c for c in oob.subordinates("prussian-army")]
    late_formation = late[-1] if len(late) > 1 else oob.subordinates(late[-1])[-1]
    s.reinforcements["r-late"] = Reinforcement(
        "r-late", "prussian", late_formation, 10, 16, (width - 5.0, height - 30.0), 0.5, "the reserve from Weimar"
    )
    return s


def _with_men(unit: Unit, per_figure: int) -> Unit:
    return replace(unit, men=unit.figures * per_figure)


class _Player:
    """Generates the events of one game; ``state`` follows every event emitted."""

    def __init__(self, scenario: Scenario, seed: int, activity: float, command_orders: bool = False) -> None:
        self.s = scenario
        self.rng = random.Random(seed)
        self.activity = activity
        self.command_orders = command_orders
        self.orders_written = 0
        self.state = GameState.from_scenario(scenario)
        self.events: list[BattleEvent] = []
        self.key = (0, "", "")
        self.per_side = max(1, len(scenario.units) // 2)
        self._pools: dict[str, tuple[list[str], set[str]]] = {}  # side -> targets of this phase
        self._pools_key = self.key

    def n(self, share: float) -> int:
        """How many of a side's units or generals act, for a ``share`` of them (at least 1)."""
        return max(1, round(share * self.per_side * self.activity))

    def emit(self, e: BattleEvent) -> None:
        self.state = e.apply(self.state)
        self.events.append(e)
        if self._pools:
            for node in e.touched():
                for ids, members in self._pools.values():
                    if node in members:
                        u = self.state.units.get(node)
                        if u is None or u.state == "eliminated":
                            ids.remove(node)
                            members.discard(node)

    def ev(self, cls: type, **kw: object) -> None:
        self.emit(cls(*self.key, **kw))

    def units(self, side: str, fit: bool = True) -> list[Unit]:
        off = self.state.off_table
        return [
            u
            for u in self.state.units.values()
            if u.side == side and u.id not in off and (not fit or u.state in ("O", "U"))
        ]

    def clamp(self, p: Point) -> Point:
        return (
            round(min(max(p[0], 1.0), self.s.info.table_width - 1.0), 2),
            round(min(max(p[1], 1.0), self.s.info.table_height - 1.0), 2),
        )

    # -- phases ---------------------------------------------------------------------------
    def play(self, turns: int) -> list[BattleEvent]:
        for t in range(1, turns + 1):
            order = SIDES if self.rng.random() < 0.75 else SIDES[::-1]
            for side in order:
                enemy = SIDES[1] if side == SIDES[0] else SIDES[0]
                for phase, name in TOE_PHASES:
                    self.key = (t, side, phase)
                    self.ev(PhaseStarted, name=name)
                    getattr(self, phase)(t, side, enemy)
            self.ev(TurnEnded)
        return self.events

    def orders(self, t: int, side: str, enemy: str) -> None:
        gens = [c for c in self.state.commanders.values() if c.side == side and c.id not in self.state.off_table]
        for c in self.rng.sample(gens, min(len(gens), self.n(0.05))):
            end = self.clamp((c.position[0] + self.rng.uniform(-15, 15), c.position[1] + self.rng.uniform(-10, 10)))
            self.ev(Moved, id=c.id, path=(c.position, end))
        if self.command_orders:
            self._command_orders(t, side, enemy)
        if self.rng.random() < 0.3:
            c = self.rng.choice(gens)
            self.ev(
                Annotation,
                title=f"Turn {t}",
                text=f"{c.name} rides forward to see the ground.",
                at=c.position,
                ids=(c.id,),
            )

    def _command_orders(self, t: int, side: str, enemy: str) -> None:
        """The army general writes standing orders to corps generals; each goes through a d10
        command roll and is delivered or fails (Torden over Europa 3.2–3.3)."""
        army = f"{side}-army"
        corps = [c for c in self.s.oob.subordinates(army) if c not in self.state.off_table]
        if army not in self.state.commanders or not corps:
            return
        chief = self.state.commanders[army]
        for cid in self.rng.sample(corps, min(len(corps), self.n(0.004))):
            c = self.state.commanders[cid]
            self.orders_written += 1
            oid = f"o{self.orders_written}"
            kind = self.rng.choice(("A", "A", "H", "M", "T"))
            dy = 30.0 if (kind != "T") == (c.position[1] < self.s.info.table_height / 2) else -30.0
            self.ev(
                OrderWritten,
                order_id=oid,
                issuer=army,
                recipient=cid,
                order_type=kind,
                objective=self.clamp((c.position[0] + self.rng.uniform(-20, 20), c.position[1] + dy)),
                cost=1,
            )
            die = self.rng.randint(1, 10)
            zone = 1 + min(2, int(math.dist(chief.position, c.position) // 40))
            need = (3, 5, 7)[zone - 1]
            label = (
                f"Command control, {chief.name} → {c.name}, zone {zone} at "
                f"{math.dist(chief.position, c.position):.0f} cm"
            )
            roll = roll_record(
                f"toe-command-control:{oid}:order:t{t}",
                label,
                die,
                need,
                "synthetic zone thresholds 3/5/7",
                "order passes" if die >= need else "order fails",
            )
            self.ev(CommandRolled, order_id=oid, roll=roll, explanation=explain(roll))
            if die >= need:
                self.ev(OrderDelivered, order_id=oid, origin=c.position)
            else:
                self.ev(OrderFailed, order_id=oid, reason=f"d10 {die} below {need} in zone {zone}")

    def movement(self, t: int, side: str, enemy: str) -> None:
        r = self.s.reinforcements["r-late"]
        if side == r.side and t == r.earliest_turn:
            waiting = [i for i in self.s.oob.all_subordinates(r.formation) + [r.formation] if i in self.state.off_table]
            x0, y0 = r.entry_point
            rows = tuple((i, x0 - 6.0 * (k % 30), y0 - 12.0 * (k // 30), 270.0) for k, i in enumerate(waiting))
            self.ev(
                ReinforcementArrived,
                reinforcement=r.id,
                arrivals=tuple((i, *self.clamp((x, y)), f) for i, x, y, f in rows),
            )
        mid = self.s.info.table_height / 2
        fit = self.units(side)
        for u in self.rng.sample(fit, min(len(fit), self.n(0.3))):
            sign = 1.0 if u.position[1] < mid else -1.0
            gap = abs(mid - u.position[1])
            dy = (
                sign * min(self.rng.uniform(4, 20), max(gap - 6.0, 0.0)) if gap > 10 else -sign * self.rng.uniform(0, 6)
            )
            dx = self.rng.uniform(-6, 6)
            a = u.position
            b = self.clamp((a[0] + dx / 2 + self.rng.uniform(-1, 1), a[1] + dy / 2))
            c = self.clamp((a[0] + dx, a[1] + dy))
            facing = 90.0 if sign > 0 else 270.0
            self.ev(Moved, id=u.id, path=(a, b, c), facing=facing if self.rng.random() < 0.9 else None)
            roll = self.rng.random()
            if u.arm is Arm.INFANTRY and roll < 0.15:
                self.ev(
                    FormationChanged,
                    unit=u.id,
                    formation=self.rng.choice(("line", "column", "march_column")),
                    column_ranks=self.rng.choice((3, 4)),
                )
            elif roll < 0.2:
                self.ev(Rotated, id=u.id, facing=facing + self.rng.choice((-45.0, 45.0)))

    def visual_contact(self, t: int, side: str, enemy: str) -> None:
        pass  # Torden over Europa 3.1: no rules survive; the phase is recorded, nothing happens

    def attack_declaration(self, t: int, side: str, enemy: str) -> None:
        threatened = [u for u in self.units(enemy) if u.arm is Arm.INFANTRY]
        for u in self.rng.sample(threatened, min(len(threatened), self.n(0.03))):
            self.ev(FormationChanged, unit=u.id, formation="square" if self.rng.random() < 0.5 else "line")

    def _pool(self, side: str) -> list[str]:
        """Ids of ``side``'s units on the table and not eliminated, in state order; built once
        per phase and kept up to date by ``emit`` (the same list a fresh scan would give)."""
        if self._pools_key != self.key:
            self._pools, self._pools_key = {}, self.key
        if side not in self._pools:
            ids = [u.id for u in self.units(side, fit=False) if u.state != "eliminated"]
            self._pools[side] = (ids, set(ids))
        return self._pools[side][0]

    def _target(self, firer: Unit, side: str) -> Unit | None:
        pool = self._pool(side)
        if not pool:
            return None
        picks = [self.state.units[i] for i in self.rng.sample(pool, min(8, len(pool)))]
        return min(picks, key=lambda u: math.dist(u.position, firer.position))

    def _losses(self, u: Unit, figures: int, cause: str) -> None:
        figures = min(figures, self.state.units[u.id].figures)
        if figures <= 0:
            return
        per = 80 if u.arm is Arm.CAVALRY else 90 if u.arm is Arm.ARTILLERY else 100
        self.ev(Casualties, unit=u.id, figures=figures, men=figures * per, cause=cause)
        if self.state.units[u.id].figures == 0:
            self.ev(OrderStateChanged, unit=u.id, state="eliminated", reason=f"last figure lost to {cause}")

    def firing(self, t: int, side: str, enemy: str) -> None:
        fit = self.units(enemy)  # the passive side fires (Torden over Europa 1.2, 6.1)
        for f in self.rng.sample(fit, min(len(fit), self.n(0.12))):
            if f.ammunition == 0:
                self.ev(AmmunitionResupplied, unit=f.id, ammunition=6)
                continue
            target = self._target(f, side)
            if target is None:
                return
            die = self.rng.randint(1, 10)
            hits = 0 if die < 5 else 1 if die < 9 else 2
            rng_cm = round(math.dist(f.position, target.position), 1)
            roll = roll_record(
                f"synthetic-fire:{f.id}:t{t}:{side}",
                f"Fire, {f.name} → {target.name} at {rng_cm:.0f} cm",
                die,
                5,
                "synthetic fire table: 5+ one figure, 9+ two",
                f"{hits} figure(s) lost",
            )
            self.ev(
                Fired,
                unit=f.id,
                target=target.id,
                range_cm=rng_cm,
                roll=roll,
                result=f"{hits} figure(s)",
                explanation=explain(roll),
            )
            if f.ammunition is not None:
                self.ev(AmmunitionUsed, unit=f.id, rounds=1)
            self._losses(target, hits, "fire")

    def attack(self, t: int, side: str, enemy: str) -> None:
        for a in self.rng.sample(self.units(side), min(len(self.units(side)), self.n(0.04))):
            d = self._target(a, enemy)
            if d is None or a.arm is Arm.ARTILLERY:
                continue
            ra, rd = self.rng.randint(1, 10), self.rng.randint(1, 10)
            winner = "attacker" if ra > rd else "defender" if rd > ra else "draw"
            self.ev(
                Melee,
                attackers=(a.id,),
                defenders=(d.id,),
                winner=winner,
                roll=None,  # opposed: as the umpire's
                explanation=f"Synthetic melee: Melee, {a.name} attacking: d10 = {ra}; "
                f"Melee, {d.name} defending: d10 = {rd}: {winner}.",
            )
            self._losses(a, self.rng.randint(0, 2), "melee")
            self._losses(d, self.rng.randint(0, 2), "melee")
            if winner == "draw":
                continue
            loser = self.state.units[d.id if winner == "attacker" else a.id]
            if loser.state == "eliminated":
                continue
            die = self.rng.randint(1, 10)
            passed = die >= 6
            result = "holds" if passed else "falls back"
            roll = roll_record(
                f"synthetic-morale:{loser.id}:t{t}",
                f"Morale, {loser.name} after a lost melee",
                die,
                6,
                "synthetic morale table",
                result,
            )
            self.ev(MoraleTest, unit=loser.id, passed=passed, result=result, roll=roll, explanation=explain(roll))
            if not passed:
                if loser.state == "FU" or die <= (3 if loser.state == "U" else 1):
                    self.ev(UnitRemoved, id=loser.id, reason="routed off the table")
                else:
                    self.ev(
                        OrderStateChanged,
                        unit=loser.id,
                        state="U" if loser.state == "O" else "FU",
                        reason="morale test failed",
                    )

    def reorganisation(self, t: int, side: str, enemy: str) -> None:
        shaken = [u for u in self.units(side, fit=False) if u.state in ("U", "FU")]
        for u in self.rng.sample(shaken, min(len(shaken), self.n(0.05))):
            self.ev(OrderStateChanged, unit=u.id, state="O" if u.state == "U" else "U", reason="rallied")


def synthetic_game(
    turns: int = 40,
    units_per_side: int = 24,
    seed: int = 1806,
    activity: float = 1.0,
    target_events: int | None = None,
    command_orders: bool = False,
) -> SyntheticGame:
    """Generate a game of ``turns`` turns on ``synthetic_scenario(units_per_side, seed)``.

    Parameters
    ----------
    activity : float
        scales how many brigades act per phase (1.0: about 30 % move, 12 % of the passive side
        fire, 4 % attack); ~35 events per side per turn at 24 brigades a side.
    target_events : int | None
        if given, ``activity`` is recalibrated (one trial run) so the game has about this many
        events (within a few per cent).
    command_orders : bool
        if True, each order phase also has the army general write standing orders to corps
        generals, with their command rolls and delivery or failure (about 0.4 % of a side's
        brigade count per phase); off by default, so existing seeds give the same games.
    """
    if target_events is not None:
        trial = _Player(synthetic_scenario(units_per_side, seed), seed, activity, command_orders).play(turns)
        activity *= target_events / max(1, len(trial))
    scenario = synthetic_scenario(units_per_side, seed)
    return SyntheticGame(scenario, _Player(scenario, seed, activity, command_orders).play(turns))


def roll_record(purpose: str, label: str, die: int, threshold: int, source: str, outcome: str) -> dict[str, Any]:
    """A pass/fail roll of one d10 (read 1–10, no modifiers) as a roll event carries it: the
    keys, order and meaning of ``rules.dice.RollRecord.to_dict`` (which this layer cannot
    import), so ``RollRecord.from_dict`` reads it and the luck analysis knows its chance. The
    roll succeeds when ``die >= threshold``."""
    return {
        "purpose": purpose,
        "label": label,
        "dice": dict(D10),
        "raw": [die],
        "modifiers": [],
        "threshold": threshold,
        "threshold_source": source,
        "outcome": outcome,
        "success": die >= threshold,
    }


def explain(roll: dict[str, Any]) -> str:
    """The roll in words, as ``RollRecord.explain`` words an unmodified one-die roll."""
    rel = "≥" if roll["success"] else "<"
    return (
        f"{roll['label']}: d10 = {roll['raw'][0]} {rel} {roll['threshold']} ({roll['threshold_source']}): "
        f"{roll['outcome']}"
    )
