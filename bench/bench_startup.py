"""Spawn → first frame: resuming a big encounter vs a bare Textual app.

The big encounter (50 combatants, 10,000 log entries) is saved in a
temporary database; each run spawns a fresh Python process that opens it the
way ``combat-tracker open NAME`` does (store, snapshot, journal — before the
app starts, nothing is loaded in the background) and runs the app headless
(``run_test``) until its first frame: the encounter screen composed with
every pane filled (initiative rows, the selected combatant, the log's
visible tail at the bottom, the footer) and painted, then prints ``ready``.
The baseline is a bare Textual app with one ``Static``, measured the same
way: spawn → ``run_test`` → ``pilot.pause()`` → ``ready`` on stdout.  The
two are spawned alternately (bare, tracker, bare, …) so load on the machine
hits both alike; medians side by side, and the ratio (target: within
1.25×).  Not collected by pytest.

    /work/venv/bin/python bench/bench_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NAME = "Big fight"


def make_db(path: Path) -> None:
    """Save a started 50-combatant fight with 10,000 log entries at *path*."""
    import random

    from rules.encounter import Encounter
    from rules.engine import Session
    from saves.live import LiveEncounter, open_store

    session = Session(Encounter(NAME), rng=random.Random(1))
    session.apply("add Goblin count 49 hp 2d6+2 al 13")
    session.apply("add Zalek hp 30 al 15 con 17 athletics 4 dex 14 player")
    session.apply("start")
    while len(session.log) < 10_000:
        session.apply("roll 1d20")
    store = open_store(path)
    try:
        live = LiveEncounter.create(store, NAME)
        live.session = session
        live.compact()  # one snapshot, as after a normal close
    finally:
        store.close()


def child(mode: str, db: str) -> None:
    """Run one app until its first frame, print ``ready``."""
    if mode == "tracker":
        from saves.live import LiveEncounter, open_store
        from tracker.app import CombatTrackerApp
        from tracker.config import Config

        store = open_store(db)
        app = CombatTrackerApp(store, LiveEncounter.open(store, NAME), Config())
    else:
        from textual.app import App, ComposeResult
        from textual.widgets import Static

        class Bare(App[None]):
            def compose(self) -> ComposeResult:
                yield Static("Hello")

        app = Bare()

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            print("ready", flush=True)

    asyncio.run(run())


def spawn(mode: str, db: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", mode, str(db)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    proc.wait()
    if line.strip() != "ready":
        raise SystemExit(f"{mode} child did not start (exit {proc.returncode})")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--child", nargs=2, metavar=("MODE", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "encounters.json"
        make_db(db)
        spawn("bare", db)  # warm the file cache
        bare, tracker = [], []
        for _ in range(args.runs):
            bare.append(spawn("bare", db))
            tracker.append(spawn("tracker", db))
    b, t = statistics.median(bare), statistics.median(tracker)
    print(
        f"spawn → first frame, median of {args.runs} interleaved spawns (120×40, headless run_test)"
    )
    print("first frame: the encounter screen with every pane filled, painted once")
    print(f"bare Textual app, one Static:             {b * 1e3:7.0f} ms")
    print(f"combat-tracker, 50 combatants, 10k log:   {t * 1e3:7.0f} ms")
    print(f"ratio: {t / b:.2f}×  (target ≤ 1.25×)")


if __name__ == "__main__":
    main()
