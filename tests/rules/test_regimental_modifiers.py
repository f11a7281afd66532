"""The troop-type and situational modifiers of a Regimental melee, one by one against the seed's
numbers (3.4.1; Пехота; Кавалерия; Застрельщики; Артиллерия): grenadiers +2, guard +3 and -2 to
the enemy's morale, cuirassiers +3, dragoons +1, lancers -1 to the defender's morale, skirmishers
-3 against cavalry and -1 to the morale of the unit they attack, flanks covered +1 morale (a
ruling: the seed gives no distance), artillery -1 morale a casualty marker."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battlestudio.model.units import Arm, Formation, Subtype
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental.melee import modifiers
from battlestudio.rules.regimental.morale import command_morale_modifiers

from regimental_world import Script, session

P = RuleParameters.for_ruleset("regimental", {})
AV = "austrian-avantgarde"
VIL = "french-bde-villatte"
CONTACT = {VIL: {"position": (112.0, 60.5), "facing": 90.0, "formation": "line"}}


def _pair(a_fields=None, d_fields=None, **req):
    s = session(Script(), CONTACT)
    st = s.state
    a = replace(st.units[AV], **(a_fields or {}))
    d = replace(st.units[VIL], **(d_fields or {}))
    r = ActionRequest("melee", AV, {"target": VIL, **req})
    return st, a, d, r


def _values(mods):
    return {m.source: m.value for m in mods}


@pytest.mark.parametrize(
    "kind, value, label",
    [
        ("grenadiers", 2, "grenadiers (Пехота)"),
        ("guard", 3, "guard (Пехота)"),
        ("line", 1, "line infantry (Пехота)"),
        ("cuirassiers", 3, "cuirassiers (Кавалерия)"),
        ("dragoons", 1, "dragoons (Кавалерия)"),
    ],
)
def test_troop_type_result_modifiers(kind, value, label):
    st, a, d, r = _pair({"attributes": {"regimental_type": kind}})
    assert _values(modifiers(st, a, d, True, r, P).result_mods)[label] == value


def test_guard_and_lancers_lower_the_enemy_morale():
    st, a, d, r = _pair({"attributes": {"regimental_type": "guard"}})
    assert _values(modifiers(st, d, a, False, r, P).morale_mods)["the enemy is guard (Пехота)"] == -2
    st, a, d, r = _pair({"attributes": {"regimental_type": "lancers"}, "arm": Arm.CAVALRY})
    assert _values(modifiers(st, d, a, False, r, P).morale_mods)["attacked by lancers (Кавалерия)"] == -1


def test_skirmishers_minus_3_against_cavalry_and_minus_1_to_the_morale_of_the_unit_they_attack():
    skirm = {"subtype": Subtype.SKIRMISHERS, "formation": Formation.SKIRMISH}
    st, a, d, r = _pair({"arm": Arm.CAVALRY}, skirm)
    assert _values(modifiers(st, d, a, False, r, P).result_mods)["skirmishers against cavalry (Застрельщики)"] == -3
    st, a, d, r = _pair(skirm)
    assert _values(modifiers(st, d, a, False, r, P).morale_mods)["attacked by skirmishers (Застрельщики)"] == -1


def test_flanks_covered_is_a_ruling_worth_plus_1_morale():
    st, a, d, r = _pair(defender_flanks_covered=True)
    assert _values(modifiers(st, d, a, False, r, P).morale_mods)["flanks covered by neighbouring units (3.4.1)"] == 1
    st, a, d, r = _pair()
    assert "flanks covered by neighbouring units (3.4.1)" not in _values(modifiers(st, d, a, False, r, P).morale_mods)


def test_artillery_loses_one_morale_a_casualty_marker():
    s = session(Script())
    guns = next(u for u in s.state.units.values() if u.arm is Arm.ARTILLERY)
    hit = replace(guns, attributes={**guns.attributes, "markers": 2})
    assert _values(command_morale_modifiers(s.state, hit, P))["artillery, 2 casualty markers"] == -2
    assert not [m for m in command_morale_modifiers(s.state, guns, P) if "artillery" in m.source]
