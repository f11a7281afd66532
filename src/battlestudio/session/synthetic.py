"""A deterministic generator of realistic synthetic games, for tests and benchmarks, played
through Torden over Europa's own actions.

``synthetic_scenario`` builds two armies (French and Prussian) organised army → corps →
division → brigade, deployed in lines facing each other, with one Prussian corps arriving as a
reinforcement. ``synthetic_game`` then plays the game in a ``GameSession`` under the ``toe``
ruleset: its turn sequence (1.2, seven phases per player-turn, the initiative agreed per turn),
standing orders through command control (3.2-3.3, the ruleset's d10 read 0-9), the passive
side's fire through the ``fire`` action (6.1: arcs, line of fire, one shot a turn) with the
battery's rounds counted by the ruleset (6.2: 8 / 10 / 12 by battery type, one a shot,
resupply on d10 0-4 more than 50 cm from every enemy), attacks declared in base contact (5.1)
with the defender's reaction (5.2-5.3), melee (7.1-7.2) and the loser's morale test (7.2.2;
elimination at two thirds lost and FU, 1.6), and rallies (9).

Where the seed lost a table (Tables 3, 5-11), the ``fire``, ``react``, ``melee``,
``morale_test`` and ``rally`` actions take the umpire's entry: this module is that umpire and
rolls on ``UMPIRE_TABLE`` through the session's dice (none is a rule value; the melee's opposed
2d6 is written in an annotation after it, the other results are recorded as the umpire's
entries). Moves, formation changes and the generals' rides are the
umpire's entries too, each checked by the session; squares and unlimbered batteries stay put
(4.4, 4.6).

The same seed gives the same events on every machine (no set or hash order is used).
"""

from __future__ import annotations

import gc
import math
import random

import numpy
from dataclasses import dataclass, field, replace
from typing import Any

from battlestudio.model.geometry import Point
from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.scenario import Reinforcement, Scenario, ScenarioInfo, Side
from battlestudio.model.units import Arm, Commander, Formation, Subtype, Unit
from battlestudio.replay.battle import Battle
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import ReinforcementArrived, TurnEnded
from battlestudio.replay.game import GameLog
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.dice import DiceSpec, RollRecord, SeededDice
from battlestudio.rules.params import RuleRefused
from battlestudio.rules.protocol import OrderRequest
from battlestudio.rules.toe import PHASES, TordenOverEuropa
from battlestudio.rules.toe.table_index import table_index
from battlestudio.session.core import GameSession
from battlestudio.session.umpire import umpire_roll

TOE_PHASES: tuple[tuple[str, str], ...] = tuple((p.id, p.name) for p in PHASES)
"""Torden over Europa's phases of a player-turn (1.2): (phase id, name), as the ruleset lists them."""

