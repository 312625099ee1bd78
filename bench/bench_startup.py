"""Spawn → first frame: resuming a big encounter vs a bare Textual app.

The big encounter (50 combatants, 10,000 log entries) is created in a
temporary database through the public API (``LiveEncounter.create`` with
its action lines); each start spawns a fresh Python process that opens it
through the code ``combat-tracker --db DB open NAME`` runs (the command
line's parser, then ``tracker.commands.tui.build_app``: store, name lookup,
the snapshot and the steps after it, config file, key ids — before the app
starts, nothing is loaded in the background; the config file named by
``COMBAT_TRACKER_CONFIG`` is a missing one, so the GM's own settings do not
change the figures) and runs the app headless (``run_test``) until its
first frame: the encounter screen composed with
every pane filled (initiative rows, the selected combatant, the log's
visible tail at the bottom, the footer) and painted, then prints ``ready``.
The baseline is a bare Textual app with one ``Static``, measured the same
way: spawn → ``run_test`` → ``pilot.pause()`` → ``ready`` on stdout.  The
two are spawned in pairs, side by side (alternating which goes first), so a
slow spell on this shared machine hits both starts of a pair.  One run is
``--runs`` pairs; the bench makes ``--repeats`` runs (five by default).
Printed per run: the median wall time of each, their ratio and the median
of the per-pair ratios, which drifts least between runs; and the same for
the CPU time each process had used by its first frame (``process_time``),
which excludes waiting but not a noisy neighbour's effect on caches.  The
target: the median over the runs of the per-pair wall ratio within 1.25×
(exit status 1 if not).  Not collected by pytest.

Bytecode: Textual comes from site-packages, byte-compiled when it was
installed; an installed combat-tracker is too (pip compiles wheels), and a
developer checkout is after its first run.  But with an editable install
and ``PYTHONDONTWRITEBYTECODE=1`` every spawn would compile ``rules``,
``saves`` and ``tracker`` from source while the baseline pays nothing of
the kind.  So the bench byte-compiles the project first
(into the git-ignored ``__pycache__``), like for like; ``--no-compile``
skips that (only a checkout never byte-compiled then compiles per spawn).

``--phases`` also prints where the tracker's time goes, as the median of
each phase (clock stamps in the child; interpreter start is spawn → the
child's first line).

``--terminal`` measures what the GM sees instead: each child runs the app
for real (``App.run``) in a pseudo-terminal of 120×40 whose output feeds a
terminal emulator (pyte, the ``bench`` extra), and the first frame is the
moment of the last write that changed a cell of the emulated screen, once
the output has been quiet for ``QUIET`` seconds (not counted).  Headless,
``Pilot.pause`` waits for idle in 20 ms windows, which rounds a start up to
the next window, and a repaint that changes nothing counts as much as one
that does; a terminal shows the cells when they arrive.  Wall time only
(the child is killed once its screen is still).

    python bench/bench_startup.py [--runs N] [--repeats N] [--phases] [--no-compile] [--terminal]
"""

from __future__ import annotations

# The child (one measured start) imports only what Textual or the tracker
# import anyway; what only the parent needs (compileall, statistics,
# subprocess, tempfile: ~10 ms) is imported in the parent's functions, so
# neither start is padded with the bench's own imports.
import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

NAME = "Big fight"
ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "saves", "tracker")
if str(ROOT) not in sys.path:  # this checkout's code, whatever is installed
    sys.path.insert(0, str(ROOT))


def make_db(path: Path) -> None:
    """Save a started 50-combatant fight with 10,000 log entries at *path*."""
    import random

    from rules.encounter import Encounter
    from rules.engine import Session
    from saves.live import LiveEncounter, open_store

    # count the entries the set-up makes (each ``roll`` logs one), in memory
    setup = [
        "add Goblin count 49 hp 2d6+2 al 13",
        "add Zalek hp 30 al 15 con 17 athletics 4 dex 14 player",
        "start",
    ]
    session = Session(Encounter(NAME), rng=random.Random(1))
    for line in setup:
        session.apply(line)
    lines = setup + ["roll 1d20"] * (10_000 - len(session.log))
    store = open_store(path)
    try:
        live = LiveEncounter.create(store, NAME, rng=random.Random(1), actions=lines)
        assert live.log_earlier + len(live.log) == 10_000
    finally:
        store.close()


