"""Make docs/screenshot.svg, the README's picture of the encounter screen.

Run ``python docs/screenshot.py`` after a visual change; it uses the seeded
fight of the snapshot tests (tests/tracker/test_snapshots.py) at 120×40, with
two goblins marked for an area effect.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "tracker")]

from test_snapshots import snapshot_app  # noqa: E402


async def main() -> None:
    app = snapshot_app(marked=("Goblin 2", "Goblin 3"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.save_screenshot(filename="screenshot.svg", path=str(ROOT / "docs"))


if __name__ == "__main__":
    asyncio.run(main())
