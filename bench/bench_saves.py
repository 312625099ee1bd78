"""Benchmark: the cost of durably saving one action (issue 3, Saves).

Compares, side by side, for fights of 100, 10,000 and 100,000 log entries
(~150 bytes each) with 1 and with 100 other saved encounters in the same
database:

  ours   saves.Store.append: one checksummed journal line + fsync
  stock  TinyDB 4.9 with its stock JSONStorage, one document per encounter
         holding the whole encounter (state + log); each action updates
         that document, which rewrites (and fsyncs) the whole file

and the time to open the database and load the encounter.  Other encounters
hold 100 log entries each.  Run:

    /work/venv/bin/python bench/bench_saves.py [--quick] [--dir DIR]

Not collected by pytest (no test_ names here).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tinydb import TinyDB

from saves import Store

OTHER_LOG = 100


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
    return {
        "session": {"encounter": state(), "log": [log_entry(i) for i in range(1, entries + 1)]},
        "undo": [],
    }


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


def timed(fn: Callable[[int], object], iterations: int, warmup: int = 3) -> float:
    """Median seconds of fn(i) over ``iterations`` calls."""
    for i in range(warmup):
        fn(-1 - i)
    times = []
    for i in range(iterations):
        t0 = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_ours(
    root: Path, configs: list[tuple[int, int]], iterations: int
) -> dict[tuple[int, int], tuple[float, float]]:
    """Per config: (median append, median open+load).  The appends of all
    configs are interleaved round-robin so that drift in the disk's fsync
    latency hits every config alike."""
    stores: dict[tuple[int, int], Store] = {}
    seqs: dict[tuple[int, int], int] = {}
    small = snapshot(OTHER_LOG)
    for entries, others in configs:
        store = Store(root / f"ours-{entries}-{others}.json")
        for k in range(others):
            store.create(f"Other {k}", small, summary(0))
        store.create("Fight", snapshot(entries), summary(0))
        stores[(entries, others)] = store
        seqs[(entries, others)] = entries
    times: dict[tuple[int, int], list[float]] = {c: [] for c in configs}
    for i in range(iterations + 5):
        for config, store in stores.items():
            seqs[config] += 1
            rec, summ = record(seqs[config]), summary(seqs[config])
            t0 = time.perf_counter()
            store.append("Fight", rec, summ)
            elapsed = time.perf_counter() - t0
            if i >= 5:  # warm-up
                times[config].append(elapsed)
    for store in stores.values():
        store.close()
    out = {}
    for config in configs:
        db = root / f"ours-{config[0]}-{config[1]}.json"

        def open_and_load(_: int, db: Path = db) -> None:
            with Store(db) as s:
                s.load("Fight")

        out[config] = (statistics.median(times[config]), timed(open_and_load, 5, warmup=1))
    return out


def bench_stock(root: Path, entries: int, others: int, iterations: int) -> tuple[float, float]:
    db = root / f"stock-{entries}-{others}.json"
    with TinyDB(db) as tiny:
        table = tiny.table("encounters")
        small = {"name": "", "summary": summary(0), **snapshot(OTHER_LOG)}
        table.insert_multiple({**small, "name": f"Other {k}"} for k in range(others))
        doc_id = table.insert({"name": "Fight", "summary": summary(0), **snapshot(entries)})
        session = snapshot(entries)["session"]
        log = session["log"]
        seq = [entries]

        def save(_: int) -> None:
            seq[0] += 1
            log.append(log_entry(seq[0]))
            session["encounter"]["round"] = seq[0] // 12 + 1
            table.update({"session": session, "summary": summary(seq[0])}, doc_ids=[doc_id])

        per_action = timed(save, iterations, warmup=1)

    def open_and_load(_: int) -> None:
        with TinyDB(db) as t:
            t.table("encounters").get(doc_id=doc_id)

    return per_action, timed(open_and_load, 5, warmup=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer iterations")
    parser.add_argument("--dir", type=Path, default=None, help="where to put the databases")
    args = parser.parse_args(argv)

    sizes = [100, 10_000] if args.quick else [100, 10_000, 100_000]
    ours_iters = 100 if args.quick else 500
    stock_iters = (
        {100: 20, 10_000: 5, 100_000: 5} if args.quick else {100: 50, 10_000: 15, 100_000: 5}
    )
    results: dict[tuple[int, int], dict[str, float]] = {}
    started = time.perf_counter()
    print(f"Median time to durably save one action ({'quick' if args.quick else 'full'} run)")
    print(f"other encounters hold {OTHER_LOG} log entries each; times in milliseconds")
    print(
        f"open = open the database and load the encounter (ours: its snapshot plus the "
        f"{ours_iters + 5} journal records appended while timing)\n"
    )
    header = f"{'entries':>8} {'others':>6} | {'ours':>8} {'stock':>9} {'stock/ours':>10} | {'open ours':>9} {'open stock':>10}"
    print(header)
    print("-" * len(header))
    configs = [(entries, others) for others in (1, 100) for entries in sizes]
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="bench-saves-") as tmp:
        root = Path(tmp)
        ours_all = bench_ours(root, configs, ours_iters)
        for entries, others in configs:
            ours, ours_open = ours_all[(entries, others)]
            stock, stock_open = bench_stock(root, entries, others, stock_iters[entries])
            results[(entries, others)] = {"ours": ours, "stock": stock}
            print(
                f"{entries:>8,} {others:>6} | {ours * 1e3:8.3f} {stock * 1e3:9.2f} "
                f"{stock / ours:9.0f}x | {ours_open * 1e3:9.1f} {stock_open * 1e3:10.1f}",
                flush=True,
            )
            (root / f"stock-{entries}-{others}.json").unlink()

    print("\nTargets")
    ok = True
    largest = sizes[-1]
    for others in (1, 100):
        growth = results[(largest, others)]["ours"] / results[(100, others)]["ours"]
        passed = growth <= 1.3
        ok &= passed
        print(
            f"  ours at {largest:,} / ours at 100 entries, {others:>3} other(s): "
            f"{growth:5.2f}  (target <= 1.3)  {'PASS' if passed else 'FAIL'}"
        )
    for others in (1, 100):
        speedup = results[(10_000, others)]["stock"] / results[(10_000, others)]["ours"]
        passed = speedup >= 20
        ok &= passed
        print(
            f"  stock / ours at 10,000 entries, {others:>3} other(s): "
            f"{speedup:7.0f}x (target >= 20x)  {'PASS' if passed else 'FAIL'}"
        )
    growth_others = results[(100, 100)]["ours"] / results[(100, 1)]["ours"]
    print(f"  ours with 100 others / with 1 other at 100 entries: {growth_others:5.2f}")
    print(f"\nTotal benchmark time: {time.perf_counter() - started:.0f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