def child(mode: str, db: str, real: bool = False) -> None:
    """Run one app until its first frame, print ``ready`` (then the phase
    stamps, wall-clock seconds, as one JSON line); *real*: run it in this
    terminal until killed (``--terminal``)."""
    stamps: list[tuple[str, float]] = [("interpreter start", time.time())]
    app: Any
    if mode == "tracker":
        # the path ``combat-tracker --db DB open NAME`` takes: tracker.cli's
        # parser, then tracker.commands.tui.run (which runs the app for real)
        from tracker.cli import build_parser, command_of
        from tracker.commands.tui import build_app

        argv = ["--db", db, "open", NAME]
        args = build_parser(command_of(argv)).parse_args(argv)
        stamps.append(("command line", time.time()))
        app = build_app(args, phase=lambda name: stamps.append((name, time.time())))
    else:
        from textual.app import App, ComposeResult
        from textual.widgets import Static

        stamps.append(("import textual + rich", time.time()))

        class Bare(App[None]):
            def compose(self) -> ComposeResult:
                yield Static("Hello")

        app = Bare()
    if real:
        app.run()
        return

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            stamps.append(("start, CSS, compose, mount (run_test ready)", time.time()))
            await pilot.pause()
            stamps.append(("first paint (pilot.pause)", time.time()))
            cpu = time.process_time()  # this process's CPU time since it started
            print("ready", flush=True)
            print(json.dumps({"stamps": stamps, "cpu": cpu}), flush=True)

    try:
        asyncio.run(run())
    finally:
        if mode == "tracker":
            app.store.close()


def spawn(mode: str, db: Path, phases: list[dict[str, float]] | None = None) -> tuple[float, float]:
    """Start one child; (wall seconds spawn → first frame, the child's CPU
    seconds by then)."""
    import subprocess

    start = time.perf_counter()
    wall = time.time()
    # The child imports the project from this checkout, not from wherever
    # the virtualenv's editable install points, so two checkouts can be
    # measured side by side with one virtualenv.
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {
        **os.environ,
        "COMBAT_TRACKER_CONFIG": str(db.with_name("no-config.toml")),
        "PYTHONPATH": path,
    }
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", mode, str(db)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    report = proc.stdout.readline()
    proc.wait()
    if line.strip() != "ready":
        raise SystemExit(f"{mode} child did not start (exit {proc.returncode})")
    data = json.loads(report)
    if phases is not None:
        previous, phase = wall, {}
        for label, when in data["stamps"]:
            phase[label] = when - previous
            previous = when
        phases.append(phase)
    return elapsed, float(data["cpu"])


#: a pause in the output this long ends the first frame's burst
QUIET = 0.25


def _cells(screen: Any) -> tuple[tuple[object, ...], ...]:
    """Every cell of the emulated screen: its character, colours and the
    attributes a scrollbar's thumb is drawn with."""
    return tuple(
        tuple(
            (c.data, c.fg, c.bg, c.reverse, c.bold)
            for c in (screen.buffer[y][x] for x in range(screen.columns))
        )
        for y in range(screen.lines)
    )


def spawn_terminal(mode: str, db: Path) -> tuple[float, float]:
    """Start one child in a pseudo-terminal; (wall seconds spawn → the last
    write that changed its screen, NaN: no CPU figure)."""
    import fcntl
    import pty
    import select
    import signal
    import struct
    import termios

    import pyte

    screen = pyte.Screen(120, 40)
    stream = pyte.ByteStream(screen)
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {
        **os.environ,
        "COMBAT_TRACKER_CONFIG": str(db.with_name("no-config.toml")),
        "PYTHONPATH": path,
        "TERM": "xterm-256color",
    }
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the app, for real, in this terminal
        os.execve(sys.executable, [sys.executable, __file__, "--child", mode, str(db), "run"], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    # the chunks are only recorded while the child runs (emulating them
    # then would take CPU from the child on a small machine)
    chunks: list[tuple[float, bytes]] = []
    try:
        while True:
            ready, _, _ = select.select([fd], [], [], QUIET if chunks else 30)
            if not ready:
                break
            try:
                chunks.append((time.perf_counter(), os.read(fd, 1 << 16)))
            except OSError:
                break
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)
    changed = None
    shown = _cells(screen)
    for when, chunk in chunks:
        stream.feed(chunk)
        now = _cells(screen)
        if now != shown:
            shown, changed = now, when
    if changed is None:
        raise SystemExit(f"{mode} child painted nothing in a terminal")
    return changed - start, float("nan")


