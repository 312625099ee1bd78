"""Benchmark: ``rules.dice.roll`` against the ``d20`` package (RULES.md §1).

Run:  /work/venv/bin/python bench/bench_dice.py [--rounds 31] [--rolls 2000]

Both libraries roll the same expressions in one process, in interleaved
rounds (ours, then d20, then ours …, so machine noise hits both alike), from
text each time (both cache their parses).  ``random`` is seeded for d20,
which draws from the module-level generator; ours gets a seeded
``random.Random``.  Prints the median µs per roll per expression and the
ratio d20 / ours (above 1 means ours is faster).  d20 builds its text
breakdown on every roll while ours renders lazily, so a third column times
ours *with* ``render()`` for a like-for-like comparison.

Not collected by pytest (no ``test_`` names here).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import d20  # noqa: E402  (benchmark-only dependency)

from rules.dice import roll  # noqa: E402

EXPRESSIONS = ("2d20kh1+5", "4d6+1d8+3")


def _time(fn: Callable[[], object], rolls: int) -> float:
    """µs per call over ``rolls`` calls."""
    start = time.perf_counter()
    for _ in range(rolls):
        fn()
    return (time.perf_counter() - start) / rolls * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--rolls", type=int, default=2000)
    args = parser.parse_args(argv)

    rng = random.Random(1234)
    random.seed(1234)
    print(f"{args.rounds} interleaved rounds × {args.rolls} rolls; median µs/roll")
    print(
        f"{'expression':<12} {'ours':>8} {'ours+render':>12} {'d20':>8} {'d20/ours':>9}"
        f" {'like-for-like':>14}"
    )
    for text in EXPRESSIONS:
        # sanity: both agree on the range and warm both parse caches
        assert roll(text, rng).total >= 6 and d20.roll(text).total >= 6

        def ours(text: str = text) -> object:
            return roll(text, rng)

        def ours_rendered(text: str = text) -> object:
            return roll(text, rng).render()

        def theirs(text: str = text) -> object:
            return d20.roll(text)

        samples: dict[str, list[float]] = {"ours": [], "render": [], "d20": []}
        for _ in range(args.rounds):
            samples["ours"].append(_time(ours, args.rolls))
            samples["d20"].append(_time(theirs, args.rolls))
            samples["render"].append(_time(ours_rendered, args.rolls))
        med = {k: statistics.median(v) for k, v in samples.items()}
        print(
            f"{text:<12} {med['ours']:>8.2f} {med['render']:>12.2f} {med['d20']:>8.2f}"
            f" {med['d20'] / med['ours']:>8.1f}× {med['d20'] / med['render']:>13.1f}×"
        )
    print("like-for-like = d20 / (ours + render): both build the text breakdown")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
