"""Makes the fonts of this folder and their @font-face rules (../fonts.css) from Fontsource's
files: see README.md. Run: python3 subset.py PACKAGES_DIR > ../fonts.css

Each Fontsource "latin" file is cut in two: "core" (ASCII and the punctuation the pages write),
which every page loads, and "latin" (the rest of it: accented letters), which a browser loads
only when a text holds one of them. The "latin-ext" files are copied as they are. Each rule's
unicode-range is the characters the file maps and no file before it does, so it claims nothing
the file lacks, and a space does not make a browser load every file.
"""

import shutil
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

CORE = (
    [range(0x20, 0x7F)]
    + [[0xA0, 0xA9, 0xAB, 0xB0, 0xB7, 0xBB, 0xD7]]
    + [range(0x2013, 0x2015), range(0x2018, 0x201B), range(0x201C, 0x201F)]
    + [[0x2022, 0x2026, 0x2039, 0x203A, 0x20AC, 0x2122, 0x2212], range(0x2190, 0x2194)]
)
CORE = {c for group in CORE for c in group}

FACES = [
    # (package folder, family, file stem, weight, style)
    ("atkinson-hyperlegible", "Atkinson Hyperlegible", "atkinson-hyperlegible", 400, "normal"),
    ("atkinson-hyperlegible", "Atkinson Hyperlegible", "atkinson-hyperlegible", 700, "normal"),
    ("source-serif-4", "Source Serif 4", "source-serif-4", 400, "normal"),
    ("source-serif-4", "Source Serif 4", "source-serif-4", 400, "italic"),
    ("source-serif-4", "Source Serif 4", "source-serif-4", 600, "normal"),
]


def ranges(codes):
    """U+0020-007E,U+00A0,… for a set of code points."""
    out, codes = [], sorted(codes)
    start = prev = codes[0]
    for c in codes[1:] + [None]:
        if c is not None and c == prev + 1:
            prev = c
            continue
        out.append(f"U+{start:04X}" if start == prev else f"U+{start:04X}-{prev:04X}")
        if c is not None:
            start = prev = c
    return ",".join(out)


def cut(source, codes, target):
    """The glyphs of `source` for `codes`, with every layout feature and the hinting kept."""
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    # Every name record, the copyright and licence among them (the OFL asks that they stay).
    options.name_IDs = ["*"]
    options.notdef_outline = True
    font = subset.load_font(str(source), options)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=codes)
    sub.subset(font)
    subset.save_font(font, str(target), options)
    return set(TTFont(target).getBestCmap())


def rule(family, style, weight, file, codes):
    return (
        f"@font-face {{\n  font-family: '{family}';\n  font-style: {style};\n"
        f"  font-weight: {weight};\n  font-display: swap;\n"
        f"  src: url('fonts/{file}') format('woff2');\n  unicode-range: {ranges(codes)};\n}}\n"
    )


def main(packages):
    here = Path(__file__).parent
    rules = []
    for package, family, stem, weight, style in FACES:
        files = Path(packages) / package / "package" / "files"
        latin = files / f"{stem}-latin-{weight}-{style}.woff2"
        # Control characters (a CR some files map) are never drawn.
        every = {c for c in TTFont(latin).getBestCmap() if c >= 0x20}
        core = f"{stem}-core-{weight}-{style}.woff2"
        rest = f"{stem}-latin-{weight}-{style}.woff2"
        ext = f"{stem}-latin-ext-{weight}-{style}.woff2"
        rules.append(rule(family, style, weight, core, cut(latin, every & CORE, here / core)))
        rules.append(rule(family, style, weight, rest, cut(latin, every - CORE, here / rest)))
        shutil.copyfile(files / ext, here / ext)
        # The file maps a space and a few letters of "latin" too; it is named only for its own.
        own = set(TTFont(here / ext).getBestCmap()) - every - CORE
        rules.append(rule(family, style, weight, ext, {c for c in own if c >= 0x20}))
    print(
        "/* The table's fonts, served by the binary: made by fonts/subset.py from Fontsource's files\n"
        "   (fonts/README.md; SIL OFL 1.1). Each face in three files: \"core\" (ASCII and the pages'\n"
        "   punctuation), the rest of Latin-1 and Latin Extended; a browser loads a file only for\n"
        "   the characters it shows. Other scripts fall back to the system's fonts. */\n"
    )
    print("\n".join(rules), end="")


if __name__ == "__main__":
    main(sys.argv[1])
