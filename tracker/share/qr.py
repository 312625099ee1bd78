"""The link as a QR code in the terminal (segno): two modules per cell with
half blocks, so a 33-module code with its quiet zone fits a 60x20 dialog.
Black on white whatever the theme: a phone's camera reads that best."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: modules of white around the code (the standard asks 4; phones read 2)
BORDER = 2
#: (top dark, bottom dark) -> the character drawn in black on white
BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
STYLE = "#000000 on #ffffff"


def matrix(text: str, border: int = BORDER) -> list[list[bool]]:
    """The code's modules for *text*, row by row, True for dark."""
    import segno

    code = segno.make(text, error="l", micro=False)
    return [[bool(m) for m in row] for row in code.matrix_iter(scale=1, border=border)]


def half_blocks(rows: Sequence[Sequence[bool]]) -> list[str]:
    """Two rows of modules per line (an odd last row pairs with a light one)."""
    lines = []
    for top in range(0, len(rows), 2):
        upper = rows[top]
        lower = rows[top + 1] if top + 1 < len(rows) else [False] * len(upper)
        lines.append("".join(BLOCKS[(a, b)] for a, b in zip(upper, lower, strict=True)))
    return lines


def read_back(lines: Iterable[str]) -> list[list[bool]]:
    """The modules :func:`half_blocks` drew (tests check the drawing with it)."""
    pairs = {char: pair for pair, char in BLOCKS.items()}
    rows: list[list[bool]] = []
    for line in lines:
        cells = [pairs[char] for char in line]
        rows.append([a for a, _ in cells])
        rows.append([b for _, b in cells])
    return rows


def qr_lines(text: str) -> list[str]:
    """*text* as a QR code, one string per line of the terminal."""
    return half_blocks(matrix(text))
