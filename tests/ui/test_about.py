"""The About dialog: version and licence, data credits gathered from the bundled scenarios'
sources, the open scenario's own sources, unreadable bundled files, and Help ▸ About; and the
application and window icon set by ``ui.app``."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from battlestudio import __version__, store
from battlestudio.model.scenario import Scenario, ScenarioInfo, Source
from battlestudio.ui import about
from battlestudio.ui.about import AboutDialog, about_html, gather_credits
from battlestudio.ui.resources import bundled_scenarios
from tests.ui.window_helpers import ELCHINGEN, make_window

ROOT = Path(__file__).resolve().parents[2]


def _raw_sources() -> dict[str, list[dict]]:
    """Each bundled scenario's title -> its ``sources`` as written in the JSON file."""
    out = {}
    for p in bundled_scenarios():
        data = json.loads(p.read_text(encoding="utf-8"))
        out[data["info"]["title"]] = data["sources"]
    return out


def test_licence_is_the_projects():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert about.LICENCE == project["license"]


def test_every_runtime_dependency_is_credited_with_its_licence():
    import re

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    names = {re.split(r"[<>=!~;\[ ]", d, maxsplit=1)[0].lower() for d in deps}
    credited = {dist for _, _, dist in about.THIRD_PARTY}
    assert names <= credited, f"add to ui.about.THIRD_PARTY: {sorted(names - credited)}"
    assert all(lic for _, lic, _ in about.THIRD_PARTY)


def test_gather_credits_merges_a_source_shared_by_two_scenarios():
    fog = Source("fogofwar tables", "https://github.com/steveoc64/fogofwar", "MIT", "forces 1, 4")
    fog_other_note = Source("fogofwar tables", "https://github.com/steveoc64/fogofwar", "MIT", "forces 101")
    wiki = Source(
        "Battle of Elchingen (Wikipedia)", "https://en.wikipedia.org/wiki/Battle_of_Elchingen", "CC BY-SA 4.0"
    )
    jena = Scenario(info=ScenarioInfo(title="Jena 1806"))
    jena.sources = [fog]
    elch = Scenario(info=ScenarioInfo(title="Elchingen 1805"))
    elch.sources = [fog_other_note, wiki]
    credits = gather_credits([jena, elch])
    assert [c.source.title for c in credits] == ["fogofwar tables", "Battle of Elchingen (Wikipedia)"]
    assert credits[0].scenarios == ("Jena 1806", "Elchingen 1805")
    assert credits[0].source.note == "forces 1, 4"  # the first one's note is kept
    assert credits[1].scenarios == ("Elchingen 1805",)


def test_every_bundled_source_is_credited_once_with_its_licence(qtbot):
    raw = _raw_sources()
    assert set(raw) == {
        "Jena 1806",
        "Elchingen 1805",
        "Auerstedt 1806",
        "Waterloo 1815",
        "Leipzig 1813: Wachau and Lindenau",
    }
    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    keys = [(c.source.title, c.source.url, c.source.licence) for c in dialog.credits]
    expected = {(s["title"], s["url"], s["licence"]) for sources in raw.values() for s in sources}
    assert len(keys) == len(set(keys)) == len(expected)
    assert set(keys) == expected
    fog = next(c for c in dialog.credits if c.source.url == "https://github.com/steveoc64/fogofwar")
    assert set(fog.scenarios) == {"Jena 1806", "Elchingen 1805", "Auerstedt 1806"}
    text = dialog.body.toPlainText()
    assert "MIT (Copyright (c) 2016 SteveOC)" in text
    assert "BSD 2-Clause (Copyright (c) 2019, SteveOC)" in text
    assert "ODbL / CC BY-SA (facts only)" in text
    assert f"Version {__version__}" in text and "Licence: MIT" in text
    assert __version__ in dialog.heading.text()
    anchors = dialog.body.toHtml()
    assert 'href="https://github.com/steveoc64/republique5"' in anchors
    assert dialog.body.openExternalLinks()


def test_open_scenario_sources_are_credited_too(qtbot):
    mine = Scenario(info=ScenarioInfo(title="Leipzig 1813 (club)"))
    mine.sources = [Source("Nafziger, Napoleon at Leipzig", "", "", "Allied order of battle")]
    dialog = AboutDialog(scenario=mine)
    qtbot.addWidget(dialog)
    last = dialog.credits[-1]
    assert last.source.title == "Nafziger, Napoleon at Leipzig" and last.scenarios == ("Leipzig 1813 (club)",)
    assert "Nafziger, Napoleon at Leipzig" in dialog.body.toPlainText()


def test_html_escapes_source_text_and_names_unreadable_files():
    s = Scenario(info=ScenarioInfo(title="A <b> & C"))
    s.sources = [Source('Tables "1" <raw>', "https://example.org/?a=1&b=2", "CC0")]
    body = about_html(gather_credits([s]), ["broken.battle.json: line 3: not JSON"])
    assert "<raw>" not in body and "&lt;raw&gt;" in body
    assert 'href="https://example.org/?a=1&amp;b=2"' in body
    assert "A &lt;b&gt; &amp; C" in body
    assert "broken.battle.json: line 3: not JSON" in body


def test_unreadable_bundled_scenario_is_reported_not_raised(qtbot, tmp_path, monkeypatch):
    good = bundled_scenarios()[0]
    (tmp_path / good.name).write_bytes(good.read_bytes())
    (tmp_path / "broken.battle.json").write_text("{ this is not json", encoding="utf-8")
    monkeypatch.setattr(about, "bundled_scenarios", lambda: sorted(tmp_path.iterdir()))
    about._bundled.cache_clear()
    try:
        dialog = AboutDialog()
        qtbot.addWidget(dialog)
        text = dialog.body.toPlainText()
        assert "Could not read:" in text and "broken.battle.json" in text
        expected = store.load(good).scenario.sources
        assert [c.source.title for c in dialog.credits] == [s.title for s in expected]
    finally:
        about._bundled.cache_clear()


def test_help_about_opens_the_dialog_without_blocking(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    window.actions["about"].trigger()
    dialogs = [w for w in QApplication.topLevelWidgets() if isinstance(w, AboutDialog) and w.isVisible()]
    assert len(dialogs) == 1
    dialog = dialogs[0]
    assert dialog.parent() is window and dialog.windowTitle() == "About BattleStudio"
    close = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
    close.click()
    assert not dialog.isVisible()


def test_application_and_window_icon(qtbot, tmp_path, monkeypatch):
    from battlestudio.ui import app as app_module

    made = []

    def window_in_tmp():  # settings and recovery folder under tmp_path, not the user's
        made.append(make_window(qtbot, tmp_path, show=False))
        return made[-1]

    monkeypatch.setattr(app_module, "MainWindow", window_in_tmp)
    qapp, window = app_module.create(str(ELCHINGEN))
    assert window is made[0] and window.document.scenario.info.title == "Elchingen 1805"
    assert not qapp.windowIcon().isNull()
    for size in (16, 32, 256):
        pix = qapp.windowIcon().pixmap(size, size)
        assert pix.width() == size
        img = pix.toImage()
        assert img.pixelColor(size // 2, size // 2).alpha() == 255  # drawn, not transparent
    assert not window.windowIcon().isNull()
    assert qapp.desktopFileName() == "io.github.battlestudio.BattleStudio"


@pytest.fixture(autouse=True)
def _fresh_bundled_cache():
    about._bundled.cache_clear()
    yield
