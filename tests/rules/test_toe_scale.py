"""Torden over Europa 1.1/1.3 scale conversions, with the seed's worked example."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlestudio.model.units import Arm, Echelon
from battlestudio.store.importers.fogofwar import import_fogofwar
from battlestudio.rules.toe.scale import (
    ScaleParameters,
    convert_to_toe,
    figures_from_men,
    gun_models,
    map_echelon,
    round_half_up,
)

FOW = Path("/work/shared/data/oob/fogofwar")


def test_worked_example_of_1_3():
    # 3 full French batteries of 12 guns = 36 guns -> one third -> one battery; 36 > 24 -> 2 gun
    # models, each rated at half of 1/3 of 36 = 6 pieces (Torden over Europa 1.3).
    gm = gun_models(batteries=3, real_guns=36)
    assert gm.models == 2
    assert gm.pieces == pytest.approx(6.0)
    assert gm.real_guns == (18, 18)


def test_one_third_of_batteries_with_ordinary_rounding():
    assert gun_models(3, 24).models == 1  # 3 batteries ≈ 24 guns = one gun model (1.1)
    assert gun_models(1, 8).models == 0  # 1/3 rounds to 0
    assert gun_models(1, 8).unrepresented_guns == 8
    assert gun_models(2, 16).models == 1  # 2/3 rounds to 1
    assert gun_models(2, 16).pieces == pytest.approx(16 / 3)
    assert gun_models(5, 40).models == 2  # 5/3 = 1.67 -> 2
    assert gun_models(6, 72).models == 3  # 2 represented, 72 real guns need 3 models under the cap
    assert gun_models(3, None).models == 1 and gun_models(3, None).pieces is None
    assert round_half_up(1.5) == 2 and round_half_up(0.49) == 0
    with pytest.raises(ValueError):
        gun_models(-1, 0)


def test_1_3_gun_rating_beyond_the_worked_example_is_an_assumed_reading():
    # 1.3 (ERRATA 5): 9 batteries of 12 = 108 guns -> 3 represented, 108 > 3 x 24 -> 5 models; the
    # seed does not say how 36 pieces are rated among 5 models: exactly (7.2, the assumed
    # "fraction") or in whole pieces ("rounded", 7). The worked example is 6 under both.
    assert gun_models(9, 108).pieces == pytest.approx(7.2)
    assert gun_models(9, 108, "rounded").pieces == 7.0
    assert gun_models(9, 108, "rounded").models == 5
    assert gun_models(3, 36, "rounded").pieces == gun_models(3, 36).pieces == 6.0
    with pytest.raises(ValueError, match="gun_pieces"):
        gun_models(9, 108, "ceil")
    assert "toe.scale.gun_pieces" not in ScaleParameters().as_parameters()
    assert ScaleParameters(gun_pieces="rounded").as_parameters()["toe.scale.gun_pieces"] == "rounded"


def test_figures_from_men():
    assert figures_from_men(1800, Arm.INFANTRY) == 18
    assert figures_from_men(1850, Arm.INFANTRY) == 19
    assert figures_from_men(600, Arm.CAVALRY) == 8  # 7.5 -> 8
    assert figures_from_men(30, Arm.INFANTRY) == 1
    assert figures_from_men(0, Arm.CAVALRY) == 0
    assert figures_from_men(500, Arm.ARTILLERY) == 0
    with pytest.raises(ValueError):
        figures_from_men(-5, Arm.INFANTRY)


def test_echelon_mapping():
    assert map_echelon("brigade", "Prussia", 1813, "corps") == (
        "division",
        "Prussian brigade acts as a division (Torden over Europa 1.3)",
    )
    assert map_echelon("brigade", "Prussia", 1806, None)[0] == "division"
    # 1.3 names the Prussian brigade with no period: 1815 and an unknown year too (D9) ...
    assert map_echelon("brigade", "Prussia", 1815, "corps")[0] == "division"
    assert map_echelon("brigade", "Prussia", None, "corps")[0] == "division"
    # ... unless a build keeps the reading to a period (assumed prussian_brigade_years)
    assert map_echelon("brigade", "Prussia", 1815, "corps", years=(1806, 1813)) == ("brigade", "")
    assert map_echelon("brigade", "Prussia", None, "corps", years=(1806, 1813)) == ("brigade", "")
    assert map_echelon("brigade", "Prussia", 1813, "corps", years=(1806, 1813))[0] == "division"
    assert map_echelon("brigade", "France", 1813, "corps") == ("brigade", "")
    assert map_echelon("brigade", "Prussia", 1813, "division")[0] == "brigade"
    assert map_echelon("corps", "France", 1813, "corps")[0] == "division"


def test_convert_elchingen_to_toe():
    res = import_fogofwar(FOW, scenario_id=18)
    sc, notes = convert_to_toe(res.scenario)
    before = res.summary
    inf = [u for u in sc.units.values() if u.arm in (Arm.INFANTRY, Arm.CAVALRY)]
    assert all(u.figures == figures_from_men(u.men, u.arm) for u in inf)
    assert sum(u.men for u in sc.units.values()) == before.men
    marc = next(u for u in sc.units.values() if u.name == "Bde de Marcognet")
    assert marc.figures == 29 and (marc.figure_width, marc.figure_depth) == (2.0, 1.5)
    assert marc.rect().width == pytest.approx(15 * 2.0)  # line: 15 files of 2 ranks
    guns = [u for u in sc.units.values() if u.arm is Arm.ARTILLERY]
    # French VI Corps: foot 3 batteries/20 guns -> 1 model; horse 2/6 -> 1; 12-pdr 1/4 -> 0.
    # Austrians: 1 horse battery -> 0 models.
    fr = sorted((u.attributes["gun_category"], u.guns) for u in guns if u.side == "france")
    assert fr == [("foot", 20), ("horse", 6)]
    assert not [u for u in guns if u.side == "austria"]
    ney = sc.commanders[res.roots[0]]
    assert ney.attributes["unrepresented_guns"] == {"12pdr": 4}
    riesch = sc.commanders[res.roots[1]]
    assert riesch.attributes["unrepresented_guns"] == {"horse": 8}
    on_table = sum(u.guns for u in sc.units.values())
    off = sum(n for c in sc.commanders.values() for n in c.attributes.get("unrepresented_guns", {}).values())
    assert on_table + off == before.guns == 38
    assert sc.validate_oob() == []
    assert sc.info.parameters["toe.scale.men_per_infantry_figure"] == 100
    assert "toe.placeholder.figure_size_cm.infantry" in sc.info.parameters
    assert any("12pdr batteries, 4 guns → 0 gun model" in n for n in notes)
    # the original scenario is untouched
    assert all(u.figures == 0 for u in res.scenario.units.values())


def test_convert_with_men_per_base_placeholder():
    from battlestudio.store.importers.republique5 import import_republique5

    res = import_republique5("/work/shared/data/oob/republique5/scenarios/jena-auerstadt-1806/VI-Corps.oob")
    sc, notes = convert_to_toe(res.scenario, ScaleParameters(men_per_base={"infantry": 450, "cavalry": 250}))
    leg = next(u for u in sc.units.values() if u.name == "6eme Legere")
    assert leg.figures == 18  # 4 bases x 450 = 1800 men
    assert sc.info.parameters["toe.placeholder.men_per_base.infantry"] == 450
    arty = [u for u in sc.units.values() if u.arm is Arm.ARTILLERY]
    assert len(arty) == 1 and arty[0].attributes["pieces"] is None  # 2 MdF batteries -> round(2/3) = 1
    assert sc.validate_oob() == []
    corps_arty = next(c for c in sc.commanders.values() if c.attributes.get("formation") == "Corps Artillery")
    assert sc.oob.subordinates(corps_arty.id) == [arty[0].id]  # both batteries were there
    assert Echelon.CORPS.value in {c.echelon for c in sc.commanders.values()}


def test_each_gun_model_names_its_own_share_of_the_batteries(tmp_path):
    """600 batteries make 200 models: naming every battery on every model was 120,000 names
    (an import quadratic in size, 600 MB for a 60 kB .oob); each now names its share."""
    from battlestudio.store.importers import import_oob

    lines = [
        "!French 1813",
        "!Indent 2",
        "Grande Armée - Napoleon",
        "  III Corps - Ney",
        "    Corps Artillery - Charbonnel",
    ]
    lines += [f"      III Corps Bty {i} - MdF" for i in range(600)]
    p = tmp_path / "guns.oob"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = import_oob([p], "oob")
    models = [u for u in res.scenario.units.values() if u.arm is Arm.ARTILLERY]
    assert len(models) > 100
    named = [b for u in models for b in u.attributes["source_batteries"]]
    assert len(named) == len(set(named)) == 600  # every battery once, on one model
    assert all(1 <= len(u.attributes["source_batteries"]) <= 4 for u in models)
