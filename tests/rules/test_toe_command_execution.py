"""Torden over Europa 2.5 and 2.7 in the execute-order action (``rules.toe.execution``), on the
bundled Jena scenario: Lannes' V Corps under an attack order to (420, 200), his troops following
him. Terrain that bars a unit's way (2.7), the formation changes of the turn the order arrives
(2.7, ``attack_receipt_turn``), the artillery's full-speed move towards the corps and where it
may unlimber (2.7), and a faster formation for a unit out of command (2.5)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest
from shapely.geometry import box

from battlestudio import store
from battlestudio.model.terrain import TerrainFeature, TerrainKind
from battlestudio.model.units import Formation
from battlestudio.replay.battle import Battle
from battlestudio.replay.flow_events import Moved
from battlestudio.rules import OrderRequest
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.following import follow_moves
from battlestudio.rules.moves import MoveRequest
from battlestudio.rules.toe import march
from battlestudio.rules.toe.common import params_for
from battlestudio.session import GameSession
from tests.test_session import ENGINE, JENA, LANNES, NAPOLEON, FixedDice

OBJECTIVE = (420.0, 200.0)
BATTERY = "french-v-corps-foot-guns-1"  # 16 guns, unlimbered at (409.5, 134) in the scenario
COL40 = "french-40e-ligne"  # column at (442, 150), facing north
COL34 = "french-34e-ligne"  # 25 figures, column at (425, 150)
WOODS = TerrainFeature("test-woods", TerrainKind.WOODS, box(430.0, 160.0, 460.0, 175.0), name="Isserstedt wood")


def session(params: dict[str, Any] | None = None, units: dict[str, dict[str, Any]] | None = None, terrain=()):
    """Jena without its game, ``units`` changed (id → fields), ``terrain`` added; the attack
    order delivered to Lannes in turn 1 and the French movement phase open."""
    scenario = store.load(JENA).scenario
    for uid, ch in (units or {}).items():
        scenario.units[uid] = replace(scenario.units[uid], **ch)
    for t in terrain:
        scenario.terrain[t.id] = t
    s = GameSession(Battle(scenario, []), params={**ENGINE, **(params or {})}, dice=FixedDice(9))
    s.start()
    out = s.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=OBJECTIVE))
    assert out.status == "delivered", out.explanation
    s.advance_to("movement")
    return s


def execute(s: GameSession, **parameters: Any):
    res = s.act(ActionRequest("execute_order", LANNES, parameters))
    assert res.status == "resolved", res.explanation
    return res


def check(s: GameSession, before, uid: str, end, terrain=()) -> march.MoveCheck:
    u = before.units[uid]
    return march.check_move(before, params_for(s.params), MoveRequest(uid, (u.position, end), None, terrain, s.table))


def test_a_unit_the_woods_bar_makes_its_longest_move_up_to_them():
    """2.7 'Såfremt tropperne grundet terræn forhold ... ikke kan foretage en bevægelse ... skal
    enheden foretage sin maksimale bevægelse': the 40e Ligne's way runs into a wood 10 cm ahead;
    it goes as far as the wood lets it (its centre to the wood's edge), neither through the wood
    nor staying where it stood."""
    s = session(terrain=(WOODS,))
    before = s.state
    res = execute(s)
    start, end = before.units[COL40].position, s.state.units[COL40].position
    lannes = math.dist(before.commanders[LANNES].position, s.state.commanders[LANNES].position)
    went = math.dist(start, end)
    assert 5.0 < went < lannes - 5.0, (went, lannes)
    assert "held back by the terrain" in res.explanation and "Isserstedt wood" in res.explanation
    assert "2.7" in res.explanation
    assert check(s, before, COL40, end, (WOODS,)).legal or not any(
        "woods" in x for x in check(s, before, COL40, end, (WOODS,)).problems
    )
    further = (start[0] + (end[0] - start[0]) * 1.05, start[1] + (end[1] - start[1]) * 1.05)
    assert any("woods" in x for x in check(s, before, COL40, further, (WOODS,)).problems)
    # its direction is the corps' move: the same bearing as the general's
    d = (
        s.state.commanders[LANNES].position[0] - before.commanders[LANNES].position[0],
        s.state.commanders[LANNES].position[1] - before.commanders[LANNES].position[1],
    )
    assert abs((end[0] - start[0]) * d[1] - (end[1] - start[1]) * d[0]) < 0.05 * went * lannes
    # without the wood it follows him all the way
    free = session()
    execute(free)
    assert math.dist(start, free.state.units[COL40].position) > lannes - 0.5


def test_in_the_turn_the_attack_order_arrives_squares_form_column_and_batteries_limber():
    """2.7 'Idet træk hvori ordren modtages skal foretages de fornødne formationsændringer': the
    34e Ligne in square forms column and the unlimbered battery limbers, then both move with the
    corps (assumed ``attack_receipt_turn`` 'change_and_move')."""
    s = session(units={COL34: {"formation": Formation.SQUARE}})
    before = s.state
    assert before.units[BATTERY].formation is Formation.UNLIMBERED
    spec = next(a for a in s.actions(LANNES) if a.id == "execute_order")
    assert spec.legal and [x.name for x in spec.parameters] == ["unlimber"]
    preview = s.preview_action(ActionRequest("execute_order", LANNES)).explanation
    assert "34e Ligne square → column" in preview and "unlimbered → limbered" in preview
    res = execute(s)
    assert s.state.units[COL34].formation is Formation.COLUMN
    assert s.state.units[BATTERY].formation is Formation.LIMBERED
    assert "attack_receipt_turn = 'change_and_move', assumed" in res.explanation
    assert math.dist(before.units[COL34].position, s.state.units[COL34].position) > 15.0
    assert math.dist(before.units[BATTERY].position, s.state.units[BATTERY].position) > 15.0
    kinds = [e.kind for e in s.log.events[-len(res.outcome.events) :]]
    assert kinds.index("formation_changed") < kinds.index("moved")
    # made once: carried out again this turn nothing limbers again (Lannes, engaged, stays)
    again = next(a for a in s.actions(LANNES) if a.id == "execute_order")
    assert not again.legal and "engaged" in again.unavailable and "formation changes" not in again.unavailable


def test_the_change_only_reading_spends_the_turn_on_the_changes():
    """The other reading (``attack_receipt_turn`` = 'change_only'): the turn the order arrives
    goes on the formation changes; nobody moves, Lannes included."""
    s = session(params={"toe.attack_receipt_turn": "change_only"}, units={COL34: {"formation": Formation.SQUARE}})
    before = s.state
    res = execute(s)
    assert {e.kind for e in res.outcome.events} == {"formation_changed", "command_state_changed"}
    assert s.state.units[COL34].formation is Formation.COLUMN
    assert s.state.commanders[LANNES].position == before.commanders[LANNES].position
    assert s.state.units[COL40].position == before.units[COL40].position
    assert "the corps does not move this turn" in res.explanation
    again = next(a for a in s.actions(LANNES) if a.id == "execute_order")
    assert not again.legal and "moves from the next turn" in again.unavailable and "2.7" in again.unavailable
    assert s.act(ActionRequest("execute_order", LANNES)).status == "refused"
    assert s.state.commanders[LANNES].position == before.commanders[LANNES].position


def test_in_a_later_turn_no_formation_is_changed_for_the_move():
    """2.7 names the turn the order is received: a turn later the square stays a square (4.4:
    it makes no voluntary move) and the battery stays unlimbered."""
    s = session(units={COL34: {"formation": Formation.SQUARE}})
    s.advance_to("orders", "prussian")
    s.advance_to("movement", "french")
    assert s.key.turn == 2
    before = s.state
    res = execute(s)
    assert s.state.units[COL34].formation is Formation.SQUARE
    assert s.state.units[COL34].position == before.units[COL34].position
    assert s.state.units[BATTERY].formation is Formation.UNLIMBERED
    assert "squares make no voluntary move" in res.explanation


def test_artillery_moves_at_its_full_march_speed_towards_the_corps():
    """2.7 'Artilleri skal bevæge sig med sin maksimale marchhastighed mod korpset': the limbered
    battery, 85 cm behind, goes its whole 30 cm towards Lannes' new place, further than Lannes'
    own step, and is not unlimbered there: out of his command distance, and its range is in the
    lost Table 6 (the umpire's)."""
    s = session(units={BATTERY: {"formation": Formation.LIMBERED, "position": (409.5, 60.0)}})
    before = s.state
    res = execute(s, unlimber=True)
    start, end = before.units[BATTERY].position, s.state.units[BATTERY].position
    general = s.state.commanders[LANNES].position
    assert 29.9 < math.dist(start, end) <= 30.0 + 1e-6
    assert math.dist(before.commanders[LANNES].position, general) < 29.0
    centre = before.units[BATTERY].footprint().centroid
    to_him = (general[0] - centre.x, general[1] - centre.y)
    step = (end[0] - start[0], end[1] - start[1])
    assert abs(to_him[0] * step[1] - to_him[1] * step[0]) < 1e-2 * math.hypot(*to_him) * math.hypot(*step)
    assert "full march speed" in res.explanation
    assert s.state.units[BATTERY].formation is Formation.LIMBERED
    assert "stays limbered" in res.explanation and "lost Table 6" in res.explanation


def test_a_battery_unlimbers_within_range_or_command_distance_only_when_asked():
    """2.7 'Artilleri kan når dette er indenfor skudafstand, af fjenden eller indenfor
    korpschefens kommandoafstand foretage afprodsning': near Lannes the battery unlimbers when the
    umpire ticks the box; far behind, Table 6's range (the scenario's) reaching the Prussians lets
    it too; unticked it stays limbered."""
    near = session(units={BATTERY: {"formation": Formation.LIMBERED}})
    res = execute(near, unlimber=True)
    assert near.state.units[BATTERY].formation is Formation.UNLIMBERED
    assert "unlimbers: within Lannes's command distance" in res.explanation
    kept = session(units={BATTERY: {"formation": Formation.LIMBERED}})
    execute(kept)
    assert kept.state.units[BATTERY].formation is Formation.LIMBERED
    table = {"zones_cm": [10, 40, 120], "losses": [[1], [1], [1]]}
    far = session(
        params={"toe.fire_table.artillery": table},
        units={BATTERY: {"formation": Formation.LIMBERED, "position": (409.5, 60.0)}},
    )
    res = execute(far, unlimber=True)
    assert far.state.units[BATTERY].formation is Formation.UNLIMBERED
    assert "unlimbers: within range of" in res.explanation and "fire_table.artillery" in res.explanation


def test_a_unit_held_short_of_command_forms_the_faster_formation_that_regains_it():
    """2.5 'Kan dette opnås ved at skifte til en hurtigere formation skal det gøres': with the
    scenario's march lengths of 4 cm in line and 30 cm in column, the 40e Ligne in line would end
    out of Suchet's 15 cm; it forms column and follows him inside it. Without a faster formation
    (4 cm in every formation) it stays in line, held short."""
    lengths = {"toe.march_length_cm.infantry.line": 4, "toe.march_length_cm.infantry.column": 30}
    s = session(params=lengths, units={COL40: {"formation": Formation.LINE}})
    before = s.state
    res = execute(s)
    assert s.state.units[COL40].formation is Formation.COLUMN, res.explanation
    assert "forms column to regain command" in res.explanation and "2.5" in res.explanation
    moved = math.dist(before.units[COL40].position, s.state.units[COL40].position)
    assert moved > 4.5
    suchet = s.state.commanders["french-1eme-division"]
    from battlestudio.rules.toe.common import base_of

    assert base_of(suchet).distance(s.state.units[COL40].footprint()) <= 15.0 + 1e-6
    slow = session(
        params={**lengths, **{f"toe.march_length_cm.infantry.{f.value}": 4 for f in Formation}},
        units={COL40: {"formation": Formation.LINE}},
    )
    execute(slow)
    assert slow.state.units[COL40].formation is Formation.LINE
    assert math.dist(before.units[COL40].position, slow.state.units[COL40].position) <= 4.0 + 0.05


def test_a_battery_with_the_corps_follows_it_and_hurries_under_the_other_reading():
    """The battery limbered at (409.5, 134) is with the corps: following Lannes it stays within
    his command distance, so it follows him as the 40e Ligne does (``rules.following``, the
    assumed ``artillery_towards_corps`` = 'outside'); under 'always' it moves its full 30 cm
    straight towards him instead."""
    s = session(units={BATTERY: {"formation": Formation.LIMBERED}})
    before = s.state
    help_ = s.legal_move(LANNES)
    d = (help_.end[0] - help_.start[0], help_.end[1] - help_.start[1])
    plain = {
        e.id: e.path[-1]
        for e in follow_moves(before, LANNES, d, turn=1, side="french", phase="movement", table=s.table)
        if isinstance(e, Moved)
    }
    res = execute(s)
    assert s.state.units[COL40].position == plain[COL40]
    assert s.state.units[BATTERY].position == plain[BATTERY] and "full march speed" not in res.explanation
    hurry = session(
        params={"toe.artillery_towards_corps": "always"}, units={BATTERY: {"formation": Formation.LIMBERED}}
    )
    res = execute(hurry)
    assert hurry.state.units[BATTERY].position != plain[BATTERY] and "full march speed" in res.explanation
    assert math.dist(before.units[BATTERY].position, hurry.state.units[BATTERY].position) == pytest.approx(
        30.0, abs=0.02
    )


def test_the_umpires_unlimbering_is_held_to_2_7_under_an_attack_order():
    """The same 2.7 limit on the ruleset's formation change (the Properties dock's and the
    window's way): under Lannes' attack order the battery 85 cm behind him with the Prussians
    beyond a 40 cm Table 6 range is refused, naming 2.7; close to Lannes it may; without Table 6
    the range is the umpire's and nothing is refused; with no attack order nothing is."""
    from battlestudio.rules import RuleRefused, get_ruleset

    toe = get_ruleset("toe")
    table = {"zones_cm": [10, 20, 40], "losses": [[1], [1], [1]]}
    far = {BATTERY: {"formation": Formation.LIMBERED, "position": (409.5, 60.0)}}
    s = session(params={"toe.fire_table.artillery": table}, units=far)
    try:
        toe.formation_change(s.state, BATTERY, "unlimbered", s.params)
    except RuleRefused as exc:
        assert "2.7" in str(exc) and "command distance" in str(exc) and "Lannes" in str(exc)
    else:
        raise AssertionError("unlimbering out of range and command distance was allowed")
    near = session(params={"toe.fire_table.artillery": table}, units={BATTERY: {"formation": Formation.LIMBERED}})
    assert toe.formation_change(near.state, BATTERY, "unlimbered", near.params).unit.formation is Formation.UNLIMBERED
    unknown = session(units=far)
    assert toe.formation_change(unknown.state, BATTERY, "unlimbered", unknown.params) is not None
    scenario = store.load(JENA).scenario
    scenario.units[BATTERY] = replace(scenario.units[BATTERY], formation=Formation.LIMBERED, position=(409.5, 60.0))
    no_order = GameSession(Battle(scenario, []), params={**ENGINE, "toe.fire_table.artillery": table})
    no_order.advance_to("movement")
    assert toe.formation_change(no_order.state, BATTERY, "unlimbered", no_order.params) is not None


def test_a_faster_formation_does_not_carry_a_unit_through_the_woods():
    """2.5 and 2.7 together: the 40e Ligne in line, held short of Suchet by its 4 cm and barred by
    the wood, does not form column to march through the wood; it makes its longest move."""
    lengths = {"toe.march_length_cm.infantry.line": 4, "toe.march_length_cm.infantry.column": 30}
    near = TerrainFeature("near-woods", TerrainKind.WOODS, box(430.0, 151.0, 460.0, 175.0), name="Closewood")
    s = session(params=lengths, units={COL40: {"formation": Formation.LINE}}, terrain=(near,))
    before = s.state
    res = execute(s)
    assert s.state.units[COL40].formation is Formation.LINE, res.explanation
    end = s.state.units[COL40].position
    assert not any("woods" in x for x in check(s, before, COL40, end, (near,)).problems)
