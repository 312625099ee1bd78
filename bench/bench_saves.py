"""Benchmark: the cost of durably saving one action, through the store alone.

Compares, side by side, for fights of 100, 10,000 and 100,000 log entries
(~150 bytes each) with 1 and with 100 other saved encounters in the same
database:

  ours   ``saves.Store.append``: one checksummed line appended to the
         encounter's ``steps.jsonl`` + fsync
  stock  TinyDB with its stock ``JSONStorage``, one document per encounter
         holding the whole encounter (state + log); each action updates
         that document, which rewrites the whole file

and the time to open the database and load the encounter (ours:
``Store(path)`` + ``Store.load``: the snapshot and the records after it;
stock: ``TinyDB(path)`` + getting the document).  The store is fed opaque
records shaped like the engine's (``Store.create`` with one record per log
entry and a bounded snapshot), so this measures the saving alone;
``bench_live.py`` measures the whole path.  Ours and stock take their
samples interleaved, in seeded-shuffled rounds, so machine noise hits both
alike.  Exit status 1 if a target is missed.  Not collected by pytest.

    python bench/bench_saves.py [--quick] [--dir DIR] [--seed N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fight import spread  # bench/, beside this script
from tinydb import TinyDB

from saves import Store

OTHER_LOG = 100
#: The inline log entries of a bounded snapshot (``rules.engine.history.KEEP_ENTRIES``).
INLINE = 300


def log_entry(seq: int) -> dict[str, Any]:
    """A ~150-byte log entry, like rules.encounter.LogEntry.to_dict()."""
    text = f"Goblin {seq % 7} hits Ogre: 1d8+3 (5) + 3 = 8 slashing; Ogre 42 -> 34 HP #{seq:06d}"
    return {"seq": seq, "round": seq // 12 + 1, "actor": f"Goblin {seq % 7}", "text": text}


def state() -> dict[str, Any]:
    combatants = [
        {"name": f"Goblin {i}", "hp": 7, "max_hp": 7, "al": 13, "conditions": [], "init": 12 - i}
        for i in range(6)
    ]
    return {"name": "Fight", "round": 3, "turn": 1, "started": True, "combatants": combatants}


def snapshot(entries: int) -> dict[str, Any]:
    """A bounded snapshot, as ``LiveEncounter.snapshot`` hands it to the
    store: the state and the newest entries inline, the rest by number."""
    inline = [log_entry(i) for i in range(max(1, entries - INLINE + 1), entries + 1)]
    session = {"encounter": state(), "seq": entries, "undo": inline, "undo_older": [[1, entries]]}
    return {"session": session, "ui": {}}


def whole(entries: int) -> dict[str, Any]:
    """The whole encounter in one document (what stock TinyDB stores)."""
    return {"encounter": state(), "log": [log_entry(i) for i in range(1, entries + 1)]}


def record(seq: int) -> dict[str, Any]:
    """A ~1 kB action record: the action, a before/after patch, its log entry."""
    before = {"name": "Ogre", "hp": 42, "temp_hp": 0, "conditions": ["frightened 1"]}
    after = {**before, "hp": 34}
    action = {"verb": "damage", "target": "Ogre", "dice": "1d8+3", "tags": ["slashing"]}
    step = {
        "seq": seq,
        "kind": "do",
        "action": action,
        "before": {"combatants": {"Ogre": before}},
        "after": {"combatants": {"Ogre": after}},
        "log": [log_entry(seq)],
        "rolls": [{"expression": "1d8+3", "dice": [[8, 5, True]], "total": 8}],
    }
    return {"step": step, "ui": {"selected": "Ogre", "scroll": seq % 40}}


def summary(seq: int) -> dict[str, Any]:
    return {
        "name": "Fight",
        "round": seq // 12 + 1,
        "active": "Goblin 1",
        "combatants": 7,
        "started": True,
    }


@dataclass
class Config:
    entries: int
    others: int
    root: Path
    times: dict[str, list[float]] = field(
        default_factory=lambda: {"ours": [], "stock": [], "open ours": [], "open stock": []}
    )

    def db(self, variant: str) -> Path:
        return self.root / f"{variant}-{self.entries}-{self.others}.json"


class Ours:
    """Our store: created with one record per log entry, then appended to."""

    def __init__(self, cfg: Config) -> None:
        self.store = Store(cfg.db("ours"))
        for k in range(cfg.others):
            self.create(f"Other {k}", OTHER_LOG)
        self.create("Fight", cfg.entries)
        self.seq = cfg.entries

    def create(self, name: str, entries: int) -> None:
        records = [record(i) for i in range(1, entries + 1)]
        origin = {"encounter": state()}
        self.store.create(name, origin, snapshot(entries), summary(entries), records=records)

    def act(self) -> float:
        self.seq += 1
        rec, summ = record(self.seq), summary(self.seq)
        t0 = time.perf_counter()
        self.store.append("Fight", self.seq, rec, summ)
        return time.perf_counter() - t0

    def close(self) -> None:
        self.store.close()

    @staticmethod
    def open(db: Path, _: int) -> float:
        t0 = time.perf_counter()
        with Store(db) as store:
            store.load("Fight")
        return time.perf_counter() - t0


class Stock:
    """Stock TinyDB: the whole encounter in one document, rewritten per action."""

    def __init__(self, cfg: Config) -> None:
        self.tiny = TinyDB(cfg.db("stock"))  # default JSONStorage
        table = self.tiny.table("encounters")
        small = {"summary": summary(0), **whole(OTHER_LOG)}
        table.insert_multiple({**small, "name": f"Other {k}"} for k in range(cfg.others))
        self.doc_id = table.insert({"name": "Fight", "summary": summary(0), **whole(cfg.entries)})
        self.table = table
        self.session = whole(cfg.entries)
        self.seq = cfg.entries

    def act(self) -> float:
        self.seq += 1
        t0 = time.perf_counter()
        self.session["log"].append(log_entry(self.seq))
        self.session["encounter"]["round"] = self.seq // 12 + 1
        self.table.update(
            {"encounter": self.session["encounter"], "log": self.session["log"]},
            doc_ids=[self.doc_id],
        )
        return time.perf_counter() - t0

    def close(self) -> None:
        self.tiny.close()

    @staticmethod
    def open(db: Path, doc_id: int) -> float:
        t0 = time.perf_counter()
        with TinyDB(db) as tiny:
            tiny.table("encounters").get(doc_id=doc_id)
        return time.perf_counter() - t0


def ms(seconds: list[float]) -> float:
    return statistics.median(seconds) * 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer iterations")
    parser.add_argument("--dir", type=Path, default=None, help="where to put the databases")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the order")
    args = parser.parse_args(argv)

    sizes = [100, 10_000] if args.quick else [100, 10_000, 100_000]
    rounds = 100 if args.quick else 500  # ours: one sample per round
    stock_samples = {100: 20, 10_000: 5} if args.quick else {100: 50, 10_000: 15, 100_000: 5}
    open_rounds = 5
    order = random.Random(args.seed)
    started = time.perf_counter()

    def note(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(dir=args.dir, prefix="bench-saves-") as tmp:
        configs = [Config(e, o, Path(tmp)) for o in (1, 100) for e in sizes]
        ours, stock = {}, {}
        for i, cfg in enumerate(configs):
            t0 = time.perf_counter()
            ours[i], stock[i] = Ours(cfg), Stock(cfg)
            note(
                f"saved {cfg.entries:,} entries with {cfg.others} other(s), ours + stock, "
                f"in {time.perf_counter() - t0:.1f} s"
            )
        due = {i: spread(stock_samples[cfg.entries], rounds) for i, cfg in enumerate(configs)}
        note(f"timing saves: {rounds} rounds after 1 warm-up round")
        for r in range(rounds + 1):
            tasks = [("ours", i) for i in ours]
            tasks += [("stock", i) for i in stock if r == 0 or r in due[i]]
            order.shuffle(tasks)
            for variant, i in tasks:
                elapsed = ours[i].act() if variant == "ours" else stock[i].act()
                if r:  # round 0 warms up
                    configs[i].times[variant].append(elapsed)
        for variant in (*ours.values(), *stock.values()):
            variant.close()
        note(f"timing opens: {open_rounds} rounds")
        for _ in range(open_rounds):
            opens = [(v, i) for v in ("ours", "stock") for i in range(len(configs))]
            order.shuffle(opens)
            for variant, i in opens:
                cfg = configs[i]
                opener = Ours.open if variant == "ours" else Stock.open
                cfg.times[f"open {variant}"].append(opener(cfg.db(variant), cfg.others + 1))

    mode = "quick" if args.quick else "full"
    print(f"Median time to durably save one action, the store alone ({mode} run)")
    print("ours  = Store.append: one sealed line appended to steps.jsonl + fsync")
    print("stock = TinyDB JSONStorage: update of the one document holding state + whole log")
    print(f"other encounters hold {OTHER_LOG} log entries each; times in milliseconds")
    print(
        "open  = open the database and load the encounter (ours: Store + Store.load, the "
        f"snapshot and the {rounds + 1} records appended while timing; stock: TinyDB + get)\n"
    )
    header = (
        f"{'entries':>8} {'others':>6} | {'ours':>8} {'stock':>9} {'stock/ours':>10} "
        f"| {'open ours':>9} {'open stock':>10} | {'samples o/s':>11}"
    )
    print(header)
    print("-" * len(header))
    for cfg in sorted(configs, key=lambda c: (c.others, c.entries)):
        t = cfg.times
        ours_ms, stock_ms = ms(t["ours"]), ms(t["stock"])
        samples = f"{len(t['ours'])}/{len(t['stock'])}"
        print(
            f"{cfg.entries:>8,} {cfg.others:>6} | {ours_ms:8.3f} {stock_ms:9.2f} "
            f"{stock_ms / ours_ms:9.0f}x | {ms(t['open ours']):9.1f} {ms(t['open stock']):10.1f} "
            f"| {samples:>11}"
        )

    by_key = {(c.entries, c.others): c for c in configs}
    print("\nTargets")
    ok = True
    largest = sizes[-1]
    for others in (1, 100):
        big, small = by_key[(largest, others)], by_key[(100, others)]
        growth = ms(big.times["ours"]) / ms(small.times["ours"])
        passed = growth <= 1.3
        ok &= passed
        print(
            f"  ours at {largest:,} / ours at 100 entries, {others:>3} other(s): "
            f"{growth:5.2f}  (target <= 1.3)  {'PASS' if passed else 'FAIL'}"
        )
    for others in (1, 100):
        cfg = by_key[(10_000, others)]
        speedup = ms(cfg.times["stock"]) / ms(cfg.times["ours"])
        passed = speedup >= 20
        ok &= passed
        print(
            f"  stock / ours at 10,000 entries, {others:>3} other(s): "
            f"{speedup:7.0f}x (target >= 20x)  {'PASS' if passed else 'FAIL'}"
        )
    many = ms(by_key[(100, 100)].times["ours"]) / ms(by_key[(100, 1)].times["ours"])
    print(f"  ours with 100 others / with 1 other at 100 entries: {many:5.2f}")
    print(f"\nTotal benchmark time: {time.perf_counter() - started:.0f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
