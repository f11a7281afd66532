"""Render the application icon from its SVG source into every size the platforms ask for.

``resources/icons/battlestudio.svg`` is the only drawn source. This script writes, next to it,
``battlestudio-<N>.png`` for N in ``PNG_SIZES`` (the freedesktop hicolor sizes, also used for
the window icon), and under ``packaging/`` the Windows ``battlestudio.ico`` and the macOS
``battlestudio.icns`` (both hold PNG-compressed images, which Windows Vista+ and macOS 10.7+
read). Rendering uses Qt's ``QSvgRenderer`` (PySide6-Essentials' QtSvg), so it needs nothing
beyond the project's own dependencies::

    QT_QPA_PLATFORM=offscreen python packaging/render_icons.py

The outputs are committed; run this again only after changing the SVG.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "resources" / "icons" / "battlestudio.svg"
ICON_DIR = ROOT / "resources" / "icons"
ICO = ROOT / "packaging" / "windows" / "battlestudio.ico"
ICNS = ROOT / "packaging" / "macos" / "battlestudio.icns"

PNG_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
"""Pixel sizes of the committed PNGs (square)."""

ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
"""Sizes inside the Windows .ico (256 is the largest an .ico entry can declare)."""

ICNS_TYPES = (("icp4", 16), ("icp5", 32), ("icp6", 64), ("ic07", 128), ("ic08", 256), ("ic09", 512), ("ic10", 1024))
"""(OSType, pixel size) of each PNG entry of the macOS .icns (ic10 is 512 pt @2x)."""


def png_path(size: int) -> Path:
    """Where the ``size`` × ``size`` PNG lives (``resources/icons/battlestudio-<size>.png``)."""
    return ICON_DIR / f"battlestudio-{size}.png"


def render_png(size: int) -> bytes:
    """The SVG drawn antialiased on a transparent ``size`` × ``size`` canvas, as PNG bytes.

    Raises
    ------
    RuntimeError
        when the SVG cannot be parsed by QSvgRenderer.
    """
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 - keeps Qt alive
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise RuntimeError(f"{SVG}: QSvgRenderer cannot read this SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.convertToFormat(QImage.Format.Format_ARGB32).save(buf, "PNG")
    buf.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """A Windows icon file holding each ``{size: png}`` as a PNG-compressed 32-bit entry.

    ICONDIR (reserved 0, type 1, count), then one 16-byte ICONDIRENTRY per image (a width or
    height of 0 means 256), then the PNG data in the same order.
    """
    sizes = sorted(pngs)
    out = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    for s in sizes:
        dim = 0 if s >= 256 else s
        out += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(pngs[s]), offset)
        offset += len(pngs[s])
    return out + b"".join(pngs[s] for s in sizes)


def icns_bytes(entries: list[tuple[str, bytes]]) -> bytes:
    """A macOS icon family: ``b"icns"`` + big-endian total length, then per entry its OSType,
    its length (8-byte header included) and its PNG data."""
    body = b"".join(t.encode("ascii") + struct.pack(">I", 8 + len(d)) + d for t, d in entries)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    """Write every PNG, the .ico and the .icns; print what was written."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    cache: dict[int, bytes] = {}

    def png(size: int) -> bytes:
        if size not in cache:
            cache[size] = render_png(size)
        return cache[size]

    for s in PNG_SIZES:
        png_path(s).write_bytes(png(s))
        print(f"wrote {png_path(s).relative_to(ROOT)}")
    ICO.parent.mkdir(parents=True, exist_ok=True)
    ICO.write_bytes(ico_bytes({s: png(s) for s in ICO_SIZES}))
    print(f"wrote {ICO.relative_to(ROOT)}")
    ICNS.parent.mkdir(parents=True, exist_ok=True)
    ICNS.write_bytes(icns_bytes([(t, png(s)) for t, s in ICNS_TYPES]))
    print(f"wrote {ICNS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