SIDES = ("french", "prussian")
D10 = DiceSpec(1, 10, True)
"""The umpire's die: a d10 read 0-9, as the ruleset reads its own (A1)."""
TWO_D6 = DiceSpec(2, 6)
"""The melee's dice: opposed 2d6 (7.2.1)."""
UMPIRE_TABLE = (
    "the synthetic umpire's table (Torden over Europa Tables 3, 5-11 are missing from the seed): "
    "fire d10 5-7 one figure, 8-9 two; melee opposed 2d6 without Table 7, the loser loses 1 + margin // 3 "
    "figures, the winner 0-1; morale d10 5+ falls back in U, else flees in FU; rally d10 4+ (U) or 6+ (FU); "
    "reaction d10 6+ without Table 3"
)
"""What the generator rolls where the seed lost a table: the umpire's ruling, not a rule value."""
TOE_PARAMETERS: dict[str, Any] = {
    "corps_command_distance_cm": 60.0,
    "zones_cm.army": [40, 80, "120+"],
    "zones_cm.c_in_c": [40, 80, "120+"],
    "command_thresholds": [3, 5, 7],
    "command_modifiers": {},
}
"""The values of Table 1 and 2.4 the rules text lost, as the synthetic scenario gives them (a
scenario's choice, so command control runs)."""
ROW = 40  # brigades per row of a deployment
SPACING = 14.0  # cm between brigade front midpoints in a row
ROW_DEPTH = 25.0  # cm between rows
BATTERY_AHEAD = 8.0
"""cm a battery stands ahead of its row, so its safety corridor (6.1) is clear of its own line."""
FIRE_REACH_CM = 40.0
"""A unit of the passive side fires only when an enemy is this close (centres): the umpire's
choice, so that rear ranks do not try shots their own front blocks (6.1)."""
CHARGE_CM = 20.0
"""A unit of the side on the move this close to an enemy (centres) charges it into base contact."""


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
    agreed = random.Random(f"{seed}:initiative")
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
            ruleset=TordenOverEuropa.id,  # the seed whose numbers the generator plays
            parameters={
                **TOE_PARAMETERS,
                "initiative": [SIDES[0]] + [SIDES[0] if agreed.random() < 0.75 else SIDES[1] for _ in range(39)],
            },
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
            y = 40.0 + row * ROW_DEPTH + (BATTERY_AHEAD if i % 4 == 3 else 0.0)
            pos = (x, y) if up else (x, height - y)
            uid = f"{side}-u{i + 1}"
            if i % 4 == 3:
                unit = Unit(
                    uid,
                    f"Battery {i + 1}",
                    side,
                    nation,
                    Arm.ARTILLERY,
                    Subtype.HEAVY_ARTILLERY if i % 16 == 15 else Subtype.FOOT_ARTILLERY,
                    figures=2,
                    men=180,
                    guns=8,
                    position=pos,
                    facing=facing,
                    figure_width=3.0,
                    figure_depth=4.0,
                    attributes={"gun_category": "12pdr" if i % 16 == 15 else "6pdr"},
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
    """Plays one game in a ``GameSession``; the generator's choices come from ``rng``, every roll
    from the session's dice."""

    def __init__(self, scenario: Scenario, seed: int, activity: float, command_orders: bool = False) -> None:
        self.s = GameSession(Battle(scenario, []), dice=SeededDice(seed))
        self.sc = scenario
        self.rng = random.Random(seed)
        self.activity = activity
        self.command_orders = command_orders
        self.per_side = max(1, len(scenario.units) // 2)
        self.charged: list[tuple[str, str]] = []  # (attacker, defender) moved into contact this player-turn

    def n(self, share: float) -> int:
        """How many of a side's units or generals act, for a ``share`` of them (at least 1)."""
        return max(1, round(share * self.per_side * self.activity))

    def units(self, side: str, fit: bool = True) -> list[Unit]:
        idx = table_index(self.s.state)  # on the table, not eliminated, in state order
        found = idx.of_side(idx.on_table, side)
        return [u for u in found if u.state in ("O", "U")] if fit else found

    def clamp(self, p: Point) -> Point:
        return (
            round(min(max(p[0], 1.0), self.sc.info.table_width - 1.0), 2),
            round(min(max(p[1], 1.0), self.sc.info.table_height - 1.0), 2),
        )

    def act(self, action: str, subject: str, parameters: dict[str, Any], entry: dict[str, Any] | None = None) -> bool:
        """One ruleset action; False when the ruleset refused it (nothing recorded)."""
        return self.s.act(ActionRequest(action, subject, parameters, entry)).status == "resolved"

    def roll(self, purpose: str, label: str, spec: DiceSpec = D10, threshold: int | None = None) -> RollRecord:
        return umpire_roll(
            self.s.dice,
            purpose,
            label,
            spec,
            threshold=threshold,
            threshold_source=UMPIRE_TABLE if threshold is not None else "",
            passes="passes",
            fails="fails",
        )

    @staticmethod
    def _nearest_pairs(units: list[Unit], pool: list[Unit], within: float) -> list[tuple[Unit, Unit]]:
        """Each of ``units`` whose nearest unit of ``pool`` (centres) is within ``within`` cm,
        with that unit (ties to the lower id), in the order of ``units``.

        Each unit is measured against the pool units of the 3 x 3 grid cells of ``within`` cm
        around it only (any unit within ``within`` lies there), so a phase costs about
        O(units + pool), not their product; the distances are those of a full matrix (the same
        ``numpy.hypot`` of the same differences), so the pairs are too.
        """
        if not units or not pool or within <= 0:
            return []
        pool = sorted(pool, key=lambda e: e.id)
        b = numpy.array([e.position for e in pool], dtype=float)
        a = numpy.array([u.position for u in units], dtype=float)
        cb = numpy.floor(b / within).astype(numpy.int64)
        ca = numpy.floor(a / within).astype(numpy.int64)
        lo_x, lo_y = min(cb[:, 0].min(), ca[:, 0].min()) - 2, min(cb[:, 1].min(), ca[:, 1].min()) - 2
        span = int(max(cb[:, 1].max(), ca[:, 1].max()) - lo_y) + 3
        kb = (cb[:, 0] - lo_x) * span + (cb[:, 1] - lo_y)
        order = numpy.argsort(kb, kind="stable")  # by cell, then by id
        sk = kb[order]
        offsets = numpy.array([dx * span + dy for dx in (-1, 0, 1) for dy in (-1, 0, 1)], dtype=numpy.int64)
        ka = ((ca[:, 0] - lo_x) * span + (ca[:, 1] - lo_y))[:, None] + offsets[None, :]
        first = numpy.searchsorted(sk, ka, "left")
        count = numpy.searchsorted(sk, ka, "right") - first
        most = int(count.max())
        if most == 0:
            return []
        step = numpy.arange(most)
        valid = (step[None, None, :] < count[:, :, None]).reshape(len(units), -1)
        slot = numpy.minimum(first[:, :, None] + step[None, None, :], len(sk) - 1).reshape(len(units), -1)
        cand = order[slot]
        d = numpy.hypot(a[:, None, 0] - b[cand, 0], a[:, None, 1] - b[cand, 1])
        d[~valid] = numpy.inf
        dmin = d.min(axis=1)
        pick = numpy.where((d == dmin[:, None]) & valid, cand, len(pool)).min(axis=1)
        return [
            (units[i], pool[j])
            for i, j in zip(numpy.flatnonzero(dmin <= within).tolist(), pick[dmin <= within].tolist(), strict=True)
        ]

    # -- the game -------------------------------------------------------------------------
    def play(self, turns: int) -> list[BattleEvent]:
        s = self.s
        for t in range(1, turns + 1):
            for step in list(s.steps(t)):
                if not s.started:
                    s.start()
                else:
                    s.next_phase()
                assert (s.key.turn, s.key.side, s.key.phase) == (step.turn, step.side, step.phase)
                enemy = SIDES[1] if step.side == SIDES[0] else SIDES[0]
                getattr(self, step.phase)(t, step.side, enemy)
        s.record(TurnEnded(*s.key))
        return list(s.battle.events)

    def orders(self, t: int, side: str, enemy: str) -> None:
        st = self.s.state
        gens = [c for c in st.commanders.values() if c.side == side and c.id not in st.off_table]
        for c in self.rng.sample(gens, min(len(gens), self.n(0.05))):
            end = self.clamp((c.position[0] + self.rng.uniform(-15, 15), c.position[1] + self.rng.uniform(-10, 10)))
            self.s.move(c.id, (c.position, end))
        if self.command_orders:
            self._command_orders(side)
        if self.rng.random() < 0.3 and gens:
            c = self.rng.choice(gens)
            self.s.annotate(f"{c.name} rides forward to see the ground.", title=f"Turn {t}", at=c.position, ids=(c.id,))

    def _command_orders(self, side: str) -> None:
        """The army general writes standing orders to corps generals through command control
        (2.2, 3.2-3.3): the ruleset checks, rolls and records them (about 0.4 % of a side's
        brigade count per phase)."""
        st = self.s.state
        army = f"{side}-army"
        corps = [c for c in self.sc.oob.subordinates(army) if c not in st.off_table]
        if army not in st.commanders or not corps:
            return
        h = self.sc.info.table_height
        requests = []
        for cid in self.rng.sample(corps, min(len(corps), self.n(0.004))):
            c = st.commanders[cid]
            kind = self.rng.choice(("A", "A", "H", "M", "T"))
            dy = 30.0 if (kind != "T") == (c.position[1] < h / 2) else -30.0
            objective = self.clamp((c.position[0] + self.rng.uniform(-20, 20), c.position[1] + dy))
            requests.append(OrderRequest(army, cid, kind, None if kind == "H" else objective))
        try:
            self.s.issue_orders(requests)
        except RuleRefused:
            pass  # a value the scenario lacks: no order this phase

    def movement(self, t: int, side: str, enemy: str) -> None:
        r = self.sc.reinforcements["r-late"]
        st = self.s.state
        if side == r.side and t == r.earliest_turn:
            waiting = [i for i in self.sc.oob.all_subordinates(r.formation) + [r.formation] if i in st.off_table]
            x0, y0 = r.entry_point
            rows = tuple((i, x0 - 6.0 * (k % 30), y0 - 12.0 * (k // 30), 270.0) for k, i in enumerate(waiting))
            self.s.record(
                self.s.stamped(
                    ReinforcementArrived,
                    reinforcement=r.id,
                    arrivals=tuple((i, *self.clamp((x, y)), f) for i, x, y, f in rows),
                )
            )
        mid = self.sc.info.table_height / 2
        fit = [u for u in self.units(side) if self._may_move(u)]
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
            self.s.move(u.id, (a, b, c), facing=facing if self.rng.random() < 0.9 else None)
            roll = self.rng.random()
            if u.arm is Arm.INFANTRY and roll < 0.15:
                self._form(u.id, self.rng.choice(("line", "column", "march_column")), self.rng.choice((3, 4)))
            elif roll < 0.2:
                self.s.rotate(u.id, facing + self.rng.choice((-45.0, 45.0)))
        self._charges(side, enemy)

    def _may_move(self, u: Unit) -> bool:
        """Squares do not move voluntarily (4.4), unlimbered batteries not at all (4.6)."""
        return u.formation is not Formation.SQUARE and u.arm is not Arm.ARTILLERY

    def _form(self, uid: str, formation: str, ranks: int) -> None:
        """A formation change as the ruleset allows it (1.6, 1.7, 4.4, 4.5); none when refused."""
        rule = getattr(self.s.ruleset, "formation_change", None)
        try:
            change = rule(self.s.state, uid, formation, self.s.params, ranks) if rule is not None else None
        except RuleRefused:
            return
        if change is None:
            return
        self.s.change_formation(uid, formation, column_ranks=ranks, facing=change.unit.facing)

    def _charges(self, side: str, enemy: str) -> None:
        """Some units of the side on the move within ``CHARGE_CM`` of an enemy move into base
        contact with it, to declare an attack (5.1 'i brikkontakt'); infantry never at cavalry."""
        from shapely.ops import nearest_points

        self.charged = []
        taken: set[str] = set()
        fit = [u for u in self.units(side) if u.state == "O" and u.arm is not Arm.ARTILLERY and self._may_move(u)]
        near = self._nearest_pairs(fit, self.units(enemy, fit=False), CHARGE_CM)
        for u, d in self.rng.sample(near, min(len(near), self.n(0.04))):
            u, d = self.s.state.units[u.id], self.s.state.units[d.id]
            if u.id in taken or d.id in taken or (u.arm is Arm.INFANTRY and d.arm is Arm.CAVALRY):
                continue
            a, b = nearest_points(u.footprint(), d.footprint())
            dx, dy = b.x - a.x, b.y - a.y
            gap = math.hypot(dx, dy)
            if gap > 0.05:
                f = (gap - 0.05) / gap
                x, y = u.position
                self.s.move(u.id, ((x, y), (round(x + f * dx, 2), round(y + f * dy, 2))))
            taken |= {u.id, d.id}
            self.charged.append((u.id, d.id))

    def visual_contact(self, t: int, side: str, enemy: str) -> None:
        pass  # 1.2: the phase is recorded; no rule of it survives in the seed

    def attack_declaration(self, t: int, side: str, enemy: str) -> None:
        """The charged units declare their attacks (5.1); each target tries the reaction open to
        it (5.2-5.3), the umpire rolling d10 6+ where Table 3 is lost."""
        declared = []
        for a, d in self.charged:
            if self.act("declare_attack", a, {"target": d}):
                declared.append((a, d))
        self.charged = declared
        for _, d in declared:
            spec = next((x for x in self.s.actions(d) if x.id == "react" and x.legal), None)
            if spec is None or not spec.parameters[0].choices:
                continue
            kind = spec.parameters[0].choices[0]
            entry = None
            if spec.umpire_table:
                r = self.roll(f"umpire-react:{d}:t{t}:{side}", f"Reaction, {self.s.state.units[d].name}", threshold=6)
                entry = {"passed": bool(r.success)}
            self.act("react", d, {"kind": kind}, entry)

    def fire(self, t: int, side: str, enemy: str) -> None:
        """The passive side fires (1.2, 6.1) at the nearest enemy the ``fire`` action accepts; a
        battery out of rounds tries to resupply instead (6.2)."""
        st = self.s.state
        for b in [u for u in self.units(enemy, fit=False) if u.arm is Arm.ARTILLERY and u.ammunition == 0]:
            self.act("resupply", b.id, {})  # refused within 50 cm of an enemy (6.2)
        fit = [
            u
            for u in self.units(enemy)
            if u.arm is not Arm.CAVALRY and u.formation is not Formation.MARCH_COLUMN and u.ammunition != 0
        ]
        near = self._nearest_pairs(fit, self.units(side, fit=False), FIRE_REACH_CM)
        for f, target in self.rng.sample(near, min(len(near), self.n(0.12))):
            st = self.s.state
            target = st.units[target.id]
            if target.state == "eliminated" or target.id in st.off_table:
                continue
            r = self.roll(f"umpire-fire:{f.id}:t{t}:{side}", f"Fire, {f.name} → {target.name}")
            face = r.raw[0]
            figures = min(0 if face < 5 else 1 if face < 8 else 2, target.figures)
            self.act("fire", f.id, {"target": target.id}, {"figures": figures})

    def attack(self, t: int, side: str, enemy: str) -> None:
        """Each declared attack still in contact is fought (7.1-7.2): opposed 2d6 (7.2.1), the
        losses from the umpire's table (Table 8 lost); the loser tests morale (7.2.2)."""
        for a, d in self.charged:
            st = self.s.state
            ua, ud = st.units.get(a), st.units.get(d)
            if ua is None or ud is None or "eliminated" in (ua.state, ud.state):
                continue
            ra = self.roll(f"umpire-melee:{a}:t{t}", f"Melee, {ua.name} attacking", TWO_D6)
            rd = self.roll(f"umpire-melee:{d}:t{t}", f"Melee, {ud.name} defending", TWO_D6)
            margin = ra.total - rd.total
            winner = "attacker" if margin > 0 else "defender" if margin < 0 else "undecided"
            lose = 1 + abs(margin) // 3
            win = self.rng.randint(0, 1)
            la = min(ua.figures, win if margin > 0 else lose if margin < 0 else 1)
            ld = min(ud.figures, win if margin < 0 else lose if margin > 0 else 1)
            entry = {"winner": winner, "attacker_losses": la, "defender_losses": ld}
            if not self.act("melee", a, {"target": d}, entry):
                continue
            self.s.annotate(
                f"The umpire's melee roll: {ra.explain()}; {rd.explain()}: {winner} ({UMPIRE_TABLE}).",
                title="Melee",
                at=ua.position,
                ids=(a, d),
            )
            if winner != "undecided":
                self._morale(d if margin > 0 else a, a if margin > 0 else d, t)
        self.charged = []

    def _morale(self, uid: str, victor: str, t: int) -> None:
        """The loser's morale test (7.2.2) with the umpire's entry (Tables 9-10 lost): falls back
        12 cm straight back in U, or flees 25 cm in FU (eliminated by the ruleset at two thirds
        lost, 1.6)."""
        st = self.s.state
        u, w = st.units.get(uid), st.units.get(victor)
        if u is None or w is None or u.state == "eliminated" or uid in st.off_table:
            return
        r = self.roll(f"umpire-morale:{uid}:t{t}", f"Morale, {u.name} after a lost melee", threshold=5)
        result = "U" if r.success else "FU"
        back = math.radians(u.facing + 180.0)  # straight back, away from its front
        far = 12.0 if r.success else 25.0
        to = self.clamp((u.position[0] + far * math.cos(back), u.position[1] + far * math.sin(back)))
        if not self.act("morale_test", uid, {}, {"result": result, "move_to": list(to)}):
            self.act("morale_test", uid, {}, {"result": result})

    def reorganisation(self, t: int, side: str, enemy: str) -> None:
        """Rallies (9) through the ``rally`` action; the umpire rolls d10 4+ (U) or 6+ (FU) where
        Table 11 is lost."""
        shaken = [u for u in self.units(side, fit=False) if u.state in ("U", "FU")]
        for u in self.rng.sample(shaken, min(len(shaken), self.n(0.05))):
            r = self.roll(
                f"umpire-rally:{u.id}:t{t}", f"Rally, {u.name} ({u.state})", threshold=4 if u.state == "U" else 6
            )
            if r.success:
                self.act("rally", u.id, {}, {"result": "O" if u.state == "U" else "U"})


def synthetic_game(
    turns: int = 40,
    units_per_side: int = 24,
    seed: int = 1806,
    activity: float = 1.0,
    target_events: int | None = None,
    command_orders: bool = False,
) -> SyntheticGame:
    """Play a game of ``turns`` turns on ``synthetic_scenario(units_per_side, seed)`` through the
    Torden over Europa ruleset (see the module docstring).

    Parameters
    ----------
    activity : float
        scales how many brigades act per phase (1.0: about 30 % of the side on the move move,
        12 % of the passive side fire, 4 % charge when an enemy is within 20 cm).
    target_events : int | None
        if given, ``activity`` is recalibrated (one trial run) so the game has about this many
        events (within a few per cent).
    command_orders : bool
        if True, each order phase also has the army general write standing orders to corps
        generals through command control (about 0.4 % of a side's brigade count per phase).

    Raises
    ------
    ValueError
        for fewer than 4 units per side, or more turns than the scenario's 40.
    """
    if turns > 40:
        raise ValueError(f"the synthetic scenario lasts 40 turns, got turns={turns}")
    collecting = gc.isenabled()
    gc.disable()  # a game allocates millions of records and few cycles: no collector passes over them
    try:
        if target_events is not None:
            trial = _Player(synthetic_scenario(units_per_side, seed), seed, activity, command_orders).play(turns)
            activity *= target_events / max(1, len(trial))
        scenario = synthetic_scenario(units_per_side, seed)
        return SyntheticGame(scenario, _Player(scenario, seed, activity, command_orders).play(turns))
    finally:
        if collecting:
            gc.enable()
