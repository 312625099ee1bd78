"""Long action lines: how long a hostile line of each shape takes to accept
or refuse at the old 2,000-character bound and at ``rules.limits.MAX_LINE``.

Every key names its targets, so the longest line a key builds names every
combatant twice (area damage through the saves form); ``MAX_LINE`` is that
line's length with the longest names, quoted at their longest.  A line of
any shape up to it must be read in time linear in its length: a ``do``
script or a pasted line must never hang the tracker.  Each shape is built
at about 2,000 characters and at about ``MAX_LINE`` and timed through
``parse_action`` (with the fight's names and groups) and ``Session.apply``
(an accepted line is undone after, untimed), in a fight of 500 combatants
whose names are 60 characters with spaces and quotes (five groups of 100).
Printed: the median of each (milliseconds), the ratio of the long line's
time to the short one's beside the ratio of their lengths (a ratio far
above the lengths' is a path growing faster than linear), and the worst of
each column.  Not collected by pytest; no timing is asserted.

    python bench/bench_long_lines.py [--samples N] [--only SHAPE]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# this checkout's code, whatever the virtualenv's editable install points at
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.encounter import Encounter  # noqa: E402
from rules.engine import Session  # noqa: E402
from rules.engine.grammar import MAX_BATCH  # noqa: E402
from rules.engine.parse import parse_action  # noqa: E402
from rules.engine.shell import quote_word  # noqa: E402
from rules.engine.targets import group_names  # noqa: E402
from rules.errors import ActionError  # noqa: E402
from rules.limits import MAX_COMBATANTS, MAX_LINE  # noqa: E402
from rules.text import MAX_NAME  # noqa: E402

OLD_LINE = 2000

#: five kinds of 100 (``add … count 100`` numbers them 1–100): names at
#: MAX_NAME with their number, spaces in them, one kind full of quotes
KINDS = (
    "Zombie of the Sunken Crypt beneath the Old Mill at Dawn",
    "Ghoul's \"Kin\" 'Rotting' Ghoul's \"Kin\" 'Rotting' Ghoul's",
    "Skeleton Archer of the Seventh Legion of the Dead King",
    "Shade of a Long Forgotten Necromancer Apprentice and",
    "Wight of the Barrow Downs under a Starless Winter Sky",
)


def kind_name(kind: str) -> str:
    """*kind* cut so that ``KIND 100`` is MAX_NAME characters long."""
    return kind.ljust(MAX_NAME)[: MAX_NAME - 4].rstrip().ljust(MAX_NAME - 4, "x")


def fight() -> Session:
    session = Session(Encounter("Long lines"), rng=random.Random(1))
    per_kind = MAX_COMBATANTS // len(KINDS)
    for n, kind in enumerate(KINDS, 1):
        session.apply(f"add {quote_word(kind_name(kind))} count {per_kind} hp 1000 group Horde{n}")
    session.apply("start")
    return session


def repeat(head: str, piece: str, tail: str, length: int) -> str:
    """``head`` + *piece* as many times as fit in *length* + ``tail``."""
    room = max(0, length - len(head) - len(tail))
    return head + piece * max(1, room // len(piece)) + tail


def names_line(names: list[str], length: int, saves: bool) -> str:
    """The saves form's line on as many of *names* as fit in *length*
    (every other one half, the rest none), or the targets alone."""
    from tracker.lines import saves_line

    chosen: list[str] = []
    for name in names:
        chosen.append(name)
        made = saves_line(chosen, "8d6 fire", _saves(chosen, saves))
        if len(made) > length:
            chosen.pop()
            break
    return saves_line(chosen, "8d6 fire", _saves(chosen, saves))


def _saves(names: list[str], saves: bool) -> dict[str, str]:
    return {n: ("half" if i % 2 else "none") for i, n in enumerate(names)} if saves else {}


Shape = Callable[[int, list[str]], str]


def shapes() -> dict[str, Shape]:
    """Each hostile shape: (length, the fight's names) → a line about that long."""
    # a name typed unquoted has no quotes in it
    first = lambda names: next(n for n in names if "'" not in n and '"' not in n)  # noqa: E731
    spaced = lambda names: first(names).rsplit(" ", 1)[0]  # noqa: E731
    return {
        # the keys' own lines: every target (then every one again after half/none)
        "the saves form on every target": lambda n, names: names_line(names, n, True),
        "d on the horde's row": lambda n, names: names_line(names, n, False),
        # unquoted words: each could begin a name with spaces
        "unquoted words of a name": lambda n, names: repeat(
            "damage ", spaced(names).split()[0] + " ", "5", n
        ),
        "unquoted name, repeated": lambda n, names: repeat("damage ", first(names) + " ", "5", n),
        "unquoted comma list of names": lambda n, names: repeat(
            "damage ", first(names) + ",", f"{first(names)} 8d6 fire", n
        ),
        "unquoted list, then garbage": lambda n, names: repeat(
            "damage ", first(names) + ",", f"{first(names)} x 8d6 fire", n
        ),
        "a name begun, then words": lambda n, names: repeat(f"heal {spaced(names)} ", "x ", "5", n),
        "half after half": lambda n, names: repeat(
            f"damage {quote_word(first(names))} 5 ", f"half {first(names)} ", "", n
        ),
        "of after of": lambda n, names: repeat(f"cond {quote_word(first(names))} x ", "of ", "", n),
        # the words and separators of the language
        "one long word": lambda n, names: repeat("damage ", "x", " 5", n),
        "many commas": lambda n, names: repeat("damage ", "a,", "a 5", n),
        "many empty targets": lambda n, names: repeat("damage ", ",", " 5", n),
        "many quotes": lambda n, names: repeat("damage ", "'a'", " 5", n),
        "many empty quoted words": lambda n, names: repeat("damage Wight ", "'' ", "5", n),
        "an unclosed quote": lambda n, names: repeat("damage '", "a", "", n),
        "many escapes": lambda n, names: repeat("damage ", "\\'", " 5", n),
        "many ; parts": lambda n, names: repeat("", "next;", "next", n),
        "many spaces": lambda n, names: repeat("damage", " ", f"{quote_word(first(names))} 5", n),
        "many tags": lambda n, names: _tags(n, names),
        "many + parts": lambda n, names: repeat(
            f"damage {quote_word(first(names))} 1 fire", " + 1 fire", "", n
        ),
        "many dice terms": lambda n, names: repeat(
            f"damage {quote_word(first(names))} 1", "+1", " fire", n
        ),
        "many selectors": lambda n, names: _selectors(n, names),
        "many faces": lambda n, names: repeat(
            f"damage {quote_word(first(names))} 1000d1 fire faces ", "1,", "1", n
        ),
        "long notes": lambda n, names: repeat("add Imp notes '", "x", "'", n),
        # lists that land on every target
        "a horde immune to many tags": lambda n, names: _listed(n, "add Imp count 100 immune "),
        "persistent damage, many tags": lambda n, names: _tags(n, names, "persist Horde1 1d6"),
        "a condition on all, of all": lambda n, names: repeat(
            "cond all frightened of ", "all,", "all", n
        ),
        # as many actions on everyone as a line holds (at most MAX_BATCH)
        "100 hits on everyone": lambda n, names: _batch(n, "damage all 5"),
        # each foresees when its duration ends, or rolls and hurts at each hit
        "100 conditions on everyone": lambda n, names: _batch(
            n, "cond all frightened value 2 rounds 3"
        ),
        "100 bonuses of one on everyone": lambda n, names: _batch(
            n, f"bonus all morale 1 rounds 2 of {quote_word(first(names))}"
        ),
        "100 attacks that hit everyone": lambda n, names: _batch(
            n, "attack all with +50 damage 2d6 fire"
        ),
        "100 attacks with 1000 dice": lambda n, names: _batch(
            n, "attack all roll 20 damage 1000d1000 fire"
        ),
    }


def _batch(length: int, part: str) -> str:
    """*part* as many times as fit in *length*, at most MAX_BATCH, between ``;``."""
    return "; ".join([part] * min(MAX_BATCH, (length + 2) // (len(part) + 2)))


def _listed(length: int, head: str) -> str:
    """*head* followed by a comma list of distinct tags as long as fits."""
    tags, size, n = [], len(head), 0
    while size + len(f"t{n},") <= length:
        tags.append(f"t{n}")
        size += len(tags[-1]) + 1
        n += 1
    return head + ",".join(tags)


def _tags(length: int, names: list[str], head: str = "") -> str:
    """*head* (a damage of 5 on the first name) and distinct tags as many as fit."""
    head = head or f"damage {quote_word(names[0])} 5"
    tags, size, n = [], len(head), 0
    while size + len(f" t{n}") <= length:
        tags.append(f"t{n}")
        size += len(tags[-1]) + 1
        n += 1
    return " ".join([head, *tags])


def _selectors(length: int, names: list[str]) -> str:
    """``damage 'Z*,Z *,Z  *,…' 5``: each the same selector, spelt apart."""
    prefix = names[0][0]
    words, n = [], 0
    size = len("damage '' 5") - 1
    while size + len(prefix) + n + 2 <= length:
        words.append(prefix + " " * n + "*")
        size += len(words[-1]) + 1
        n += 1
    return f"damage {quote_word(','.join(words))} 5"


def timed(call: Callable[[], object], samples: int) -> tuple[float, str]:
    """The median of *samples* calls (ms), and what the last one said."""
    times, said = [], ""
    for _ in range(samples):
        start = time.perf_counter()
        try:
            call()
            said = "ok"
        except ActionError as exc:
            said = str(exc)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), said


def measure(session: Session, line: str, samples: int) -> tuple[float, float, str]:
    """parse_action and Session.apply medians for *line* (ms), and the outcome."""
    combatants = session.encounter.combatants
    names, groups = [c.name for c in combatants], group_names(combatants)
    parse, _ = timed(lambda: parse_action(line, names, groups), samples)

    def apply() -> None:
        step = session.apply(line)
        if step.kind == "do":
            session.undo()

    applied, said = timed(apply, samples)
    return parse, applied, said


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=5, help="timings per case (median)")
    parser.add_argument("--only", help="the shapes whose name contains this")
    args = parser.parse_args()
    session = fight()
    names = [c.name for c in session.encounter.combatants]
    print(
        f"{len(names)} combatants, names of {max(map(len, names))} characters; "
        f"MAX_LINE {MAX_LINE:,} characters; {args.samples} samples; Python {sys.version.split()[0]}"
    )
    header = (
        f"{'shape':32} {'chars':>7} {'parse':>8} {'apply':>8} | {'chars':>7} {'parse':>8} "
        f"{'apply':>8} | {'x chars':>7} {'x apply':>7}  outcome at the cap"
    )
    print(f"{'':32} {'old bound (2,000)':>25} | {'MAX_LINE':>25} |")
    print(header)
    print("-" * len(header))
    worst = [0.0, 0.0, 0.0, 0.0]
    for name, shape in shapes().items():
        if args.only and args.only not in name:
            continue
        short, long = shape(OLD_LINE, names), shape(MAX_LINE, names)
        p1, a1, _ = measure(session, short, args.samples)
        p2, a2, said = measure(session, long, args.samples)
        worst = [max(w, v) for w, v in zip(worst, (p1, a1, p2, a2), strict=True)]
        grow = len(long) / len(short)
        outcome = said if len(said) <= 60 else said[:59] + "…"
        print(
            f"{name:32} {len(short):7,} {p1:8.2f} {a1:8.2f} | {len(long):7,} {p2:8.2f} "
            f"{a2:8.2f} | {grow:7.1f} {a2 / a1:7.1f}  {outcome}"
        )
    print("-" * len(header))
    print(
        f"{'worst':32} {'':7} {worst[0]:8.2f} {worst[1]:8.2f} | {'':7} {worst[2]:8.2f} "
        f"{worst[3]:8.2f} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
