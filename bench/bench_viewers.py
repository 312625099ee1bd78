"""The players' view: a keypress's CPU cost with 0 vs 5 connected viewers
(issue 12, Done means), and how long an update takes to reach a page.

Target: with five pages connected, a key that changes the fight costs at
most 1.2x the CPU it costs with none.  One app (Pilot, 120x40) holds the
10-combatant bench fight (``bench/fight.py``, with a condition and a
persistent damage so the view has some of each), the real redaction
(``rules.players_view``) and its server; three configurations, measured
in turn, block after block, the order rotating every round so a noisy
machine hits each alike:

- ``off``: not sharing at all;
- ``0 viewers``: sharing, nobody connected;
- ``5 viewers``: five event streams open, read by another process (the
  phones' CPU is not the GM's: only the app's process is timed).

Keys (each a step, so each one is sent to every page): ``n``; ``ctrl+z``
and ``ctrl+y`` in turn (undo, redo); Enter in the damage prompt (``d 3``
typed, untimed).  A press is timed with ``time.process_time`` (every
thread of the app's process: the server's thread is counted) from the key
to ``SETTLE`` seconds after Pilot's idle wait, so the update the key sent
is counted in its own press (updates are at most 4 a second: the settle
is longer, so no update is coalesced away).  Per key = the median.

Latency: with the five pages connected, ``n`` is pressed every 0.5 s; the
time from the press to a page receiving its event (``time.monotonic``, a
system-wide clock on Linux), median and 90th percentile.  Exit status 1
when a ratio misses 1.2x.  Not collected by pytest.

    python bench/bench_viewers.py [--presses N] [--rounds N] [--updates N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

# this checkout's code, whatever the virtualenv's editable install points at
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp  # noqa: E402
import textual  # noqa: E402
from fight import SETUP  # noqa: E402  (bench/, beside this script)
from textual.pilot import Pilot  # noqa: E402

from rules.encounter import Encounter  # noqa: E402
from rules.engine import Session  # noqa: E402
from saves.live import LiveEncounter  # noqa: E402
from tracker.app import CombatTrackerApp  # noqa: E402
from tracker.config import Config  # noqa: E402
from tracker.share.feed import render  # noqa: E402
from tracker.share.server import MIN_INTERVAL  # noqa: E402
from tracker.share.sharing import Sharing, default_view_of  # noqa: E402

TARGET = 1.2
SIZE = (120, 40)
VIEWERS = 5
#: after each timed key: longer than the update interval, so each key's
#: update is sent (and counted) before the next key
SETTLE = MIN_INTERVAL + 0.1
CONFIGS = ("off", "0 viewers", f"{VIEWERS} viewers")

#: Five pages, in a process of their own: each event's arrival time.
PAGES = """
import asyncio, json, sys, time
import aiohttp

async def page(session, url, times, first):
    async with session.get(url) as response:
        async for raw in response.content:
            if raw.startswith(b"data: "):
                times.append(time.monotonic())
                first.set()

async def main():
    url, count = sys.argv[1], int(sys.argv[2])
    times = [[] for _ in range(count)]
    firsts = [asyncio.Event() for _ in range(count)]
    async with aiohttp.ClientSession() as session:
        tasks = [asyncio.create_task(page(session, url, times[i], firsts[i])) for i in range(count)]
        await asyncio.gather(*(f.wait() for f in firsts))
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        for task in tasks:
            task.cancel()
    print(json.dumps(times), flush=True)

