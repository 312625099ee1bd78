"""The players' view costs the GM nothing while it is off: a fresh
interpreter that imports the app and runs it (a fight on screen, keys
pressed) holds no aiohttp, no segno and none of the server's modules.
Pressing P is what loads them (the control that shows the test can fail)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = {"aiohttp", "segno", "tracker.share.server", "tracker.share.web", "tracker.share.qr"}

RUN_APP = """
import asyncio, json, random, sys
import tracker.app
from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.config import Config

async def main():
    session = Session(Encounter("Bridge"), rng=random.Random(1))
    for line in ("add Zalek hp 30 player init 15", "add Goblin hp 7 init 5", "start"):
        session.apply(line)
    app = tracker.app.CombatTrackerApp(live=LiveEncounter.in_memory(session), config=Config())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "j", {keys})
        await pilot.pause(0.2)

asyncio.run(main())
print(json.dumps(sorted(sys.modules)))
"""


def _loaded(keys: str, home: Path) -> set[str]:
    env = {**os.environ, "HOME": str(home), "COMBAT_TRACKER_STATE": str(home / "state")}
    out = subprocess.run(
        [sys.executable, "-c", RUN_APP.format(keys=keys)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    modules = set(json.loads(out.stdout.strip().splitlines()[-1]))
    return {m for m in modules if m.split(".")[0] in ("aiohttp", "segno")} | (modules & SERVER)


def test_the_app_running_imports_no_web_server(tmp_path: Path) -> None:
    assert _loaded('"k"', tmp_path) == set()


def test_sharing_is_what_loads_it(tmp_path: Path) -> None:
    loaded = _loaded('"P", "l"', tmp_path)
    assert {"aiohttp", "segno", "tracker.share.server", "tracker.share.qr"} <= loaded
