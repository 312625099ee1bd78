"""Kill -9 at random moments (issue 10, Done): a writer process
(``fault_writer.py``) works on one database and is SIGKILLed at a seeded
random moment, fifty times per test, while it appends steps, while it
compacts, and while it takes save points and restores them.  After every
kill the database opens without a repair notice, every encounter listed
opens, and the fight is exactly what replaying its steps file from the
origin gives, holding every step the writer acknowledged.

Each writer is forked from one warmed-up helper process (a trial costs
a fork, not an interpreter start).  Four kills in five land after a
random number of the writer's lines and a random part of one operation
more, so they hit the same kind of moments on a fast or a loaded
machine; the fifth at any moment from the fork (while it opens the
database, cuts a torn tail or creates the fight).  The fight is compacted and the reference replay picks up where
the last check stopped, so a trial costs about the same at the fiftieth
kill as at the first."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rules.engine import Session
from saves.live import LiveEncounter
from saves.store import Store

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL"),
]

TRIALS = 50
WRITER = Path(__file__).with_name("fault_writer.py")


def _load_writer() -> ModuleType:
    """fault_writer.py as a module, wherever pytest put this folder on the path."""
    spec = importlib.util.spec_from_file_location("_fault_writer", WRITER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fw = _load_writer()


@dataclass
class Promises:
    """What the writers printed, over all trials: what the database owes."""

    acked: dict[int, str] = field(default_factory=dict)  # seq -> digest
    compacted: int = 0  # the newest snapshot a writer reported written
    points: dict[str, int] = field(default_factory=dict)  # label -> seq
    restored: dict[str, int] = field(default_factory=dict)  # name -> seq (not being deleted)
    deleted: set[str] = field(default_factory=set)

    def read(self, lines: list[str]) -> None:
        for line in lines:
            word, *rest = line.split(" ", 1)
            arg = rest[0] if rest else ""
            if word == "ok":
                seq, dig = arg.split()
                self.acked[int(seq)] = dig
            elif word == "compacted":
                self.compacted = max(self.compacted, int(arg))
            elif word == "point":
                label, seq = arg.split()
                self.points[label] = int(seq)
            elif word == "restored":
                name, seq = arg.rsplit(" ", 1)
                self.restored[name] = int(seq)
            elif word == "deleting":
                self.restored.pop(arg, None)  # may or may not be there now
            elif word == "deleted":
                self.deleted.add(arg)


class Writers:
    """``fault_writer.py --serve``: forks each trial's writer from one
    warmed-up process, so a trial costs a fork, not an interpreter start."""

    def __init__(self, errors: Path) -> None:
        self.errors = errors
        self.proc = subprocess.Popen(
            [sys.executable, str(WRITER), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors.open("w"),
            text=True,
        )
        assert self.readline() == "serving", self.errors.read_text()

    def start(self, db: Path, mode: str, seed: int) -> int:
        """Fork a writer; its PID."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{db}\t{mode}\t{seed}\n")
        self.proc.stdin.flush()
        first = self.readline()
        assert first.startswith("pid "), (first, self.errors.read_text())
        return int(first.split()[1])

    def readline(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline().rstrip("\n")

    def rest(self, lines: list[str]) -> tuple[list[str], int]:
        """Read the writer's lines up to its end; all its lines and its exit status."""
        while not (lines and lines[-1].startswith("status ")):
            line = self.readline()
            assert self.proc.poll() is None, self.errors.read_text()
            lines.append(line)
        return [ln for ln in lines[:-1] if ln], int(lines[-1].split()[1])

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def kill_trials(
    db: Path,
    mode: str,
    seed: int,
    check: Callable[[list[str]], None],
    max_lines: int,
    max_delay: float,
) -> list[list[str]]:
    """Start, kill and check the writer TRIALS times; each trial's output.
    Four kills in five land after up to *max_lines* lines of the writer's
    and up to *max_delay* seconds (about one operation) more."""
    rng = random.Random(seed)
    outputs = []
    writers = Writers(db.with_name("writer-errors.txt"))
    try:
        for trial in range(TRIALS):
            pid = writers.start(db, mode, rng.randrange(1 << 30))
            head: list[str] = []
            if trial % 5:
                # Counted in the writer's lines, then a random part of one
                # operation: the same moments on a fast or a loaded machine.
                for _ in range(rng.randint(1, max_lines)):
                    head.append(writers.readline())
                    if head[-1].startswith("status "):
                        break  # it died by itself
                time.sleep(rng.uniform(0.0, max_delay))
            else:
                time.sleep(rng.uniform(0.0, 0.05))  # from the fork: opening, repairing
            if not (head and head[-1].startswith("status ")):
                with contextlib.suppress(ProcessLookupError):  # it died by itself
                    os.kill(pid, signal.SIGKILL)
            lines, status = writers.rest(head)
            assert status == -signal.SIGKILL, (
                f"trial {trial}: the writer died by itself:\n{writers.errors.read_text()}"
            )
            try:
                check(lines)
            except AssertionError as exc:
                raise AssertionError(
                    f"trial {trial} ({mode}), killed after {lines[-3:]}: {exc}"
                ) from exc
            outputs.append(lines)
    finally:
        writers.close()
    return outputs


def tree_names(db: Path) -> list[str]:
    return sorted(str(p.relative_to(db.parent)) for p in db.parent.rglob("*"))


def check_database(db: Path, promises: Promises, ref: Any) -> tuple[Store, LiveEncounter | None]:
    """The checks every trial makes; returns the open store and fight."""
    store = Store(db)
    notices = store.take_notices()
    # A kill never damages anything: no repair, nothing rebuilt or moved aside.
    assert not [n for n in notices if "damaged" in n or "rebuilt" in n], notices
    names = tree_names(db)
    assert not [n for n in names if ".tmp-" in n or ".new-" in n or ".deleted-" in n], names
    assert not [n for n in names if "corrupt" in n], names
    if not store.exists("Fight"):
        assert not promises.acked, "the fight vanished"
        return store, None
    loaded = store.load("Fight")
    assert loaded.snapshot is not None and not loaded.notices, loaded.notices
    assert loaded.snapshot["seq"] >= promises.compacted, "a written snapshot went back"
    live = LiveEncounter.open(store, "Fight")
    seq = live.session.seq
    assert not promises.acked or seq >= max(promises.acked), "an acknowledged step is missing"
    ref.catch_up(store, "Fight", seq)
    session: Session = ref.session
    assert fw.digest(live.encounter) == ref.digests[seq]
    lost = {s: d for s, d in promises.acked.items() if ref.digests[s] != d}
    assert not lost, f"steps differ from what was acknowledged: {sorted(lost)[:5]}"
    n = len(live.log)
    assert list(live.log) == session.log[len(session.log) - n :]
    assert live.log_earlier + n == len(session.log)
    assert (live.can_undo, live.can_redo) == (session.can_undo, session.can_redo)
    return store, live


def test_kill_9_while_doing_actions_loses_no_acknowledged_step(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    promises, ref = Promises(), fw.Reference()

    def check(lines: list[str]) -> None:
        promises.read(lines)
        store, _ = check_database(db, promises, ref)
        store.close()

    outputs = kill_trials(db, "do", 20261201, check, max_lines=20, max_delay=0.002)
    mid_stream = sum(1 for lines in outputs if any(ln.startswith("ok ") for ln in lines))
    assert mid_stream >= TRIALS // 2, f"only {mid_stream} kills landed among the actions"
    assert len(promises.acked) > 5 * TRIALS


def test_kill_9_while_compacting_keeps_the_snapshot_or_the_one_before(tmp_path: Path) -> None:
    """A compaction after every action: most kills land inside the
    replace of state.json or of the catalogue.  The snapshot is the new
    one or the old one, never missing or damaged (no rebuild notice), and
    what it does not cover is replayed from the steps file."""
    db = tmp_path / "encounters.json"
    promises, ref = Promises(), fw.Reference()

    cut: set[int] = set()  # steps whose compaction was under way at a kill

    def check(lines: list[str]) -> None:
        promises.read(lines)
        oks = [int(ln.split()[1]) for ln in lines if ln.startswith("ok ")]
        if oks and lines[-1].startswith("ok "):
            cut.add(oks[-1])
        store, live = check_database(db, promises, ref)
        if live is not None:
            # The snapshot is the last one written or one a kill cut short
            # (whose replace did or did not happen): never another.
            snapshot = store.load("Fight").snapshot
            assert snapshot is not None
            assert snapshot["seq"] in {promises.compacted} | cut, (snapshot["seq"], cut)
        store.close()

    outputs = kill_trials(db, "compact", 20261202, check, max_lines=12, max_delay=0.006)
    # The last line an "ok": the kill landed in the compaction after it.
    in_compaction = sum(1 for lines in outputs if lines and lines[-1].startswith("ok "))
    assert in_compaction >= TRIALS // 2, f"only {in_compaction} kills landed in a compaction"
    assert promises.compacted > TRIALS


def test_kill_9_during_save_points_and_restores_leaves_no_broken_encounter(
    tmp_path: Path,
) -> None:
    """Save points replaced and restored as new encounters (and old copies
    deleted) in a loop: a kill mid-way leaves each save point as it was or
    as it became, every restore whole or absent, every acknowledged
    restore there and every acknowledged delete gone for good."""
    db = tmp_path / "encounters.json"
    promises, ref = Promises(), fw.Reference()

    def check(lines: list[str]) -> None:
        promises.read(lines)
        store, live = check_database(db, promises, ref)
        if live is None:
            store.close()
            return
        digests = ref.digests
        for label, seq in promises.points.items():
            point = store.load_save_point("Fight", label)
            assert point["seq"] >= seq, f"save point {label} went back"
            kept = Session.from_dict(point["session"]).encounter
            assert fw.digest(kept) == digests[point["seq"]], f"save point {label} is wrong"
        listed = {s.name for s in store.list()}
        assert not listed & promises.deleted, "a deleted encounter came back"
        missing = set(promises.restored) - listed
        assert not missing, f"acknowledged restores are missing: {missing}"
        for name in listed - {"Fight"}:
            assert name.startswith(fw.RESTORED), name
            copy = LiveEncounter.open(store, name)
            seq = copy.session.seq
            assert promises.restored.get(name, seq) == seq
            assert fw.digest(copy.encounter) == digests[seq], f"{name} is not the save point"
            # Its history is the original's up to the save point.
            seqs = sorted({1, *range(max(1, seq - 10), seq + 1)})
            assert store.read_steps(name, seqs) == store.read_steps("Fight", seqs)
            assert len(copy.full_log()) == copy.log_earlier + len(copy.log)
        store.close()

    outputs = kill_trials(db, "points", 20261203, check, max_lines=10, max_delay=0.02)
    inside = sum(
        1 for lines in outputs if lines and lines[-1].split()[0] in ("ok", "point", "deleting")
    )
    assert inside >= TRIALS // 3, f"only {inside} kills landed in a save point, restore or delete"
    assert promises.deleted and len(promises.points) == 3