def byte_compile() -> None:
    """Compile the project's modules as an installed package has them."""
    import compileall

    for package in PACKAGES:
        compileall.compile_dir(ROOT / package, quiet=1)


def print_phases(mode: str, phases: list[dict[str, float]]) -> None:
    import statistics

    print(f"\n{mode}: median of each phase")
    for label in phases[0]:
        values = [p[label] for p in phases if label in p]
        print(f"  {statistics.median(values) * 1e3:7.1f} ms  {label}")
    print(f"  {statistics.median(sum(p.values()) for p in phases) * 1e3:7.1f} ms  (sum)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="pairs of starts per run (11)")
    parser.add_argument("--repeats", type=int, default=5, help="runs (default 5)")
    parser.add_argument("--phases", action="store_true", help="print each phase's median")
    parser.add_argument(
        "--no-compile", action="store_true", help="do not byte-compile the project first"
    )
    parser.add_argument(
        "--terminal", action="store_true", help="time the first frame in a real pseudo-terminal"
    )
    parser.add_argument("--child", nargs="+", metavar="MODE DB", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], real=args.child[2:] == ["run"])
        return 0
    import statistics
    import tempfile

    if not args.no_compile:
        byte_compile()
    bare_phases: list[dict[str, float]] = []
    tracker_phases: list[dict[str, float]] = []
    runs: list[tuple[list[tuple[float, float]], list[tuple[float, float]]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "encounters.json"
        make_db(db)
        spawn("bare", db)  # warm the file cache
        if args.terminal:

            def start(mode: str, _db: Path, _phases: object = None) -> tuple[float, float]:
                return spawn_terminal(mode, _db)
        else:
            start = spawn
        for _ in range(args.repeats):
            bare: list[tuple[float, float]] = []
            tracker: list[tuple[float, float]] = []
            for run in range(args.runs):
                # side by side, in alternating order: a slow spell on this
                # shared machine hits both starts of a pair
                if run % 2:
                    tracker.append(start("tracker", db, tracker_phases))
                    bare.append(start("bare", db, bare_phases))
                else:
                    bare.append(start("bare", db, bare_phases))
                    tracker.append(start("tracker", db, tracker_phases))
            runs.append((bare, tracker))

    def medians(bare: list[tuple[float, float]], tracker: list[tuple[float, float]], i: int):
        b = statistics.median(x[i] for x in bare)
        t = statistics.median(x[i] for x in tracker)
        pairs = statistics.median(y[i] / x[i] for x, y in zip(bare, tracker, strict=True))
        return b, t, pairs

    print(
        f"spawn → first frame: {args.repeats} runs of {args.runs} pairs of starts "
        + ("(120×40, a real pseudo-terminal)" if args.terminal else "(120×40, headless run_test)")
    )
    print(
        "first frame: "
        + (
            "the last byte of the app's first burst of output (the screen as drawn)"
            if args.terminal
            else "the encounter screen with every pane filled, painted once"
        )
    )
    print(
        "project modules: "
        + ("as found (not byte-compiled by the bench)" if args.no_compile else "byte-compiled")
    )
    print("bare app: Textual App with one Static; tracker: combat-tracker --db DB open NAME,")
    print("resuming 50 combatants and a 10,000-entry log (its snapshot, no steps after it)")
    header = (
        f"{'run':>3}  {'what (median)':<14} {'bare app':>10} {'tracker':>10} "
        f"{'ratio':>7} {'per pair':>9}"
    )
    print(header)
    print("-" * len(header))
    per_pair: list[float] = []
    for n, (bare, tracker) in enumerate(runs, 1):
        for label, i in (("wall", 0),) if args.terminal else (("wall", 0), ("CPU", 1)):
            b, t, pairs = medians(bare, tracker, i)
            if i == 0:
                per_pair.append(pairs)
            print(
                f"{n:>3}  {label:<14} {b * 1e3:7.0f} ms {t * 1e3:7.0f} ms "
                f"{t / b:6.2f}× {pairs:8.2f}×"
            )
    overall = statistics.median(per_pair)
    passed = overall <= 1.25
    print(
        f"\nper-pair wall ratio over the {len(runs)} runs: median {overall:.2f}×, "
        f"range {min(per_pair):.2f}–{max(per_pair):.2f}×  (target ≤ 1.25×)  "
        + ("PASS" if passed else "FAIL")
    )
    if args.phases:
        print_phases("bare", bare_phases)
        print_phases("combat-tracker", tracker_phases)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
