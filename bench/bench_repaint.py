"""Bytes written to the terminal per ``n`` (next turn) vs a full repaint.

Issue 10, "Done means": ``n`` in the 50-combatant fight writes only what
changed, at most a third of the bytes of a full repaint.  Measured in a
real terminal: the app runs in a tmux pane on a private server (its own
socket, its own config file: none), and tmux's ``pipe-pane -o`` appends
every byte the app writes to a file.  After each key the bench waits until
the file has not grown for a while (the frame is complete), so the size
delta is what that key cost.

The fight: 49 goblins and Zalek, started, with a few hundred log entries
(``--entries``), made through the command line (``new``, ``do``) in a
temporary database and opened with ``open`` as a GM would.  Measured:
``--presses`` presses of ``n`` (median bytes), and as many full repaints:
the pane resized one row taller and back; at the measured size Textual
then writes the whole screen, twice (the resize, then the layout), and a
few scrollbar cells.  A full repaint is one of those frames: the bytes
from moving to row 1, column 1 through the last row written whole, each
row in turn from column 1 (:func:`full_frames`).  Printed: the
configuration, the median bytes of each and their ratio (target: at most
0.33).  Not collected by pytest; skipped, with a message, without tmux.

    python bench/bench_repaint.py [--presses N] [--entries N] [--size 120x40]
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The file must stop growing for this long before a frame counts as done.
QUIET = 0.6


def tracker(db: Path, *args: str, stdin: str | None = None) -> None:
    """Run ``combat-tracker --db DB ARGS`` (this checkout, this Python)."""
    subprocess.run(
        [sys.executable, "-m", "tracker", "--db", str(db), "--seed", "5", *args],
        input=stdin,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )


def build(db: Path, entries: int) -> None:
    """The big fight: 50 combatants, started, *entries* log entries."""
    tracker(db, "new", "Big")
    lines = [
        "add Goblin count 49 hp 2d6+2 al 13",
        "add Zalek hp 30 al 15 con 17 athletics 4 dex 14 player",
        "start",
    ]
    lines += ["roll 1d20"] * max(0, entries - len(lines))
    tracker(db, "do", "Big", stdin="\n".join(lines) + "\n")


class Pane:
    """One tmux server (private socket) running one command in one pane."""

    def __init__(self, socket: str, width: int, height: int, command: str) -> None:
        self.socket = socket
        self.tmux(
            "-f", "/dev/null", "new-session", "-d", "-x", str(width), "-y", str(height), command
        )
        self.tmux("set-option", "-g", "status", "off")

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True
        )
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p")

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def settle(raw: Path, timeout: float = 20.0) -> int:
    """Wait until *raw* stops growing (QUIET seconds); its size then."""
    size, since, start = -1, time.monotonic(), time.monotonic()
    while time.monotonic() - start < timeout:
        now = raw.stat().st_size if raw.exists() else 0
        if now != size:
            size, since = now, time.monotonic()
        elif time.monotonic() - since >= QUIET:
            return size
        time.sleep(0.05)
    return size


def wait_for(pane: Pane, text: str, timeout: float = 30.0) -> None:
    start = time.monotonic()
    while text not in pane.screen():
        if time.monotonic() - start > timeout:
            sys.exit(f"the app did not show {text!r} within {timeout:.0f} s:\n{pane.screen()}")
        time.sleep(0.1)


def cost(raw: Path, act: Callable[[], None]) -> tuple[int, bytes]:
    """Bytes the app wrote for *act* (once the frame is complete): how
    many, and which."""
    before = settle(raw)
    act()
    after = settle(raw)
    with raw.open("rb") as f:
        f.seek(before)
        return after - before, f.read(after - before)


MOVE = re.compile(rb"\x1b\[(\d+);(\d+)H")


def full_frames(data: bytes, height: int) -> list[int]:
    """The sizes of the frames in *data* that write every row: a cursor
    move to row 1, column 1, then to each next row's column 1 (moves to
    other columns of the same row between them), up to row *height*; the
    frame ends at the next move after that row (Textual's final cursor
    placement)."""
    moves = [(m.start(), int(m[1]), int(m[2])) for m in MOVE.finditer(data)]
    sizes = []
    for i, (start, row, col) in enumerate(moves):
        if (row, col) != (1, 1):
            continue
        expected = 2
        for at, r, c in moves[i + 1 :]:
            if expected > height:
                sizes.append(at - start)
                break
            if c == 1 and r == expected:
                expected += 1
            elif r != expected - 1 or c == 1:
                break
        else:
            if expected > height:
                sizes.append(len(data) - start)
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=7)
    parser.add_argument("--entries", type=int, default=300)
    parser.add_argument("--size", default="120x40", help="terminal WIDTHxHEIGHT")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("skipped: tmux is not installed (this bench measures bytes in a tmux pane)")
        return
    width, height = (int(n) for n in args.size.lower().split("x"))
    with tempfile.TemporaryDirectory(prefix="bench-repaint-") as tmp:
        db, raw = Path(tmp) / "db.json", Path(tmp) / "raw.bin"
        build(db, args.entries)
        env = f"COMBAT_TRACKER_CONFIG={shlex.quote(str(Path(tmp) / 'none.toml'))}"
        command = (
            f"cd {shlex.quote(str(ROOT))} && {env} exec {shlex.quote(sys.executable)}"
            f" -m tracker --db {shlex.quote(str(db))} open Big"
        )
        pane = Pane(f"bench-repaint-{os.getpid()}", width, height, command)
        try:
            wait_for(pane, "Round 1")
            time.sleep(2.5)  # past the screen's first idle compaction check (every 2 s)
            pane.tmux("pipe-pane", "-o", f"cat >> {shlex.quote(str(raw))}")
            settle(raw)
            nexts = [cost(raw, lambda: pane.tmux("send-keys", "n"))[0] for _ in range(args.presses)]
            shown = pane.screen().splitlines()[0]
            fulls, resizes = [], []
            for _ in range(args.presses):
                pane.tmux("resize-window", "-x", str(width), "-y", str(height + 1))
                settle(raw)
                size, data = cost(
                    raw, lambda: pane.tmux("resize-window", "-x", str(width), "-y", str(height))
                )
                resizes.append(size)
                fulls.extend(full_frames(data, height))
            term = pane.tmux("show-options", "-gv", "default-terminal").strip()
            pane.tmux("send-keys", "q")
        finally:
            pane.kill()
    if not fulls:
        sys.exit(f"no full-screen frame found in the resizes ({resizes} bytes)")
    n, full = statistics.median(nexts), statistics.median(fulls)
    print(
        f"terminal {width}x{height} (tmux, TERM={term}); fight: 50 combatants, started, "
        f"{args.entries} log entries"
    )
    print(f"after the presses the order's title reads: {shown.split('╮')[0].strip('╭─ ')}")
    print(f"n (next turn):  median {n:8.0f} bytes over {len(nexts)} presses  {nexts}")
    print(
        f"full repaint:   median {full:8.0f} bytes, {len(fulls)} whole-screen frames "
        f"(resizing back wrote {statistics.median(resizes):.0f} bytes in all)"
    )
    print(f"ratio n / full: {n / full:.2f}  (target: at most 0.33)")


if __name__ == "__main__":
    main()
