#!/usr/bin/env python3
"""Writes frontend/src/assets/fonts/osfoundry-symbols.woff2: the few symbols
agent CLIs print that common monospace fonts lack (Claude Code's "⏵⏵ accept
edits on", "⏸ plan mode on", "⏺" and "⎿"), drawn as plain shapes one
monospace cell wide (0.602 em, DejaVu Sans Mono's and Menlo's advance), so
the terminal and the app show them instead of empty boxes on every system.

  python3 build/fontgen/symbols.py   (needs fontTools and brotli:
  apt-get install python3-fonttools python3-brotli)
"""
import math
import os

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

EM = 1000
ADV = 602  # one monospace cell
MID = 340  # the symbols' vertical centre, near the math axis of DejaVu Sans Mono
FAMILY = "osFoundry Symbols"


def poly(pen, pts):
    pen.moveTo(pts[0])
    for p in pts[1:]:
        pen.lineTo(p)
    pen.closePath()


def rect(pen, x0, y0, x1, y1, clockwise=True):
    pts = [(x0, y0), (x0, y1), (x1, y1), (x1, y0)]
    poly(pen, pts if clockwise else list(reversed(pts)))


def triangle(direction):
    def draw(pen):
        h, w = 250, 200  # half height, half width around the centre
        cx, cy = ADV // 2, MID
        pts = {
            "right": [(cx - w, cy - h), (cx - w, cy + h), (cx + w, cy)],
            "left": [(cx + w, cy - h), (cx - w, cy), (cx + w, cy + h)],
            "up": [(cx - h, cy - w), (cx, cy + w), (cx + h, cy - w)],
            "down": [(cx - h, cy + w), (cx + h, cy + w), (cx, cy - w)],
        }[direction]
        poly(pen, pts)
    return draw


def pause(pen):
    rect(pen, 130, MID - 260, 250, MID + 260)
    rect(pen, 352, MID - 260, 472, MID + 260)


def stop(pen):
    rect(pen, 96, MID - 205, 506, MID + 205)


def record(pen):
    # A circle from 16 on-curve points: close enough at text sizes.
    r, n = 215, 24
    pts = [(round(ADV / 2 + r * math.cos(2 * math.pi * i / n)), round(MID - r * math.sin(2 * math.pi * i / n))) for i in range(n)]
    poly(pen, pts)


def corner(pen):
    # ⎿: a stroke down the cell's left side turning right along the middle,
    # joining the line above like box drawing does.
    poly(pen, [(150, MID - 35), (150, 1000), (220, 1000), (220, MID + 35), (ADV, MID + 35), (ADV, MID - 35)])


def two_squares(pen):
    # ⧉: two overlapping square outlines.
    for x0, y0 in ((70, MID - 230), (212, MID - 88)):
        x1, y1 = x0 + 320, y0 + 320
        rect(pen, x0, y0, x1, y1)
        rect(pen, x0 + 55, y0 + 55, x1 - 55, y1 - 55, clockwise=False)


GLYPHS = {
    0x23F4: ("uni23F4", triangle("left")),
    0x23F5: ("uni23F5", triangle("right")),
    0x23F6: ("uni23F6", triangle("up")),
    0x23F7: ("uni23F7", triangle("down")),
    0x23F8: ("uni23F8", pause),
    0x23F9: ("uni23F9", stop),
    0x23FA: ("uni23FA", record),
    0x23BF: ("uni23BF", corner),
    0x29C9: ("uni29C9", two_squares),
}


def build(out):
    order = [".notdef", "space"] + [name for name, _ in GLYPHS.values()]
    fb = FontBuilder(EM, isTTF=True)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({0x20: "space", **{cp: name for cp, (name, _) in GLYPHS.items()}})
    glyphs = {}
    for name in (".notdef", "space"):
        glyphs[name] = TTGlyphPen(None).glyph()
    for name, draw in GLYPHS.values():
        pen = TTGlyphPen(None)
        draw(pen)
        glyphs[name] = pen.glyph()
    fb.setupGlyf(glyphs)
    glyf = fb.font["glyf"]
    metrics = {}
    for name in order:
        g = glyf[name]
        g.recalcBounds(glyf)
        metrics[name] = (ADV, getattr(g, "xMin", 0))
    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=760, descent=-240)
    fb.setupNameTable({"familyName": FAMILY, "styleName": "Regular", "copyright": "osFoundry", "licenseDescription": "Same license as osFoundry"})
    fb.setupOS2(sTypoAscender=760, sTypoDescender=-240, usWinAscent=1000, usWinDescent=240, xAvgCharWidth=ADV)
    fb.setupPost(isFixedPitch=1)
    fb.font.flavor = "woff2"
    fb.save(out)


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "..", "..", "frontend", "src", "assets", "fonts", "osfoundry-symbols.woff2")
    build(os.path.normpath(out))
    print(os.path.normpath(out), os.path.getsize(out), "bytes")
