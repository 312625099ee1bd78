"""Benchmark: one GM action, applied and durably saved, through the real path.

Measures ``saves.live.LiveEncounter.do(line)`` — the engine's
``Session.apply`` plus the durable ``Store.append`` of the resulting step —
against stock TinyDB doing the same job the obvious way, on a 10-combatant
fight whose log holds 100, 10,000 or 100,000 entries, with 1 and with 100
other saved encounters in the same database:

  ours   ``LiveEncounter.do(line)``: apply, then one checksummed line
         appended to the encounter's ``steps.jsonl`` + fsync
  stock  TinyDB with its default ``JSONStorage``, one document per
         encounter holding the whole ``Session.to_dict()`` (state + log +
         undo/redo history); each action is the same ``Session.apply``
         followed by updating that document, which rewrites the whole
         database file

and the time to open such an encounter: open the database and get a live
``Session`` (ours: ``Store(path)`` + ``LiveEncounter.open``; stock:
``TinyDB(path)`` + reading the document + ``Session.from_dict``).

Method.  Each fight is the same seeded stream of action lines (setup, then a
cycle of realistic actions until the log is long enough).  Ours is created
through the public API, ``LiveEncounter.create(store, name, rng=…,
actions=lines)``; stock stores the ``to_dict()`` of a ``Session`` that
applied the same lines with the same dice.  Then every variant applies the
same further lines with the same seeded dice (checked at the end: the stock
log must be a prefix of ours).  Actions are timed in rounds: every round,
in a seeded-shuffled order, each of our databases takes one action and each
stock database takes one when its (fewer, evenly spread) samples are due,
so machine noise hits both alike.  Opens are interleaved the same way.
After building, the heap is frozen (``gc.freeze``) so that the bench's
in-memory copies of big fights do not make garbage collection dearer than
in the app.  Other encounters are a 10-combatant fight with 100 log
entries each.  Exit status 1 if a target is missed; ``--quick``: 100 and
10,000 entries only.  Not collected by pytest.

    python bench/bench_live.py [--quick] [--dir DIR] [--seed N]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fight import CYCLE, SETUP, action_lines, spread  # bench/, beside this script
from tinydb import Query, TinyDB

from rules.encounter import Encounter
from rules.engine import Session
from saves import Store
from saves.live import LiveEncounter, summary_of

NAME = "Fight"
OTHER_LOG = 100
TABLE = "encounters"


def build_fight(entries: int, seed: int) -> tuple[list[str], Session]:
    """The action lines of a started 10-combatant fight with at least
    *entries* log entries, and the fight they make, applied in memory with
    ``random.Random(seed)``."""
    session = Session(Encounter(NAME), rng=random.Random(seed))
    lines = list(SETUP)
    for line in lines:
        session.apply(line)
    stream = action_lines(seed)
    while len(session.log) < entries:
        lines.append(next(stream))
        session.apply(lines[-1])
    return lines, session


def saved_form(session: Session) -> dict[str, Any]:
    """The snapshot as plain JSON (what stock TinyDB stores)."""
    return {"session": session.to_dict(), "ui": {}}


@dataclass
class Config:
    entries: int
    others: int
    root: Path
    ours_times: list[float] = field(default_factory=list)
    stock_times: list[float] = field(default_factory=list)
    ours_open: list[float] = field(default_factory=list)
    stock_open: list[float] = field(default_factory=list)

    @property
    def ours_db(self) -> Path:
        return self.root / f"ours-{self.entries}-{self.others}.json"

    @property
    def stock_db(self) -> Path:
        return self.root / f"stock-{self.entries}-{self.others}.json"


class Ours:
    """Our design, driven the way the app drives it."""

    def __init__(self, cfg: Config, fight: dict[str, Any], other: dict[str, Any], seed: int):
        store = Store(cfg.ours_db)
        for k in range(cfg.others):
            rng = random.Random(other["seed"])
            LiveEncounter.create(store, f"Other {k + 1}", rng=rng, actions=other["lines"])
        rng = random.Random(fight["seed"])
        LiveEncounter.create(store, NAME, rng=rng, actions=fight["lines"])
        self.live = LiveEncounter.open(store, NAME, rng=random.Random(seed))
        self.lines = action_lines(seed)

    def act(self) -> float:
        line = next(self.lines)
        t0 = time.perf_counter()
        self.live.do(line)
        return time.perf_counter() - t0

    def close(self) -> None:
        self.live.close()  # writes a fresh snapshot, as the app does on quit
        assert self.live.store is not None
        self.live.store.close()

    @staticmethod
    def open(db: Path) -> tuple[float, int]:
        """Seconds to open, and the length of the log opened."""
        t0 = time.perf_counter()
        with Store(db) as store:
            live = LiveEncounter.open(store, NAME)
        elapsed = time.perf_counter() - t0
        return elapsed, live.log_earlier + len(live.log)


class Stock:
    """Stock TinyDB: the whole encounter in one document, rewritten per action."""

    def __init__(self, cfg: Config, fight: dict[str, Any], other: dict[str, Any], seed: int):
        self.db = TinyDB(cfg.stock_db)  # default JSONStorage
        self.table = self.db.table(TABLE)
        self.table.insert_multiple(
            {"name": f"Other {k + 1}", "summary": other["summary"], **other["snapshot"]}
            for k in range(cfg.others)
        )
        self.doc_id = self.table.insert(
            {"name": NAME, "summary": fight["summary"], **fight["snapshot"]}
        )
        doc = self.table.get(doc_id=self.doc_id)
        assert isinstance(doc, dict)
        self.session = Session.from_dict(doc["session"], rng=random.Random(seed))
        self.lines = action_lines(seed)

    def act(self) -> float:
        line = next(self.lines)
        t0 = time.perf_counter()
        self.session.apply(line)
        self.table.update(
            {"session": self.session.to_dict(), "summary": summary_of(self.session)},
            doc_ids=[self.doc_id],
        )
        return time.perf_counter() - t0

    def close(self) -> None:
        self.db.close()

    @staticmethod
    def open(db: Path) -> tuple[float, int]:
        """Seconds to open, and the length of the log opened."""
        t0 = time.perf_counter()
        with TinyDB(db) as tiny:
            doc = tiny.table(TABLE).get(Query().name == NAME)
        assert isinstance(doc, dict)
        session = Session.from_dict(doc["session"])
        return time.perf_counter() - t0, len(session.log)


def note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def ms(seconds: list[float]) -> float:
    return statistics.median(seconds) * 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer samples")
    parser.add_argument("--dir", type=Path, default=None, help="where to put the databases")
    parser.add_argument("--seed", type=int, default=2024, help="seed for dice and ordering")
    args = parser.parse_args(argv)

    quick = args.quick
    sizes = [100, 10_000] if quick else [100, 10_000, 100_000]
    rounds = 60 if quick else 200  # ours: one sample per round
    stock_samples = {100: 20, 10_000: 8} if quick else {100: 50, 10_000: 20, 100_000: 5}
    open_samples = {100: 3, 10_000: 3} if quick else {100: 5, 10_000: 5, 100_000: 3}
    order = random.Random(args.seed)
    started = time.perf_counter()

    with tempfile.TemporaryDirectory(dir=args.dir, prefix="bench-live-") as tmp:
        root = Path(tmp)
        configs = [Config(e, o, root) for o in (1, 100) for e in sizes]

        note(f"building the other encounters' fight ({OTHER_LOG} entries)")
        small_lines, small = build_fight(OTHER_LOG, args.seed + 1)
        other = {
            "lines": small_lines,
            "seed": args.seed + 1,
            "snapshot": saved_form(small),
            "summary": summary_of(small),
        }
        ours: dict[int, Ours] = {}
        stock: dict[int, Stock] = {}
        for entries in sizes:
            t0 = time.perf_counter()
            fight_lines, fight_session = build_fight(entries, args.seed)
            fight = {
                "lines": fight_lines,
                "seed": args.seed,
                "snapshot": saved_form(fight_session),
                "summary": summary_of(fight_session),
            }
            note(
                f"built a {len(fight_session.log):,}-entry fight "
                f"({fight_session.seq:,} steps) in {time.perf_counter() - t0:.1f} s"
            )
            del fight_session
            for i, cfg in enumerate(configs):
                if cfg.entries == entries:
                    t0 = time.perf_counter()
                    ours[i] = Ours(cfg, fight, other, args.seed + 2)
                    stock[i] = Stock(cfg, fight, other, args.seed + 2)
                    note(
                        f"  saved it with {cfg.others} other(s), ours + stock, "
                        f"in {time.perf_counter() - t0:.1f} s"
                    )
            del fight, fight_lines
        gc.collect()
        gc.freeze()

        note(f"timing actions: {rounds} rounds after 1 warm-up round")
        due = {i: spread(stock_samples[cfg.entries], rounds) for i, cfg in enumerate(configs)}
        for r in range(rounds + 1):
            tasks = [("ours", i) for i in ours]
            tasks += [("stock", i) for i in stock if r == 0 or r in due[i]]
            order.shuffle(tasks)
            for variant, i in tasks:
                if variant == "ours":
                    elapsed = ours[i].act()
                    if r:
                        configs[i].ours_times.append(elapsed)
                else:
                    elapsed = stock[i].act()
                    if r:
                        configs[i].stock_times.append(elapsed)

        # Same actions, same dice: the stock log must be a prefix of ours.
        for i, cfg in enumerate(configs):
            ours_log, stock_log = ours[i].live.full_log(), stock[i].session.log
            if ours_log[: len(stock_log)] != stock_log:
                note(f"ERROR: ours and stock diverged at {cfg.entries:,}/{cfg.others}")
                return 2
        ours_lengths = {i: len(o.live.full_log()) for i, o in ours.items()}
        for live in ours.values():
            live.close()
        for tiny in stock.values():
            tiny.close()
        ours.clear()
        stock.clear()
        gc.unfreeze()
        gc.collect()

        note("timing opens")
        open_rounds = max(open_samples.values())
        open_due = {
            i: spread(open_samples[cfg.entries], open_rounds) for i, cfg in enumerate(configs)
        }
        for r in range(1, open_rounds + 1):
            opens = [(v, i) for v in ("ours", "stock") for i in open_due if r in open_due[i]]
            order.shuffle(opens)
            for variant, i in opens:
                cfg = configs[i]
                if variant == "ours":
                    elapsed, length = Ours.open(cfg.ours_db)
                    assert length == ours_lengths[i]
                    cfg.ours_open.append(elapsed)
                else:
                    elapsed, length = Stock.open(cfg.stock_db)
                    cfg.stock_open.append(elapsed)

    mode = "quick" if quick else "full"
    print(f"Median time to apply + durably save one GM action ({mode} run, seed {args.seed})")
    print("ours  = LiveEncounter.do(line): Session.apply + Store.append (steps-file line + fsync)")
    print("stock = Session.apply + TinyDB JSONStorage update of the whole Session.to_dict()")
    print(f"10-combatant fight; actions cycle: {'; '.join(CYCLE)}")
    print(f"other encounters: 10-combatant fights with {OTHER_LOG} log entries each")
    print("open  = open the database and get a live Session (ours: Store + LiveEncounter.open:")
    print("        the bounded snapshot and the steps after it;")
    print("        stock: TinyDB + get the document + Session.from_dict); times in milliseconds\n")
    header = (
        f"{'entries':>8} {'others':>6} | {'ours':>7} {'stock':>9} {'stock/ours':>10} "
        f"| {'open ours':>9} {'open stock':>10} | {'samples o/s':>11}"
    )
    print(header)
    print("-" * len(header))
    for cfg in sorted(configs, key=lambda c: (c.others, c.entries)):
        ours_ms, stock_ms = ms(cfg.ours_times), ms(cfg.stock_times)
        samples = f"{len(cfg.ours_times)}/{len(cfg.stock_times)}"
        print(
            f"{cfg.entries:>8,} {cfg.others:>6} | {ours_ms:7.3f} {stock_ms:9.2f} "
            f"{stock_ms / ours_ms:9.0f}x | {ms(cfg.ours_open):9.1f} {ms(cfg.stock_open):10.1f} "
            f"| {samples:>11}"
        )

    by_key = {(c.entries, c.others): c for c in configs}
    largest = sizes[-1]
    print("\nTargets")
    ok = True
    for others in (1, 100):
        growth = ms(by_key[(largest, others)].ours_times) / ms(by_key[(100, others)].ours_times)
        passed = growth <= 1.3
        ok &= passed
        print(
            f"  ours at {largest:,} / ours at 100 entries, {others:>3} other(s): "
            f"{growth:5.2f}  (target <= 1.3)  {'PASS' if passed else 'FAIL'}"
        )
    for others in (1, 100):
        cfg = by_key[(10_000, others)]
        speedup = ms(cfg.stock_times) / ms(cfg.ours_times)
        passed = speedup >= 20
        ok &= passed
        print(
            f"  stock / ours at 10,000 entries, {others:>3} other(s): "
            f"{speedup:7.0f}x (target >= 20x)  {'PASS' if passed else 'FAIL'}"
        )
    print(f"\nTotal benchmark time: {time.perf_counter() - started:.0f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
