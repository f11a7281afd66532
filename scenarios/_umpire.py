"""The umpire's routine for the recorded bundled games (``record_*.py`` beside this file).

Torden over Europa's fire, melee and morale tables (Tables 2–12) are missing from the seed, so
the umpire rules combat with a small table of his own, rolled through the game's seeded dice and
recorded with every roll: it is named here and in each event's explanation, and is no rule
value. Movement under standing orders is the engine's (``GameSession.execute_order``); the
umpire only moves troops that flee, fall back after a lost melee, or rally.

Umpire's table (d10 read 0–9, as the command rolls):

* fire (passive side's fire phase): each unit fires at the nearest enemy within 10 cm
  (infantry, cavalry do not fire) or 60 cm (artillery); 7+ (artillery 6+) costs the target 1 figure;
* melee (attack phase): an attacking unit under an attack order within 20 cm of an enemy
  (2.7's engagement distance) moves straight at it into contact and fights it; each side d10, +1 for
  more figures, −2 in disorder (U), +2 defending a village, plus the game's ``lean`` for the side
  (the historical course, e.g. fog and surprise);
  the loser loses 1 + difference // 3 figures, the winner 1; a draw costs each 1;
* morale (after a lost melee): d10 + 1 for the unit's remaining strength above half ≥ 5 holds
  in disorder (U) and falls back 12 cm; below it flees in complete disorder (FU), 25 cm
  (stopping short of friendly units, as do flights and charges);
* reorganisation: U 12 cm or more from every enemy rallies to O on 4+; FU rallies to U on 6+;
  FU with two thirds of its figures gone is eliminated (1.6);
* flight: FU units within 60 cm of an enemy run 20 cm in their side's movement phase, half away
  from the nearest enemy and half towards their side's line of retreat; off the table, they are
  gone.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from shapely.geometry import Point as SPoint

from battlestudio.model.units import Arm, Unit
from battlestudio.rules.dice import DiceSpec
from battlestudio.session import GameSession
from battlestudio.session.umpire import umpire_roll

D10 = DiceSpec(1, 10, True)
CHARGE_CM = 20.0
"""An attacking unit this close to an enemy unit charges it in the attack phase (2.7's
engagement distance)."""
TABLE = "umpire's table (Torden over Europa Tables 2–12 missing from the seed)"


def live(s: GameSession, side: str | None = None, enemy_of: str | None = None) -> list[Unit]:
    """Units on the table and not eliminated, by id (so the game never depends on dict order)."""
    st = s.state
    return [
        u
        for _, u in sorted(st.units.items())
        if u.id not in st.off_table
        and u.state != "eliminated"
        and (side is None or u.side == side)
        and (enemy_of is None or u.side != enemy_of)
    ]


def nearest_enemy(s: GameSession, u: Unit) -> tuple[Unit, float] | None:
    best = None
    fp = u.footprint()
    for e in live(s, enemy_of=u.side):
        d = fp.distance(e.footprint())
        if best is None or d < best[1]:
            best = (e, d)
    return best


def under_attack_order(s: GameSession, u: Unit) -> bool:
    st = s.state
    chain = st.oob.chain_of_command(u.id)
    for cid in chain:
        for o in st.orders.values():
            if o.recipient == cid and o.status.value == "delivered":
                return o.order_type == "A"
    return False


def _away(u: Unit, frm: Unit, dist: float) -> tuple[float, float]:
    (x, y), (fx, fy) = u.position, frm.footprint().centroid.coords[0]
    n = math.hypot(x - fx, y - fy) or 1.0
    return (round(x + dist * (x - fx) / n, 2), round(y + dist * (y - fy) / n, 2))


def in_village(s: GameSession, u: Unit) -> bool:
    c = u.footprint().centroid
    return any(t.polygon.buffer(2.0).contains(c) for t in s.battle.scenario.towns.values())


def fire_phase(s: GameSession, shooters: str) -> None:
    """The passive side's fire (``shooters`` is the passive side)."""
    for u in live(s, shooters):
        if u.arm is Arm.CAVALRY or u.state == "FU":
            continue
        found = nearest_enemy(s, u)
        rng = 60.0 if u.arm is Arm.ARTILLERY else 10.0
        if found is None or found[1] > rng:
            continue
        target, d = found
        need = 6 if u.arm is Arm.ARTILLERY else 7
        r = umpire_roll(
            s.dice,
            f"umpire-fire:{u.id}:t{s.key.turn}:{s.key.side}",
            f"Fire, {u.name} → {target.name} at {d:.0f} cm",
            D10,
            threshold=need,
            threshold_source=TABLE,
            passes="1 figure lost",
            fails="no effect",
        )
        s.record(_fired(s, u, target, d, r))
        if r.success and s.state.units[target.id].figures > 0:
            men = min(target.men, 100 if target.arm is not Arm.CAVALRY else 80)
            s.casualties(target.id, min(1, target.figures), men=men, cause=f"fire of {u.name}")


