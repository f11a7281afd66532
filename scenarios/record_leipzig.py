"""Record the opening of Leipzig, 16 October 1813, into ``leipzig-1813.battle.json``.

Run from the repository after the build script: ``python scenarios/build_leipzig.py`` writes the
scenario without a game, then ``python scenarios/record_leipzig.py`` loads it, records the first
``TURNS`` turns (08:00 onwards) through ``battlestudio.session.GameSession`` and saves the file
with the game in it. Running it again re-records the same game: recorded events are dropped
first and every roll comes from dice seeded with ``SEED``.

What follows history is the umpire's plan below (which orders Barclay and Napoleon write and
when). Everything else goes through the Torden over Europa ruleset: command rolls, orders rolled
again, generals moved by their standing orders with their troops following, and the ruleset's
own actions for fire (6), melee (7) and morale (8): ``GameSession.act`` with the action's legality,
targets and consequences (losses, ammunition, retreats, order states) the engine's. The tables the
seed lost (Tables 5-10) are umpire entries: the script enters each result as the umpire would,
from his own small table rolled with the game's seeded dice (``UMPIRE``), and every such roll is
recorded with the event and named as the umpire's.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _movement import _execute, _has_troops  # noqa: E402
from _umpire import D10, live, nearest_enemy  # noqa: E402
from battlestudio import store  # noqa: E402
from battlestudio.model.units import Arm  # noqa: E402
from battlestudio.replay.battle import Battle  # noqa: E402
from battlestudio.rules import OrderRequest, RuleRefused  # noqa: E402
from battlestudio.rules.actions import ActionRequest  # noqa: E402
from battlestudio.session import GameSession  # noqa: E402
from battlestudio.session.umpire import umpire_roll  # noqa: E402

HERE = Path(__file__).resolve().parent
FILE = HERE / "leipzig-1813.battle.json"
SEED = 16101813
TURNS = 10
FR, AL = "french", "allied"
NAPOLEON, BARCLAY = "french-grande-armee", "russo-prussian-army-hq-russo-prussian-army-hq"
CHIEF = {FR: NAPOLEON, AL: BARCLAY}
UMPIRE = (
    "umpire's table (Torden over Europa Tables 5-10 missing from the seed): fire, d10 7+ (artillery 6+) "
    "costs the target 1 figure; melee, each side d10 +1 for more figures, +2 defending a village, the higher "
    "wins, the loser losing 1 + difference // 3 figures and the winner 1; morale after a lost melee, d10 5+ "
    "(+1 with more than half the figures left) falls back in disorder (U), else flees (FU)"
)
FIRE_REACH_CM = 70.0
"""Only units with an enemy this close (artillery; infantry 12 cm) are asked for their fire action
(beyond every Torden over Europa range, so no shot is missed)."""
CHARGE_CM = 20.0
"""A unit of a formation under an attack order this close to an enemy unit charges it in the
attack phase (2.7's engagement distance); the charge move is the umpire's."""


def km(east: float, south: float) -> tuple[float, float]:
    """Table cm of a place (km east, km south of Leipzig's market), as the build script places it."""
    return (round((east + 4.5) * 100.0 / 3.0, 1), round((11.5 - south) * 100.0 / 3.0, 1))


# the umpire's plan: from a turn on, the order a general should be under and the point it aims at
PLAN: dict[str, list[tuple[int, str, tuple[float, float]]]] = {
    # Allies: the four columns of Schwarzenberg's plan, and Gyulai against Lindenau
    "prussian-corps-prussian-corps": [(1, "A", km(1.9, 6.3))],
    "russian-2-corps-2nd-russian-corps": [(1, "A", km(4.7, 6.4))],
    "austrian-4-corps-4th-corps": [(1, "A", km(8.3, 6.6)), (7, "A", km(7.4, 5.8))],
    "russian-1-corps-1st-russian-corps": [(3, "A", km(6.6, 6.4))],
    "russian-cav-corps-cavalry-corps": [(2, "M", km(6.0, 7.4))],
    "austrian-3-corps-3rd-corps": [(1, "A", km(-3.3, 0.4))],
    "austrian-2-corps-2nd-corps": [(2, "M", km(0.2, 6.4))],
    # French: hold the villages; Napoleon moves the Guard up behind Wachau and counter-attacks
    "french-imperial-guard": [(2, "M", km(4.6, 4.6))],
    "french-ii-corps": [(6, "A", km(4.8, 7.4))],
    "french-v-corps": [(7, "A", km(7.6, 6.8))],
    "french-v-cavalry-corps": [(5, "M", km(6.2, 5.0))],
}

NARRATIVE: dict[tuple[int, str], tuple[str, str, tuple[float, float]]] = {
    (1, AL): (
        "The Allied attack",
        "08:00. After a cannonade from the heights of Güldengossa, the Army of Bohemia attacks in four columns: "
        "Kleist on Markkleeberg, Eugen of Württemberg on Wachau, Gorchakov and Klenau on Liebertwolkwitz and "
        "the Kolmberg; Gyulai advances on Lindenau.",
        km(4.7, 7.6),
    ),
    (1, FR): (
        "The French line",
        "Poniatowski's Poles hold Markkleeberg and the Pleisse villages, Victor Wachau, Lauriston "
        "Liebertwolkwitz; Napoleon rides out from Leipzig to the Galgenberg.",
        km(5.6, 5.6),
    ),
    (2, FR): (
        "The Guard comes up",
        "Napoleon brings the Young Guard forward from Probstheida behind Wachau.",
        km(4.6, 3.6),
    ),
    (3, AL): (
        "Gorchakov comes up",
        "Gorchakov's 1st Russian Corps, late on the march from Störmthal, comes up between Eugen and Klenau.",
        km(6.8, 8.2),
    ),
    (5, AL): (
        "Wachau",
        "About 09:00 Eugen's Russians reach Wachau under the fire of Victor's and the Guard's batteries.",
        km(4.7, 6.6),
    ),
    (6, FR): (
        "Victor counter-attacks",
        "Victor's divisions come out of Wachau against Eugen's battered regiments.",
        km(4.8, 7.0),
    ),
    (7, FR): (
        "Lauriston",
        "Lauriston's V Corps pushes out of Liebertwolkwitz against Gorchakov and Klenau.",
        km(7.4, 6.4),
    ),
    (8, FR): (
        "Lindenau",
        "Gyulai's Austrians press on Lindenau; Bertrand's IV Corps holds, as it did on the day, and keeps the "
        "road to Weissenfels open.",
        km(-3.3, 0.2),
    ),
    (9, AL): (
        "Macdonald is expected",
        "10:00. Macdonald's XI Corps is on the road from Holzhausen; Klenau holds on to the Kolmberg.",
        km(8.3, 6.6),
    ),
}


def _entry(cid: str, turn: int) -> tuple[int, str, tuple[float, float]] | None:
    found = [e for e in PLAN.get(cid, []) if e[0] <= turn]
    return found[-1] if found else None


def _towards(here: tuple[float, float], target: tuple[float, float], limit: float) -> tuple[float, float]:
    d = math.dist(here, target)
    if d <= limit:
        return target
    f = limit / d
    return (round(here[0] + f * (target[0] - here[0]), 2), round(here[1] + f * (target[1] - here[1]), 2))


def _planned_requests(s: GameSession, turn: int, side: str) -> list[OrderRequest]:
    st = s.state
    out = []
    for cid in PLAN:
        c = st.commanders.get(cid)
        entry = _entry(cid, turn)
        if c is None or c.side != side or cid in st.off_table or entry is None:
            continue
        start, kind, target = entry
        tag = f"{cid}@{start}"
        mine = [o for o in st.orders.values() if o.recipient == cid and o.parameters.get("plan") == tag]
        if any(o.status.value in ("written", "failed", "delivered") for o in mine):
            continue
        obj = _towards(c.position, target, 95.0) if kind == "A" else target
        if math.dist(c.position, obj) < 1.0:
            continue
        req = OrderRequest(CHIEF[side], cid, kind, objective=obj, parameters={"plan": tag})
        if not s.preview(req).legal and kind == "M":
            req = OrderRequest(
                CHIEF[side], cid, "A", objective=_towards(c.position, target, 95.0), parameters={"plan": tag}
            )
        if s.preview(req).legal:
            out.append(req)
        else:
            print(f"turn {turn} {side}: {cid}: {s.preview(req).reason}", file=sys.stderr)
    return out


def order_phase(s: GameSession, turn: int, side: str) -> None:
    for cid, c in sorted(s.state.commanders.items()):
        if c.side == side and c.echelon == "corps" and cid not in s.state.off_table and _has_troops(s, cid):
            s.command_check(cid)
    for r in s.issue_orders(_planned_requests(s, turn, side)):
        if r.status == "refused" and "order capacity" not in r.explanation:
            print(f"turn {turn} {side}: {r.explanation}", file=sys.stderr)


def movement_phase(s: GameSession, turn: int, side: str) -> None:
    for cid, c in sorted(s.state.commanders.items()):
        if c.side != side or cid in s.state.off_table or cid in CHIEF.values() or not _has_troops(s, cid):
            continue
        try:
            _execute(s, cid)
        except RuleRefused as exc:
            print(f"turn {turn} {side}: {cid}: {exc}", file=sys.stderr)


def _spec(s: GameSession, uid: str, action: str) -> Any:
    return next((a for a in s.actions(uid) if a.id == action and a.legal), None)


def fire_phase(s: GameSession) -> None:
    """The passive side's fire through the ruleset's ``fire`` action (6.1): each unit that may fire
    shoots at the nearest target the action offers; the umpire enters the figures lost."""
    passive = next(side for side in s.battle.scenario.sides if side != s.key.side)
    for u in live(s, passive):
        if u.state == "FU":
            continue
        found = nearest_enemy(s, u)
        if found is None or found[1] > (FIRE_REACH_CM if u.arm is Arm.ARTILLERY else 12.0):
            continue  # nothing in reach: the action would offer no target (saves the ruleset's geometry)
        spec = _spec(s, u.id, "fire")
        if spec is None:
            continue
        targets = [t for t in spec.parameters[0].choices if t in s.state.units]
        if not targets:
            continue
        fp = u.footprint()
        target = min(targets, key=lambda t: (round(fp.distance(s.state.units[t].footprint()), 3), t))
        need = 6 if u.arm is Arm.ARTILLERY else 7
        r = umpire_roll(
            s.dice,
            f"umpire-fire:{u.id}:t{s.key.turn}:{s.key.side}",
            f"Fire, {u.name} → {s.state.units[target].name}",
            D10,
            threshold=need,
            threshold_source=UMPIRE,
            passes="1 figure lost",
            fails="no effect",
        )
        figs = 1 if r.success and s.state.units[target].figures > 1 else 0
        res = s.act(ActionRequest("fire", u.id, {"target": target}, umpire_result={"figures": figs}))
        if res.status != "resolved":
            print(f"turn {s.key.turn}: fire {u.id}: {res.explanation}", file=sys.stderr)


def _under_attack_order(s: GameSession, uid: str) -> bool:
    st = s.state
    for cid in st.oob.chain_of_command(uid):
        for o in st.orders.values():
            if o.recipient == cid and o.status.value == "delivered":
                return o.order_type == "A"
    return False


def _charge(s: GameSession, uid: str, target: str) -> None:
    """The umpire's charge move: ``uid`` straight at ``target`` into base contact."""
    from shapely.ops import nearest_points

    u, t = s.state.units[uid], s.state.units[target]
    a, b = nearest_points(u.footprint(), t.footprint())
    dx, dy = b.x - a.x, b.y - a.y
    n = math.hypot(dx, dy)
    if n <= 0.05:
        return
    f = (n - 0.05) / n
    x, y = u.position
    s.move(uid, [(x, y), (round(x + f * dx, 2), round(y + f * dy, 2))])


def melee_phase(s: GameSession, side: str) -> None:
    """The active side's attacks: a unit under an attack order within ``CHARGE_CM`` of an enemy
    charges it into contact; then the ruleset's ``melee`` action (7.1) with the umpire's entry,
    and the loser's ``morale_test`` (7.2.2, 8) with the umpire's entry."""
    engaged: set[str] = set()
    for u in live(s, side):
        if u.arm is Arm.ARTILLERY or u.state != "O" or u.id in engaged or not _under_attack_order(s, u.id):
            continue
        fp = u.footprint()
        foes = [
            (round(fp.distance(e.footprint()), 3), e.id, e)
            for e in live(s, enemy_of=side)
            if e.id not in engaged and not (u.arm is Arm.INFANTRY and e.arm is Arm.CAVALRY)  # 5.1
        ]
        if not foes or min(foes)[0] > CHARGE_CM:
            continue
        enemy = min(foes)[2]
        _charge(s, u.id, enemy.id)
        spec = _spec(s, u.id, "melee")
        if spec is None:
            continue
        engaged |= {u.id, enemy.id}
        _melee(s, u.id, enemy.id)


def _in_village(s: GameSession, uid: str) -> bool:
    c = s.state.units[uid].footprint().centroid
    return any(t.polygon.buffer(2.0).contains(c) for t in s.battle.scenario.towns.values())


def _melee(s: GameSession, att: str, dfd: str) -> None:
    st, t = s.state, s.key.turn
    a, d = st.units[att], st.units[dfd]

    def mods(me, other, defending: bool) -> list[tuple[int, str]]:
        out = []
        if me.figures > other.figures:
            out.append((1, "more figures"))
        if defending and _in_village(s, me.id):
            out.append((2, "defending a village"))
        return out

    ra = umpire_roll(s.dice, f"umpire-melee:{att}:t{t}", f"Melee, {a.name} attacking", D10, modifiers=mods(a, d, False))
    rd = umpire_roll(s.dice, f"umpire-melee:{dfd}:t{t}", f"Melee, {d.name} defending", D10, modifiers=mods(d, a, True))
    diff = ra.total - rd.total
    winner = "attacker" if diff > 0 else "defender" if diff < 0 else "undecided"
    lose = 1 + abs(diff) // 3
    la = min(a.figures - 1, 1 if diff > 0 else lose)
    ld = min(d.figures - 1, 1 if diff < 0 else lose)
    res = s.act(
        ActionRequest(
            "melee",
            att,
            {"target": dfd},
            {"winner": winner, "attacker_losses": max(la, 0), "defender_losses": max(ld, 0)},
        )
    )
    if res.status != "resolved":
        print(f"turn {t}: melee {att} -> {dfd}: {res.explanation}", file=sys.stderr)
        return
    s.annotate(
        f"The umpire's melee roll: {ra.explain()}; {rd.explain()}: {winner}.",
        title="Melee",
        at=a.position,
        ids=(att, dfd),
    )
    if winner == "undecided":
        return
    loser, victor = (dfd, att) if diff > 0 else (att, dfd)
    _morale(s, loser, victor)


def _morale(s: GameSession, uid: str, winner: str) -> None:
    from _umpire import _away

    spec = _spec(s, uid, "morale_test")
    if spec is None:
        return
    u = s.state.units[uid]
    start = s.battle.scenario.units[uid].figures or 1
    mods = [(1, "more than half its figures left")] if u.figures * 2 > start else []
    r = umpire_roll(
        s.dice,
        f"umpire-morale:{uid}:t{s.key.turn}",
        f"Morale, {u.name} after a lost melee",
        D10,
        threshold=5,
        modifiers=mods,
        threshold_source=UMPIRE,
        passes="falls back in disorder (U)",
        fails="flees in complete disorder (FU)",
    )
    result = "U" if r.success else "FU"
    dest = _away(u, s.state.units[winner], 12.0 if r.success else 25.0)
    w, h = s.table
    dest = (min(max(dest[0], 3.0), w - 3.0), min(max(dest[1], 3.0), h - 3.0))
    res = s.act(ActionRequest("morale_test", uid, {}, {"result": result, "move_to": dest}))
    if res.status != "resolved":
        res = s.act(ActionRequest("morale_test", uid, {}, {"result": result}))
    if res.status != "resolved":
        print(f"turn {s.key.turn}: morale {uid}: {res.explanation}", file=sys.stderr)


def reorganise(s: GameSession, side: str) -> None:
    """Rallies through the ruleset's ``rally`` action (9) where it is offered; the umpire enters
    the result from his d10 (U rallies to O on 4+, FU to U on 6+)."""
    for u in live(s, side):
        if u.state not in ("U", "FU"):
            continue
        spec = _spec(s, u.id, "rally")
        if spec is None:
            continue
        need = 4 if u.state == "U" else 6
        r = umpire_roll(
            s.dice,
            f"umpire-rally:{u.id}:t{s.key.turn}",
            f"Rally, {u.name} ({u.state})",
            D10,
            threshold=need,
            threshold_source=UMPIRE,
            passes="rallies",
            fails="does not rally",
        )
        if r.success:
            res = s.act(ActionRequest("rally", u.id, {}, {"result": "O" if u.state == "U" else "U"}))
            if res.status != "resolved":
                print(f"turn {s.key.turn}: rally {u.id}: {res.explanation}", file=sys.stderr)


def record(battle: Battle) -> GameSession:
    """Record the opening into ``battle`` (events replaced)."""
    battle.events = []
    sc = battle.scenario
    sc.units, sc.commanders = dict(sorted(sc.units.items())), dict(sorted(sc.commanders.items()))
    s = GameSession(battle, seed=SEED)
    s.start()
    s.annotate(
        f"Recorded with BattleStudio's GameSession: command rolls, moves, fire, melee and morale through the "
        f"Torden over Europa ruleset, dice seeded with {SEED}; the results of the tables missing from the seed "
        f"are the umpire's entries ({UMPIRE}).",
        title="About this game",
    )
    for turn in range(1, TURNS + 1):
        for side in dict.fromkeys(st.side for st in s.steps(turn)):
            s.advance_to("orders", side)
            if (turn, side) in NARRATIVE:
                title, text, where = NARRATIVE[(turn, side)]
                s.annotate(text, title=title, at=where)
            order_phase(s, turn, side)
            s.advance_to("movement", side)
            movement_phase(s, turn, side)
            s.advance_to("fire", side)
            fire_phase(s)
            s.advance_to("attack", side)
            melee_phase(s, side)
            s.advance_to("reorganisation", side)
            reorganise(s, side)
    return s


def main(argv: list[str]) -> None:
    """``record_leipzig.py [OUT]``: record into ``leipzig-1813.battle.json`` (or write to ``OUT``)."""
    out = Path(argv[0]) if argv else FILE
    battle = store.load(FILE)
    record(battle)
    store.save(battle, out)
    print(f"recorded {len(battle.events)} events over {battle.turns_logged} turns into {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
