"""Resuming a long fight, the old saves design against the new, in one run.

For fights of 100, 10,000 and 100,000 log entries, each tree builds its own
fight through its own public API (``LiveEncounter.create`` then ``do`` for
every action, then ``close``), in a subprocess with ``PYTHONPATH=<tree>``,
once, on a RAM disk; every measurement then runs in a fresh subprocess on
a fresh copy of that database on the real disk, the trees, sizes and
metrics interleaved in a seeded-shuffled order, repetition by repetition:

  open     wall time of ``Store(path)`` + ``LiveEncounter.open``
  rss      peak RSS (``ru_maxrss``) of that process once the fight is open
  undo     wall time of the first ``live.undo()`` right after opening
           (the engine's undo plus its fsynced step); ``undo cpu``: its
           CPU time (``process_time``: without the wait for the disk)
  compact  wall time of ``live.compact()`` after opening and one more
           action; ``comp cpu``: its CPU time
  ctrl+z   the app (``python -m tracker --db DB open NAME``) in a real
           terminal: tmux on a private socket, 120x40; once the pane shows
           the fight and has been still for a moment, ``ctrl+z`` is sent
           and timed until the pane changes (polling ``capture-pane``)

Prints size x metric x old x new x new/old (medians) and the targets; exit
status 1 if one is missed.  Not collected by pytest.

    python bench/bench_resume.py [--old /work/wt-old] [--new /work/wt-bench]
        [--reps 5] [--tmux-reps 5] [--quick] [--no-tmux] [--dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sys
import time
from pathlib import Path
from typing import Any

from fight import CYCLE, SETUP, action_lines  # bench/, beside this script

NAME = "Fight"
SEED = 7

#: The one more action before a compaction is timed.
EXTRA = "roll 1d20"


# --- the child: runs in one tree (PYTHONPATH=<tree>) -------------------------


def _check_tree() -> None:
    import saves

    tree = os.environ["BENCH_TREE"]
    if not Path(saves.__file__).resolve().is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"imported {saves.__file__}, not the tree {tree}")


def child(kind: str, db: str, entries: int) -> dict[str, Any]:
    """One measurement (or the build) in this process; a JSON-able result."""
    _check_tree()
    from saves.live import LiveEncounter, open_store

    if kind == "build":
        t0 = time.perf_counter()
        with open_store(db) as store:
            live = LiveEncounter.create(store, NAME, rng=random.Random(SEED))
            for line in SETUP:
                live.do(line)
            lines = action_lines(SEED)
            while live.log_earlier + len(live.log) < entries:
                live.do(next(lines))
            steps = live.session.seq
            total = live.log_earlier + len(live.log)
            live.close()
        return {"steps": steps, "entries": total, "s": time.perf_counter() - t0}

    t0 = time.perf_counter()
    store = open_store(db)
    live = LiveEncounter.open(store, NAME, rng=random.Random(SEED))
    opened = time.perf_counter() - t0
    out: dict[str, Any] = {}
    if kind == "open":
        out = {"open": opened, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}
    elif kind == "undo":
        t0, c0 = time.perf_counter(), time.process_time()
        live.undo()
        out = {"undo": time.perf_counter() - t0, "undo cpu": time.process_time() - c0}
    elif kind == "compact":
        live.do(EXTRA)
        t0, c0 = time.perf_counter(), time.process_time()
        live.compact()
        out = {"compact": time.perf_counter() - t0, "comp cpu": time.process_time() - c0}
    store.close()
    return out


# --- the parent --------------------------------------------------------------


def run_child(tree: Path, kind: str, db: Path, entries: int = 0) -> dict[str, Any]:
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(tree), "BENCH_TREE": str(tree)}
    proc = subprocess.run(
        [sys.executable, __file__, "--child", kind, str(db), str(entries)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode:
        raise SystemExit(f"{kind} in {tree} failed:\n{proc.stderr}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def fresh_copy(template: Path, work: Path, label: str) -> Path:
    """A fresh copy of the database folder *template*; the database path."""
    import shutil

    target = work / label
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(template, target)
    # on disk before the child starts: else the child's first fsync would
    # write the whole fresh copy (tens of MB at 100,000 entries)
    for folder, _, files in os.walk(target):
        for name in [*files, "."]:
            fd = os.open(os.path.join(folder, name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    return target / "encounters.json"


class Tmux:
    """The app in a real terminal: a tmux server on a private socket."""

    SOCKET = "bench-resume"

    def __init__(self) -> None:
        self.n = 0
        # a session that outlives every measured one, so the server does
        # not exit (and race the next new-session) between them
        self.tmux("new-session", "-d", "-s", "keeper", "sleep 86400")

    def close(self) -> None:
        self.tmux("kill-server")  # this private socket's server only

    def tmux(self, *args: str) -> str:
        import subprocess

        cmd = ["tmux", "-L", self.SOCKET, "-f", "/dev/null", *args]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode and args[0] not in ("kill-session", "kill-server"):
            raise SystemExit(f"tmux {args[0]} failed: {done.stderr.strip()}")
        return done.stdout

    def pane(self, session: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", session)

    def first_undo(self, tree: Path, db: Path, timeout: float = 120.0) -> float:
        """Seconds from sending ctrl+z to the pane changing."""
        import shlex

        self.n += 1
        session = f"s{self.n}"
        env = {
            "PYTHONPATH": str(tree),
            "COMBAT_TRACKER_DB": str(db),
            "COMBAT_TRACKER_CONFIG": str(db.with_name("no-config.toml")),
            "TERM": "xterm-256color",
        }
        command = " ".join(
            [
                "env",
                *(f"{k}={shlex.quote(v)}" for k, v in env.items()),
                shlex.quote(sys.executable),
                "-m tracker open",
                shlex.quote(NAME),
            ]
        )
        # in the database's folder: ``-m`` puts the working directory first
        # on sys.path, before PYTHONPATH, so a tree must not be the cwd
        where = str(db.parent)
        self.tmux("new-session", "-d", "-s", session, "-c", where, "-x", "120", "-y", "40", command)
        self.tmux("set-option", "-t", session, "remain-on-exit", "on")  # to show a failure
        try:
            deadline = time.monotonic() + timeout
            screen = ""
            while "Zalek" not in screen or "Ogre" not in screen:  # the fight is shown
                if time.monotonic() > deadline:
                    raise SystemExit(f"the app in {tree} never showed the fight:\n{screen}")
                time.sleep(0.02)
                screen = self.pane(session)
            still = time.monotonic()
            while time.monotonic() - still < 0.5:  # painted and still
                time.sleep(0.02)
                now = self.pane(session)
                if now != screen:
                    screen, still = now, time.monotonic()
            t0 = time.perf_counter()
            self.tmux("send-keys", "-t", session, "C-z")
            while self.pane(session) == screen:
                if time.perf_counter() - t0 > timeout:
                    raise SystemExit(f"ctrl+z changed nothing in {tree}")
            return time.perf_counter() - t0
        finally:
            self.tmux("kill-session", "-t", session)


def main(argv: list[str] | None = None) -> int:
    here = Path(__file__).resolve().parents[1]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, default=Path("/work/wt-old"))
    parser.add_argument("--new", type=Path, default=here)
    parser.add_argument("--reps", type=int, default=5, help="repetitions of each subprocess")
    parser.add_argument("--tmux-reps", type=int, default=5, help="repetitions in tmux")
    parser.add_argument("--quick", action="store_true", help="100 and 10,000 entries, 3 reps")
    parser.add_argument("--no-tmux", action="store_true", help="skip the real-terminal ctrl+z")
    parser.add_argument("--dir", type=Path, default=None, help="where the copies go")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the order")
    parser.add_argument("--child", nargs=3, metavar=("KIND", "DB", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        kind, db, n = args.child
        print(json.dumps(child(kind, db, int(n))))
        return 0

    import shutil
    import statistics
    import tempfile

    started = time.perf_counter()
    sizes = [100, 10_000] if args.quick else [100, 10_000, 100_000]
    reps = min(args.reps, 3) if args.quick else args.reps
    tmux_reps = min(args.tmux_reps, 3) if args.quick else args.tmux_reps
    use_tmux = not args.no_tmux and shutil.which("tmux") is not None
    trees = {"old": args.old.resolve(), "new": args.new.resolve()}
    ram = "/dev/shm" if Path("/dev/shm").is_dir() else None
    order = random.Random(args.seed)

    def note(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    with (
        tempfile.TemporaryDirectory(dir=ram, prefix="bench-resume-") as built,
        tempfile.TemporaryDirectory(dir=args.dir, prefix="bench-resume-") as scratch,
    ):
        work = Path(scratch)
        templates: dict[tuple[str, int], Path] = {}
        made: dict[tuple[str, int], dict[str, Any]] = {}
        for size in sizes:
            for label, tree in trees.items():
                folder = Path(built) / f"{label}-{size}"
                folder.mkdir()
                made[(label, size)] = run_child(tree, "build", folder / "encounters.json", size)
                templates[(label, size)] = folder
                info = made[(label, size)]
                note(
                    f"built {label} {size:,}: {info['entries']:,} entries, "
                    f"{info['steps']:,} steps, in {info['s']:.1f} s"
                )

        results: dict[tuple[str, int, str], list[float]] = {}
        note(f"measuring: {reps} interleaved repetitions of open / undo / compact")
        for _ in range(reps):
            tasks = [(t, s, k) for t in trees for s in sizes for k in ("open", "undo", "compact")]
            order.shuffle(tasks)
            for label, size, kind in tasks:
                db = fresh_copy(templates[(label, size)], work, "run")
                for metric, value in run_child(trees[label], kind, db).items():
                    results.setdefault((label, size, metric), []).append(value)

        tmux_sizes = [sizes[0], sizes[-1]]
        if use_tmux:
            note(f"measuring the first ctrl+z in tmux: {tmux_reps} interleaved repetitions")
            terminal = Tmux()
            try:
                for _ in range(tmux_reps):
                    tasks2 = [(t, s) for t in trees for s in tmux_sizes]
                    order.shuffle(tasks2)
                    for label, size in tasks2:
                        db = fresh_copy(templates[(label, size)], work, "run")
                        value = terminal.first_undo(trees[label], db)
                        results.setdefault((label, size, "ctrl+z"), []).append(value)
            finally:
                terminal.close()

    def med(label: str, size: int, metric: str) -> float:
        return statistics.median(results[(label, size, metric)])

    metrics = ["open", "rss", "undo", "undo cpu", "compact", "comp cpu"]
    metrics += ["ctrl+z"] if use_tmux else []
    units = {m: "ms" for m in metrics} | {"rss": "MiB"}
    scale = {m: 1e3 for m in metrics} | {"rss": 1 / 1024}
    print(f"Resuming a fight, old tree against new ({'quick' if args.quick else 'full'} run)")
    print(f"old = {trees['old']}   new = {trees['new']}")
    print(f"10-combatant fight; actions cycle: {'; '.join(CYCLE)}")
    for size in sizes:
        o, n = made[("old", size)], made[("new", size)]
        print(
            f"  {size:>7,}: old {o['entries']:,} entries / {o['steps']:,} steps, "
            f"new {n['entries']:,} / {n['steps']:,}"
        )
    print(
        f"each figure: the median of {reps} fresh subprocesses (ctrl+z: {tmux_reps} app starts), "
        "each on a fresh copy of the built database, interleaved"
    )
    print("open: Store + LiveEncounter.open; rss: ru_maxrss after opening; undo: the first")
    print(f"live.undo() after opening; compact: live.compact() after opening and {EXTRA!r};")
    print("undo cpu, comp cpu: the CPU time (process_time) of that undo, that compaction;")
    print("ctrl+z: the app in tmux 120x40, ctrl+z sent until the pane changes\n")
    header = f"{'entries':>8}  {'metric':<8} {'old':>10} {'new':>10} {'new/old':>8}"
    print(header)
    print("-" * len(header))
    for size in sizes:
        for metric in metrics:
            if (("old", size, metric)) not in results:
                continue
            o, n = med("old", size, metric), med("new", size, metric)
            unit = units[metric]
            print(
                f"{size:>8,}  {metric:<8} {o * scale[metric]:>7.1f} {unit:<3}"
                f"{n * scale[metric]:>7.1f} {unit:<3}{n / o:>7.2f}x"
            )

    small, large = sizes[0], sizes[-1]
    checks: list[tuple[str, float, str, bool]] = []

    def check(label: str, value: float, target: str, passed: bool) -> None:
        checks.append((label, value, target, passed))

    growth = med("new", large, "undo") / med("new", small, "undo")
    check(f"new: first undo at {large:,} / at {small:,}", growth, "<= 2", growth <= 2)
    if use_tmux:
        growth = med("new", large, "ctrl+z") / med("new", small, "ctrl+z")
        check(f"new: first ctrl+z at {large:,} / at {small:,}", growth, "<= 2", growth <= 2)
    if large > 10_000:
        growth = med("new", large, "rss") / med("new", 10_000, "rss")
        check(f"new: peak RSS at {large:,} / at 10,000", growth, "<= 1.2", growth <= 1.2)
    growth = med("new", large, "compact") / med("new", small, "compact")
    check(f"new: compaction at {large:,} / at {small:,}", growth, "<= 1.3", growth <= 1.3)
    if large > 10_000:
        # at 100 entries the snapshot is below its bound (fewer inline
        # entries), so also compare two fights that are both at the bound
        growth = med("new", large, "compact") / med("new", 10_000, "compact")
        check(f"new: compaction at {large:,} / at 10,000", growth, "<= 1.3", growth <= 1.3)
    for size in sizes[1:]:
        growth = med("new", size, "comp cpu") / med("new", small, "comp cpu")
        check(f"new: compaction CPU at {size:,} / at {small:,}", growth, "<= 1.3", growth <= 1.3)
    ratio = med("new", large, "open") / med("old", large, "open")
    check(f"open at {large:,}: new / old", ratio, "<= 1.0", ratio <= 1.0)
    print("\nTargets")
    for label, value, target, passed in checks:
        print(f"  {label:<46} {value:6.2f}  ({target})  {'PASS' if passed else 'FAIL'}")
    frame = med("new", large, "compact") * 1e3
    print(f"  (new compaction at {large:,}: {frame:.1f} ms against a 16.7 ms frame)")
    print(f"\nTotal benchmark time: {time.perf_counter() - started:.0f} s")
    return 0 if all(c[3] for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