def _fired(s, u, target, d, r):
    from battlestudio.replay.combat_events import Fired

    return Fired(
        **s._stamp(),
        unit=u.id,
        target=target.id,
        range_cm=round(d, 1),
        roll=r.to_dict(),
        result=r.outcome,
        explanation=r.explain(),
    )


def melee_phase(s: GameSession, side: str, lean: Callable[[str, int], int]) -> None:
    """Melees of the active ``side``'s units under attack orders that are in contact."""
    fought: set[str] = set()
    for u in sorted(live(s, side), key=lambda u: u.id):
        u = s.state.units[u.id]
        if u.state != "O" or u.arm is Arm.ARTILLERY or not under_attack_order(s, u):
            continue
        found = nearest_enemy(s, u)
        if found is None or found[1] > CHARGE_CM or found[0].id in fought:
            continue
        d = found[0]
        if found[1] > 2.0:
            _charge(s, u, d)
            u = s.state.units[u.id]
        fought.update((u.id, d.id))
        _melee(s, u, d, lean)


def _charge(s: GameSession, u: Unit, target: Unit) -> None:
    """Move ``u`` straight at ``target`` until 0.5 cm short of it (the attack move)."""
    from shapely.affinity import translate
    from shapely.ops import nearest_points

    a, b = nearest_points(u.footprint(), target.footprint())
    dx, dy = b.x - a.x, b.y - a.y
    n = math.hypot(dx, dy)
    if n <= 0.5:
        return
    f = (n - 0.5) / n
    others = [e.footprint() for e in live(s) if e.id not in (target.id, u.id)]  # other enemies and friends
    fp = u.footprint()
    while f > 0.05 and any(translate(fp, f * dx, f * dy).distance(o) < 0.5 for o in others):
        f *= 0.8  # stop short of other units on the way
    x, y = u.position
    s.move(u.id, [(x, y), (round(x + f * dx, 2), round(y + f * dy, 2))])


