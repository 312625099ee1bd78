"""Spawn → first frame: resuming a big encounter vs a bare Textual app.

The big encounter (50 combatants, 10,000 log entries) is saved in a
temporary database; each run spawns a fresh Python process that opens it
through the code ``combat-tracker --db DB open NAME`` runs
(``tracker.commands.tui.build_app``: store, name lookup, snapshot and
journal, config file, key ids — before the app starts, nothing is loaded in
the background; the config file named by ``COMBAT_TRACKER_CONFIG`` is a
missing one, so the GM's own settings do not change the figures) and runs
the app headless
(``run_test``) until its first frame: the encounter screen composed with
every pane filled (initiative rows, the selected combatant, the log's
visible tail at the bottom, the footer) and painted, then prints ``ready``.
The baseline is a bare Textual app with one ``Static``, measured the same
way: spawn → ``run_test`` → ``pilot.pause()`` → ``ready`` on stdout.  The
two are spawned alternately (bare, tracker, bare, …) so load on the machine
hits both alike; medians side by side, and the ratio (target: within
1.25×).  Not collected by pytest.

Bytecode: Textual comes from site-packages, byte-compiled when it was
installed; an installed combat-tracker is too (pip compiles wheels), and a
developer checkout is after its first run.  But with an editable install
and ``PYTHONDONTWRITEBYTECODE=1`` every spawn would compile ``rules``,
``saves`` and ``tracker`` from source (~90 ms here) while the baseline
pays nothing of the kind.  So the bench byte-compiles the project first
(into the git-ignored ``__pycache__``), like for like; ``--no-compile``
skips that (only a checkout never byte-compiled then compiles per spawn).

``--phases`` also prints where the tracker's time goes, as the median of
each phase (clock stamps in the child; interpreter start is spawn → the
child's first line).

    /work/venv/bin/python bench/bench_startup.py [--runs N] [--phases] [--no-compile]
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

NAME = "Big fight"
ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "saves", "tracker")


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
    """Run one app until its first frame, print ``ready`` (then the phase
    stamps, wall-clock seconds, as one JSON line)."""
    stamps: list[tuple[str, float]] = [("interpreter start", time.time())]
    app: Any
    if mode == "tracker":
        # the path ``combat-tracker --db DB open NAME`` takes (tracker.commands.tui.run)
        from tracker.commands.tui import build_app

        args = argparse.Namespace(db=db, name=NAME, seed=None)
        app = build_app(args, phase=lambda name: stamps.append((name, time.time())))
    else:
        from textual.app import App, ComposeResult
        from textual.widgets import Static

        stamps.append(("import textual + rich", time.time()))

        class Bare(App[None]):
            def compose(self) -> ComposeResult:
                yield Static("Hello")

        app = Bare()

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            stamps.append(("start, CSS, compose, mount (run_test ready)", time.time()))
            await pilot.pause()
            stamps.append(("first paint (pilot.pause)", time.time()))
            print("ready", flush=True)
            print(json.dumps(stamps), flush=True)

    try:
        asyncio.run(run())
    finally:
        if mode == "tracker":
            app.store.close()


def spawn(mode: str, db: Path, phases: list[dict[str, float]] | None = None) -> float:
    start = time.perf_counter()
    wall = time.time()
    env = {**os.environ, "COMBAT_TRACKER_CONFIG": str(db.with_name("no-config.toml"))}
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", mode, str(db)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    stamps = proc.stdout.readline()
    proc.wait()
    if line.strip() != "ready":
        raise SystemExit(f"{mode} child did not start (exit {proc.returncode})")
    if phases is not None:
        previous, phase = wall, {}
        for label, when in json.loads(stamps):
            phase[label] = when - previous
            previous = when
        phases.append(phase)
    return elapsed


def byte_compile() -> None:
    """Compile the project's modules as an installed package has them."""
    for package in PACKAGES:
        compileall.compile_dir(ROOT / package, quiet=1)


def print_phases(mode: str, phases: list[dict[str, float]]) -> None:
    print(f"\n{mode}: median of each phase")
    for label in phases[0]:
        values = [p[label] for p in phases if label in p]
        print(f"  {statistics.median(values) * 1e3:7.1f} ms  {label}")
    print(f"  {statistics.median(sum(p.values()) for p in phases) * 1e3:7.1f} ms  (sum)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--phases", action="store_true", help="print each phase's median")
    parser.add_argument(
        "--no-compile", action="store_true", help="do not byte-compile the project first"
    )
    parser.add_argument("--child", nargs=2, metavar=("MODE", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    if not args.no_compile:
        byte_compile()
    bare_phases: list[dict[str, float]] = []
    tracker_phases: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "encounters.json"
        make_db(db)
        spawn("bare", db)  # warm the file cache
        bare, tracker = [], []
        for _ in range(args.runs):
            bare.append(spawn("bare", db, bare_phases))
            tracker.append(spawn("tracker", db, tracker_phases))
    b, t = statistics.median(bare), statistics.median(tracker)
    print(
        f"spawn → first frame, median of {args.runs} interleaved spawns (120×40, headless run_test)"
    )
    print("first frame: the encounter screen with every pane filled, painted once")
    print(
        "project modules: "
        + ("as found (not byte-compiled by the bench)" if args.no_compile else "byte-compiled")
    )
    print(f"bare Textual app, one Static:             {b * 1e3:7.0f} ms")
    print(f"combat-tracker, 50 combatants, 10k log:   {t * 1e3:7.0f} ms")
    print(f"ratio: {t / b:.2f}×  (target ≤ 1.25×)")
    if args.phases:
        print_phases("bare", bare_phases)
        print_phases("combat-tracker", tracker_phases)


if __name__ == "__main__":
    main()
