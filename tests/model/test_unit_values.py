"""A unit's formation, arm and subtype are always their enums: a plain string value (a Qt combo,
a hand-written file) becomes the member, an unknown one is refused naming unit, field and the
values allowed, so drawing a unit never meets a value it cannot measure."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battlestudio.model.units import Arm, Formation, Subtype, Unit, UnitValueError

from tests.elchingen import elchingen_scenario


def test_string_values_become_the_enum_and_the_footprint_follows():
    u = elchingen_scenario().units["u-villatte"]
    col = replace(u, formation="column")
    assert type(col.formation) is Formation and col.formation is Formation.COLUMN
    assert col.rect() == replace(u, formation=Formation.COLUMN).rect()
    assert col.rect().depth > u.rect().depth and col.position == u.position
    bty = Unit("u-x", "Battery", "french", arm="artillery", subtype="foot_artillery", formation="unlimbered", figures=2)
    assert (type(bty.arm), type(bty.subtype), type(bty.formation)) == (Arm, Subtype, Formation)


@pytest.mark.parametrize(("field", "value"), [("formation", "wedge"), ("arm", "navy"), ("subtype", "hussars")])
def test_an_unknown_value_is_refused_naming_it(field, value):
    u = elchingen_scenario().units["u-villatte"]
    with pytest.raises(UnitValueError, match=rf"unit 'u-villatte': {field} '{value}' is not one of"):
        replace(u, **{field: value})
