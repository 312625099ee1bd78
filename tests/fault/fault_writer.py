"""Helper process for the SIGKILL tests in this folder (not a test module),
and the reference the tests check the database against.

Usage: python tests/fault/fault_writer.py DB MODE SEED
   or: python tests/fault/fault_writer.py --serve   (see :func:`serve`)

Opens the database, creates encounter ``Fight`` (a goblin and an ogre,
started) if it is not there, opens it with ``LiveEncounter.open`` and
works on it until it is killed, printing one flushed line after each
change returns (so every line printed is a promise the test checks):

- ``ready SEQ``: the fight is open at step SEQ (after ``compacted SEQ``
  when this writer created it: creating writes the first snapshot);
- ``ok SEQ DIGEST``: step SEQ is saved; DIGEST is :func:`digest` of the
  encounter after it;
- ``compacted SEQ``: a fresh snapshot covering step SEQ is written;
- ``point LABEL SEQ``: save point LABEL holds the fight as of step SEQ;
- ``restored NAME SEQ``: NAME was created from a save point at step SEQ;
- ``deleting NAME`` / ``deleted NAME``: around ``Store.delete``.

MODE ``do``: actions only (``compact_if_due`` as ``combat-tracker do``
does).  ``compact``: a compaction after every action, so a kill usually
lands inside the replace of ``state.json``.  ``points``: a save point
(labels ``p0``…``p2``, replaced) after every action and a restore of it
as a new encounter every other action; at most two restored encounters
are kept, older ones are deleted.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import random
import sys
import traceback
from collections.abc import Iterable
from typing import Any

SETUP = ("add Goblin hp 40 al 12 init 10", "add Ogre hp 90 al 11 init 5", "start")
ACTIONS = (
    "damage Goblin 1d6 fire",
    "heal Goblin 1d4",
    "damage Ogre 2d6",
    "heal Ogre 1d8",
    "temp Ogre 3",
    "cond Goblin frightened rounds 2",
    "uncond Goblin frightened",
    "next",
)
RESTORED = "Restored "  # the names of the encounters made from save points


def digest(encounter: Any) -> str:
    """The encounter's state, ignoring its name (a restored copy has its
    own), as a short hash."""
    data = encounter.to_dict()
    data.pop("name", None)
    return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


class Reference:
    """The fight as replaying its steps file from the origin gives it, kept
    in memory across the test's trials: each check replays only the steps
    added since the last one.  Steps never change once on file, so a step
    that did change would not replay (its *before* state would not fit)."""

    def __init__(self) -> None:
        from rules.engine import Session

        self.session: Session | None = None
        self.digests: dict[int, str] = {}  # seq -> digest of the fight after it

    def catch_up(self, store: Any, name: str, last_seq: int) -> None:
        """Replay steps up to *last_seq* of *name* (opened in *store*)."""
        from rules.encounter import Encounter
        from rules.engine import Session

        if self.session is None:
            self.session = Session(Encounter.from_dict(store.origin(name)["encounter"]))
            self.digests[0] = digest(self.session.encounter)
        seqs = list(range(self.session.seq + 1, last_seq + 1))
        for record in store.read_steps(name, seqs):
            step = self.session.replay(record["step"])
            self.digests[step.seq] = digest(self.session.encounter)
        assert self.session.seq == last_seq


def say(line: str) -> None:
    """One line in one write: a kill never leaves half a line (print()
    may write the text and its newline apart, unbuffered)."""
    os.write(sys.stdout.fileno(), f"{line}\n".encode())


def warm_up() -> None:
    """Import what the writer uses, the engine's verbs too (imported on
    first use, some 40 ms): the test's delays are spent in the loop."""
    for module in ("saves.live", "saves.store", "tracker.restore", "rules.engine.format"):
        importlib.import_module(module)
    for module in ("parse", "patch", "verbs"):
        importlib.import_module(f"rules.engine.{module}")


def serve() -> None:
    """``--serve``: for each line ``DB<tab>MODE<tab>SEED`` on stdin, fork a
    writer from this warmed-up process (its first line ``pid N``, then
    :func:`main`'s), wait for it to die, then say ``status S`` (its exit
    status, -9 when SIGKILLed) after an empty line.  A trial then costs a fork, not the start
    of an interpreter and its imports."""
    warm_up()
    say("serving")
    for command in sys.stdin:
        db, mode, seed = command.rstrip("\n").split("\t")
        pid = os.fork()
        if pid == 0:  # the writer
            try:
                say(f"pid {os.getpid()}")
                main(db, mode, int(seed))
            except BaseException:
                traceback.print_exc()
                sys.stderr.flush()
            finally:
                os._exit(1)
        _, status = os.waitpid(pid, 0)
        # On a line of its own whatever the writer's last line was.
        say(f"\nstatus {os.waitstatus_to_exitcode(status)}")


def main(db: str, mode: str, seed: int) -> None:
    from rules.errors import ActionError
    from saves.live import LiveEncounter
    from saves.store import Store
    from tracker.restore import restore_save_point

    rng = random.Random(seed)
    store = Store(db)
    if store.exists("Fight"):
        live = LiveEncounter.open(store, "Fight", rng=rng)
    else:
        live = LiveEncounter.create(store, "Fight", rng=rng, actions=SETUP)
        # creating writes the first snapshot: a kill before the next
        # compaction leaves that one, which the checks must expect
        say(f"compacted {live.session.seq}")
    restored = [s.name for s in store.list() if s.name.startswith(RESTORED)]
    warm_up()
    say(f"ready {live.session.seq}")

    def delete(names: Iterable[str]) -> None:
        for name in names:
            say(f"deleting {name}")
            store.delete(name)
            say(f"deleted {name}")

    if mode == "points":
        delete(restored[2:])  # the list is newest first
        restored = restored[:2]
    n = 0
    while True:
        n += 1
        roll = rng.random()
        line = "undo" if roll < 0.08 else "redo" if roll < 0.12 else rng.choice(ACTIONS)
        try:
            step = live.do(line)
        except ActionError:
            continue  # nothing to undo or redo, a condition not there: nothing saved
        say(f"ok {step.seq} {digest(live.encounter)}")
        if mode == "do":
            if live.compact_if_due():
                say(f"compacted {step.seq}")
        elif mode == "compact":
            live.compact()
            say(f"compacted {step.seq}")
        elif mode == "points":
            label = f"p{n % 3}"
            live.save_point(label, replace=True)
            say(f"point {label} {step.seq}")
            if n % 2 == 0:
                name = f"{RESTORED}{os.getpid()}-{n}"
                restore_save_point(store, "Fight", label, name)
                say(f"restored {name} {step.seq}")
                restored.insert(0, name)
                delete(restored[2:])
                restored = restored[:2]


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        serve()
    else:
        main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