asyncio.run(main())
"""


def build() -> LiveEncounter:
    session = Session(Encounter("Bench"), rng=random.Random(12))
    for line in SETUP:
        session.apply(line)
    session.apply("cond 'Goblin 2' frightened value 1 rounds 2")
    session.apply("persist Ogre 1d6 fire")
    return LiveEncounter.in_memory(session)


class Pages:
    """The other process's pages."""

    def __init__(self, url: str, count: int) -> None:
        self.url, self.count = url, count
        self.process: asyncio.subprocess.Process | None = None

    async def open(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            PAGES,
            f"{self.url}events",
            str(self.count),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert self.process.stdout is not None
        line = await self.process.stdout.readline()
        assert line.strip() == b"ready", line

    async def close(self) -> list[list[float]]:
        process = self.process
        assert process is not None and process.stdin is not None and process.stdout is not None
        process.stdin.write(b"stop\n")
        await process.stdin.drain()
        times: list[list[float]] = json.loads(await process.stdout.readline())
        await process.wait()
        self.process = None
        return times


async def until(pilot: Pilot, check: Callable[[], bool]) -> None:
    while not check():
        await pilot.pause(0.02)


async def set_config(pilot: Pilot, sharing: Sharing, pages: Pages, config: str) -> None:
    """Make *config* current (the pages of a previous one are closed by the caller)."""
    if config == "off":
        sharing.stop()
        return
    assert sharing.start() is None
    if config != "0 viewers":
        await pages.open()
        await until(pilot, lambda: sharing.viewers == pages.count)


async def timed(pilot: Pilot, keys: tuple[str, ...]) -> float:
    c0 = time.process_time()
    await pilot.press(*keys)
    await asyncio.sleep(SETTLE)
    return time.process_time() - c0


def cases(pilot: Pilot) -> dict[str, Callable[[int], Awaitable[float]]]:
    async def next_turn(_i: int) -> float:
        return await timed(pilot, ("n",))

    async def history(i: int) -> float:
        # the first press of a block undoes; the block's length is even
        return await timed(pilot, ("ctrl+z",) if i % 2 == 0 else ("ctrl+y",))

    async def damage(_i: int) -> float:
        await pilot.press("g", "j", "d", "3")
        cpu = await timed(pilot, ("enter",))
        await pilot.press("ctrl+z")  # untimed: the goblin stays up
        await asyncio.sleep(SETTLE)
        return cpu

    return {"n (next turn)": next_turn, "ctrl+z/ctrl+y": history, "d 3 Enter": damage}


async def measure(presses: int, rounds: int, updates: int) -> tuple[dict, list[float], int]:
    live = build()
    app = CombatTrackerApp(live=live, config=Config())
    samples: dict[str, dict[str, list[float]]] = {}
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        sharing = app.share()
        assert sharing.start() is None, "the server did not start"
        url = sharing.url
        assert url is not None
        pages = Pages(url, VIEWERS)
        keys = cases(pilot)
        for r in range(rounds):
            order = CONFIGS[r % 3 :] + CONFIGS[: r % 3]
            for config in order:
                await set_config(pilot, sharing, pages, config)
                for label, case in keys.items():
                    for i in range(presses):
                        cpu = await case(i)
                        samples.setdefault(label, {}).setdefault(config, []).append(cpu)
                if pages.process is not None:
                    await pages.close()
        # latency: the press of n -> a page's event
        assert sharing.start() is None
        await pages.open()
        await until(pilot, lambda: sharing.viewers == VIEWERS)
        pressed = []
        for _ in range(updates):
            pressed.append(time.monotonic())
            await pilot.press("n")
            await asyncio.sleep(0.5)
        times = await pages.close()
        size = len(render(lambda: default_view_of()(live.encounter)))
        sharing.stop()
    arrived = [t[1:] for t in times]  # the first event is the view at connect
    latencies = [
        arrival - start
        for page in arrived
        if len(page) == updates
        for arrival, start in zip(page, pressed, strict=True)
    ]
    return samples, latencies, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=10, help="per key, configuration and round")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--updates", type=int, default=40, help="presses for the latency")
    args = parser.parse_args()
    if args.presses % 2:
        parser.error("--presses must be even (undo and redo alternate)")
    t0 = time.perf_counter()
    samples, latencies, size = asyncio.run(measure(args.presses, args.rounds, args.updates))
    print(
        f"Python {platform.python_version()}, Textual {textual.__version__}, aiohttp "
        f"{aiohttp.__version__}, {os.cpu_count()} CPUs; {SIZE[0]}x{SIZE[1]}; "
        f"{len(build().encounter.combatants)} combatants, view {size} bytes of JSON; updates at "
        f"most every {MIN_INTERVAL} s; settle {SETTLE:.2f} s; {args.presses} presses x "
        f"{args.rounds} rounds per key and configuration"
    )
    print("median CPU per key (ms), the app's whole process")
    header = f"{'key':16}" + "".join(f"{c:>12}" for c in CONFIGS) + f"{'5 / 0':>8}{'5 / off':>9}"
    print(header)
    print("-" * len(header))
    worst = 0.0
    for label, by in samples.items():
        med = {c: statistics.median(by[c]) for c in CONFIGS}
        ratio = med[CONFIGS[2]] / med["0 viewers"]
        worst = max(worst, ratio)
        print(
            f"{label:16}"
            + "".join(f"{med[c] * 1e3:12.2f}" for c in CONFIGS)
            + f"{ratio:8.2f}{med[CONFIGS[2]] / med['off']:9.2f}"
        )
    verdict = "PASS" if worst <= TARGET else "FAIL"
    print(f"\nTarget: {VIEWERS} viewers / 0 viewers <= {TARGET}: worst {worst:.2f}  {verdict}")
    if latencies:
        ordered = sorted(latencies)
        p90 = ordered[int(0.9 * (len(ordered) - 1))]
        print(
            f"Update latency, n pressed -> event at a page: median {statistics.median(ordered) * 1e3:.1f} ms, "
            f"90th percentile {p90 * 1e3:.1f} ms, max {ordered[-1] * 1e3:.1f} ms "
            f"({len(ordered)} events, {VIEWERS} pages)"
        )
    else:
        print("Update latency: a page missed events (coalesced?): none measured")
    print(f"Total benchmark time: {time.perf_counter() - t0:.0f} s")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
