"""Keypress → updated screen, small fight vs big fight (issue 4, Quality bar).

Small: 5 combatants, 10 log entries.  Big: 50 combatants, 10,000 log
entries.  For each key, the median wall time and CPU time
(``time.process_time``) of ``pilot.press`` (which waits for the screen to be
idle, so wall time includes Textual's ~40 ms idle wait), both sizes side by
side, and the big/small ratio.  Not collected by pytest.

    /work/venv/bin/python bench/bench_tui.py [--presses N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

# this checkout's code, whatever the virtualenv's editable install points at
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from textual.pilot import Pilot  # noqa: E402

from rules.encounter import Encounter  # noqa: E402
from rules.engine import Session  # noqa: E402
from saves.live import LiveEncounter  # noqa: E402
from tracker.app import CombatTrackerApp  # noqa: E402
from tracker.config import Config  # noqa: E402


def build(combatants: int, entries: int, seed: int = 1) -> LiveEncounter:
    """A started fight with *combatants* and at least *entries* log entries."""
    session = Session(Encounter("Bench"), rng=random.Random(seed))
    session.apply(f"add Goblin count {combatants - 1} hp 2d6+2 al 13")
    session.apply("add Zalek hp 30 al 15 con 17 athletics 4 dex 14 player")
    session.apply("start")
    while len(session.log) < entries:
        session.apply("roll 1d20")
    return LiveEncounter.in_memory(session)


#: (label, set-up keys pressed once, the key measured, keys that undo it)
CASES: list[tuple[str, tuple[str, ...], str, tuple[str, ...]]] = [
    ("j (selection)", (), "j", ("k",)),  # back up: every j moves, in both sizes
    ("n (next turn)", (), "n", ()),
    ("ctrl+z (undo a next)", ("n",), "ctrl+z", ("ctrl+y",)),
    ("space (mark)", (), "space", ()),
]


async def measure(live: LiveEncounter, presses: int) -> dict[str, tuple[float, float]]:
    app = CombatTrackerApp(live=live, config=Config())
    results: dict[str, tuple[float, float]] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for label, setup, key, after in CASES:
            walls, cpus = [], []
            for _ in range(presses):
                if setup:
                    await pilot.press(*setup)
                w0, c0 = time.perf_counter(), time.process_time()
                await pilot.press(key)
                walls.append(time.perf_counter() - w0)
                cpus.append(time.process_time() - c0)
                if after:
                    await pilot.press(*after)
            results[label] = (statistics.median(walls), statistics.median(cpus))
        await typed_damage(pilot, results, presses)
    return results


async def typed_damage(pilot: Pilot, results: dict[str, tuple[float, float]], presses: int) -> None:
    """Enter in the damage prompt: the action applied and the panes updated."""
    walls, cpus = [], []
    for _ in range(presses):
        await pilot.press("d", "1")
        w0, c0 = time.perf_counter(), time.process_time()
        await pilot.press("enter")
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    results["d 1 enter (damage)"] = (statistics.median(walls), statistics.median(cpus))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=15)
    args = parser.parse_args()
    t0 = time.perf_counter()
    small = build(5, 10)
    big = build(50, 10_000)
    print(f"set-up: {time.perf_counter() - t0:.1f} s (log {len(big.session.log)} entries)")
    a = asyncio.run(measure(small, args.presses))
    b = asyncio.run(measure(big, args.presses))
    print(f"median per key over {args.presses} presses (ms); wall includes pilot's idle wait")
    print(
        f"{'key':24} {'5/10 wall':>9} {'50/10k wall':>11} {'ratio':>6}   "
        f"{'5/10 CPU':>8} {'50/10k CPU':>10} {'ratio':>6}"
    )
    for label in a:
        (wa, ca), (wb, cb) = a[label], b[label]
        print(
            f"{label:24} {wa * 1e3:9.1f} {wb * 1e3:11.1f} {wb / wa:6.2f}   "
            f"{ca * 1e3:8.1f} {cb * 1e3:10.1f} {cb / ca:6.2f}"
        )


if __name__ == "__main__":
    main()
