"""Default map colours of sides: one per nation, distinct within a scenario.

``NATION_COLOURS`` follows the usual wargame convention of the nation's coat colour (French
blue, British red, Russian green, Austrian white shown as light grey, …). ``side_colour`` gives
a nation's colour unless another side already has it, else the first colour of ``FALLBACK`` not
taken, so no two sides of one scenario share a colour by default.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

NATION_COLOURS: dict[str, str] = {
    "french": "#2a4fb0",
    "france": "#2a4fb0",
    "british": "#c0282d",
    "britain": "#c0282d",
    "english": "#c0282d",
    "anglo-allied": "#c0282d",
    "allied": "#c0282d",
    "prussian": "#2b2b3a",
    "prussia": "#2b2b3a",
    "russian": "#2e7d32",
    "russia": "#2e7d32",
    "austrian": "#a8a8a0",
    "austria": "#a8a8a0",
    "bavarian": "#5aa0dc",
    "bavaria": "#5aa0dc",
    "saxon": "#e0c030",
    "saxony": "#e0c030",
    "westphalian": "#7a5aa0",
    "wurttemberg": "#c07a30",
    "wurttemberger": "#c07a30",
    "polish": "#8a1a4a",
    "poland": "#8a1a4a",
    "dutch-belgian": "#e07a20",
    "netherlands": "#e07a20",
    "dutch": "#e07a20",
    "brunswick": "#1a1a1a",
    "hanoverian": "#d05050",
    "swedish": "#3a70c8",
    "spanish": "#d0a020",
    "portuguese": "#6a4a2a",
    "italian": "#3a9a5a",
    "neapolitan": "#9ab0d0",
}
"""Nation (lower case, unaccented) → ``#rrggbb``."""

FALLBACK: tuple[str, ...] = (
    "#2a4fb0", "#c0282d", "#2e7d32", "#e0c030", "#7a5aa0", "#e07a20", "#5aa0dc", "#8a1a4a",
    "#3a9a5a", "#6a4a2a", "#d05050", "#a8a8a0",
)  # fmt: skip
"""Colours handed out, in order, to nations without one of their own or whose colour is taken."""


def _key(nation: str) -> str:
    t = unicodedata.normalize("NFKD", nation).encode("ascii", "ignore").decode("ascii")
    return t.strip().lower().replace(" ", "-")


def side_colour(nation: str, taken: Iterable[str] = ()) -> str:
    """The default colour of a side of ``nation``, different from every colour in ``taken``."""
    used = {c.lower() for c in taken}
    own = NATION_COLOURS.get(_key(nation))
    if own is None:  # "French Imperial Guard", "Russian army": the first known word
        own = next((NATION_COLOURS[w] for w in _key(nation).split("-") if w in NATION_COLOURS), None)
    if own is not None and own not in used:
        return own
    for c in FALLBACK:
        if c not in used:
            return c
    n = len(used)  # more sides than colours: an evenly spread hue
    import colorsys

    r, g, b = colorsys.hsv_to_rgb((n * 0.618034) % 1.0, 0.65, 0.75)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"