def _melee(s: GameSession, a: Unit, d: Unit, lean: Callable[[str, int], int]) -> None:
    t = s.key.turn

    def mods(me: Unit, other: Unit, defending: bool) -> list[tuple[int, str]]:
        out = []
        if me.figures > other.figures:
            out.append((1, "more figures"))
        if me.state == "U":
            out.append((-2, "in disorder (U)"))
        if defending and in_village(s, me):
            out.append((2, "defending a village"))
        if lean(me.side, t):
            out.append((lean(me.side, t), "historical course (umpire's lean)"))
        return out

    ra = umpire_roll(
        s.dice, f"umpire-melee:{a.id}:t{t}", f"Melee, {a.name} attacking", D10, modifiers=mods(a, d, False)
    )
    rd = umpire_roll(s.dice, f"umpire-melee:{d.id}:t{t}", f"Melee, {d.name} defending", D10, modifiers=mods(d, a, True))
    diff = ra.total - rd.total
    winner = "attacker" if diff > 0 else "defender" if diff < 0 else "draw"
    text = f"Umpire's melee ({TABLE}): {ra.explain()}; {rd.explain()}: {winner}."
    s.melee([a.id], [d.id], winner, text, None)
    if winner == "draw":
        _melee_loss(s, a.id, 1, "melee (draw)")
        _melee_loss(s, d.id, 1, "melee (draw)")
        return
    win, lose = (a, d) if diff > 0 else (d, a)
    _melee_loss(s, win.id, 1, f"melee against {lose.name}")
    _melee_loss(s, lose.id, 1 + abs(diff) // 3, f"melee against {win.name}")
    _morale(s, s.state.units[lose.id], win)


def _morale(s: GameSession, u: Unit, winner: Unit) -> None:
    start = s.battle.scenario.units[u.id].figures or 1
    mods = [(1, "more than half its figures left")] if u.figures * 2 > start else []
    r = umpire_roll(
        s.dice,
        f"umpire-morale:{u.id}:t{s.key.turn}",
        f"Morale, {u.name} after a lost melee",
        D10,
        threshold=5,
        modifiers=mods,
        threshold_source=TABLE,
        passes="falls back in disorder",
        fails="flees in complete disorder",
    )
    s.morale_test(u.id, bool(r.success), r.outcome, "Umpire's morale test.", r)
    new = "U" if r.success else "FU"
    s.set_order_state(u.id, new, f"lost the melee against {winner.name}")
    dest = _clear(s, u, _away(u, winner, 12.0 if r.success else 25.0))
    if dest != u.position:
        s.move(u.id, [u.position, dest])


def _clear(s: GameSession, u: Unit, dest: tuple[float, float]) -> tuple[float, float]:
    """``dest`` shortened so ``u`` stops short of friendly units instead of landing on them."""
    from battlestudio.rules.following import free_of_friends

    (x, y) = u.position
    f = free_of_friends(s.state, u.id, (dest[0] - x, dest[1] - y))
    return (round(x + f * (dest[0] - x), 2), round(y + f * (dest[1] - y), 2))


def flight(s: GameSession, side: str, home: tuple[float, float]) -> None:
    """FU units of ``side`` near the enemy run 20 cm, half away from the nearest enemy and half
    towards ``home`` (cm); one that reaches the table edge leaves the game."""
    w, h = s.table
    for u in live(s, side):
        if u.state != "FU":
            continue
        found = nearest_enemy(s, u)
        if found is None or found[1] >= 60.0:
            continue
        (x, y), (ax, ay) = u.position, _away(u, found[0], 1.0)
        vx, vy = ax - x, ay - y
        hx, hy = home[0] - x, home[1] - y
        hn = math.hypot(hx, hy) or 1.0
        dx, dy = vx + hx / hn, vy + hy / hn
        n = math.hypot(dx, dy) or 1.0
        dest = (round(x + 20.0 * dx / n, 2), round(y + 20.0 * dy / n, 2))
        if not (2.0 <= dest[0] <= w - 2.0 and 2.0 <= dest[1] <= h - 2.0):
            s.remove(u.id, "fled off the table in complete disorder")
            continue
        dest = _clear(s, u, dest)
        if dest != u.position:
            s.move(u.id, [u.position, dest])


def reorganise(s: GameSession, side: str) -> None:
    """Rally and elimination of ``side``'s disordered units."""
    for u in live(s, side):
        if u.state not in ("U", "FU"):
            continue
        start = s.battle.scenario.units[u.id].figures or 1
        if u.state == "FU" and u.figures * 3 <= start:
            s.set_order_state(u.id, "eliminated", "in complete disorder with two thirds of its figures lost (1.6)")
            continue
        found = nearest_enemy(s, u)
        if found is not None and found[1] < 12.0:
            continue
        need = 4 if u.state == "U" else 6
        r = umpire_roll(
            s.dice,
            f"umpire-rally:{u.id}:t{s.key.turn}",
            f"Rally, {u.name} ({u.state})",
            D10,
            threshold=need,
            threshold_source=TABLE,
            passes="rallies",
            fails="does not rally",
        )
        s.morale_test(u.id, bool(r.success), r.outcome, "Umpire's rally test.", r)
        if r.success:
            s.set_order_state(u.id, "O" if u.state == "U" else "U", "rallied")


def town_at(s: GameSession, name: str) -> SPoint:
    return next(t.polygon.centroid for t in s.battle.scenario.towns.values() if t.name == name)


def _melee_loss(s: GameSession, uid: str, figures: int, cause: str) -> None:
    """A melee loss of ``figures`` (no more than the unit has) with its men, horses and guns
    in proportion (``rules.losses``), so the game's men lost add up."""
    from battlestudio.rules.losses import loss_event

    u = s.state.units[uid]
    e = loss_event(s.state, uid, min(figures, u.figures), cause, {"turn": 0, "side": "", "phase": ""})
    s.casualties(uid, e.figures, men=e.men, horses=e.horses, guns=e.guns, cause=cause)
