"""Hordes: ``n`` and an area action, 5 combatants vs 150 (issue 11, Done means).

Target: each key's median CPU cost in the big fight within 1.2x of the
same keys in the small one.  Groups are not built yet, so the big fight is
150 *individual* combatants: 4 players + 146 monsters with ``hp 2d8``
(``add Zombie count 100`` and ``add Skeleton count 46``: ``count`` stops
at 100), started.  The small one: the same 4 players + 1 zombie.

Both apps run at once (two Pilots, one event loop) and every round presses
each case on both, the order of the two sizes alternating, so a noisy
machine hits both alike.  Cases, each timed with ``time.process_time``
(CPU) and ``time.perf_counter`` (wall, dominated by Pilot's idle wait
after every key):

- ``n`` (next turn); ``ctrl+z`` puts the turn back, untimed.
- area damage: the first 30 rows (4 in the small fight) are marked with
  ``space``/``j`` (set-up, untimed); timed: ``d``, ``8d6 fire`` typed,
  Enter; ``ctrl+z`` undoes it, untimed.
- area damage with saves: the same marks; timed: ``d``, ``8d6 fire``,
  ``ctrl+s`` (the saves form), ``h`` (first target half), Enter.

Per key = the case's CPU over its key presses (the same keys in both sizes,
so the ratio is the case's).  Exit status 1 when a ratio misses 1.2x.
Not collected by pytest.

    python bench/bench_hordes.py [--presses N] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import statistics
import sys
import time
from pathlib import Path

# this checkout's code, whatever the virtualenv's editable install points at
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import textual  # noqa: E402
from textual.pilot import Pilot  # noqa: E402

from rules.encounter import Encounter  # noqa: E402
from rules.engine import Session  # noqa: E402
from saves.live import LiveEncounter  # noqa: E402
from tracker.app import CombatTrackerApp  # noqa: E402
from tracker.config import Config  # noqa: E402
from tracker.screens.encounter import EncounterScreen  # noqa: E402
from tracker.screens.saves_form import DamagePromptScreen, SavesScreen  # noqa: E402
from tracker.widgets.initiative import InitiativePane  # noqa: E402

TARGET = 1.2
SIZE = (120, 40)
PLAYERS = [
    "add Ayla hp 30 al 15 dex 14 player",
    "add Brom hp 38 al 17 con 16 player",
    "add Cael hp 24 al 13 dex 16 player",
    "add Dara hp 27 al 14 wis 16 player",
]
AMOUNT = "8d6 fire"
DAMAGE_KEYS = ("d", *["space" if ch == " " else ch for ch in AMOUNT], "enter")
SAVES_KEYS = ("d", *["space" if ch == " " else ch for ch in AMOUNT], "ctrl+s", "h", "enter")
CASES = {
    "n (next turn)": ("n",),
    "area damage": DAMAGE_KEYS,
    "area damage + saves": SAVES_KEYS,
}

#: ``n`` last: passing the turn clears the marks (``keep_marks`` default)
ORDER = ("area damage", "area damage + saves", "n (next turn)")


def build(monsters: int, seed: int = 1) -> LiveEncounter:
    """4 players and *monsters* zombies and skeletons, started."""
    session = Session(Encounter("Hordes"), rng=random.Random(seed))
    for line in PLAYERS:
        session.apply(line)
    session.apply(f"add Zombie count {min(monsters, 100)} hp 2d8 al 8 con 16")
    if monsters > 100:
        session.apply(f"add Skeleton count {monsters - 100} hp 2d8 al 13 dex 14")
    session.apply("start")
    return LiveEncounter.in_memory(session)


class Fight:
    """One app under the Pilot, with its per-case samples."""

    def __init__(self, label: str, monsters: int, targets: int) -> None:
        self.label = label
        self.live = build(monsters)
        self.size = len(self.live.session.encounter.combatants)
        self.targets = targets
        self.app = CombatTrackerApp(live=self.live, config=Config())
        self.pilot: Pilot | None = None
        self.cpu: dict[str, list[float]] = {k: [] for k in CASES}
        self.wall: dict[str, list[float]] = {k: [] for k in CASES}
        self.last: dict[str, list[float]] = {k: [] for k in CASES}

    async def mark(self) -> None:
        """Set-up: mark the first *targets* rows in the order of play."""
        pilot = self.pilot
        assert pilot is not None
        await pilot.pause()  # the undone turn settled (it clears the marks)
        self.app.screen.query_one(InitiativePane).move_cursor(row=0, animate=False)
        await pilot.pause()
        for _ in range(self.targets):
            await pilot.press("space", "j")
        await pilot.pause()
        marked = self.live.ui_state.get("marked", [])
        assert len(marked) == self.targets, (self.label, marked)

    async def timed(self, case: str) -> None:
        pilot = self.pilot
        assert pilot is not None
        keys = CASES[case]
        steps = len(self.live.session.undo_stack)
        w0, c0 = time.perf_counter(), time.process_time()
        if case == "area damage + saves":
            await pilot.press(*keys[:-3])
            assert isinstance(self.app.screen, DamagePromptScreen), self.app.screen
            await pilot.press(*keys[-3:-1])
            assert isinstance(self.app.screen, SavesScreen), self.app.screen
        else:
            await pilot.press(*keys[:-1])
        # the last key (Enter, or n) applies the action: also kept on its own
        ce0 = time.process_time()
        await pilot.press(keys[-1])
        c1, w1 = time.process_time(), time.perf_counter()
        self.last[case].append(c1 - ce0)
        assert isinstance(self.app.screen, EncounterScreen), (case, self.app.screen)
        assert len(self.live.session.undo_stack) == steps + 1, (case, "not applied")
        if case != "n (next turn)":
            action = self.live.session.undo_stack[-1].action
            assert len(action["targets"]) == self.targets, (case, action["targets"])
        self.cpu[case].append((c1 - c0) / len(keys))
        self.wall[case].append((w1 - w0) / len(keys))
        await pilot.press("ctrl+z")  # untimed: the fight as it was
        assert len(self.live.session.undo_stack) == steps

    async def round(self) -> None:
        await self.mark()
        for case in ORDER:
            await self.timed(case)


async def run(presses: int, profile: bool) -> tuple[Fight, Fight]:
    small = Fight("5", monsters=1, targets=4)
    big = Fight("150", monsters=146, targets=30)
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
    async with small.app.run_test(size=SIZE) as ps, big.app.run_test(size=SIZE) as pb:
        small.pilot, big.pilot = ps, pb
        await ps.pause()
        await pb.pause()
        for i in range(presses):
            if profiler is not None:
                await big.mark()
                profiler.enable()
                for case in ORDER:
                    await big.timed(case)
                profiler.disable()
                continue
            order = (small, big) if i % 2 == 0 else (big, small)
            for fight in order:
                await fight.round()
    if profiler is not None:
        import pstats

        stats = pstats.Stats(profiler).sort_stats("cumulative")
        stats.print_stats(40)
        stats.sort_stats("tottime").print_stats(25)
    return small, big


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=21, help="samples per case and size")
    parser.add_argument("--profile", action="store_true", help="cProfile the 150 fight only")
    args = parser.parse_args()
    small, big = asyncio.run(run(args.presses, args.profile))
    if args.profile:
        return
    print(
        f"fights: {small.size} combatants (4 players + 1 zombie, {small.targets} targets) vs "
        f"{big.size} individual combatants (4 players + 146 zombies and skeletons, "
        f"{big.targets} targets); groups not built yet"
    )
    print(
        f"terminal {SIZE[0]}x{SIZE[1]}, {args.presses} samples per case and size, interleaved; "
        f"Python {platform.python_version()}, Textual {textual.__version__}"
    )
    print("median per key (ms); wall is dominated by Pilot's idle wait after each key;")
    print("last key: the CPU of the key that applies the action alone (Enter, or n), for reading")
    print(
        f"{'case (keys)':28} {'5 wall':>7} {'150 wall':>8}   "
        f"{'5 CPU':>6} {'150 CPU':>7} {'ratio':>6}  target {TARGET}x   "
        f"{'last key 5':>10} {'150':>6} {'ratio':>6}"
    )
    failed = False
    for case, keys in CASES.items():
        ws, wb = statistics.median(small.wall[case]), statistics.median(big.wall[case])
        cs, cb = statistics.median(small.cpu[case]), statistics.median(big.cpu[case])
        ratio = cb / cs
        ok = ratio <= TARGET
        failed |= not ok
        ls, lb = statistics.median(small.last[case]), statistics.median(big.last[case])
        label = f"{case} ({len(keys)} keys)"
        print(
            f"{label:28} {ws * 1e3:7.1f} {wb * 1e3:8.1f}   "
            f"{cs * 1e3:6.2f} {cb * 1e3:7.2f} {ratio:6.2f}  {'ok' if ok else 'MISS':11}"
            f"{ls * 1e3:10.2f} {lb * 1e3:6.2f} {lb / ls:6.2f}"
        )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
