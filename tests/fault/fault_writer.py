"""Helper process for tests/fault/test_store_sigkill.py and
tests/saves/test_readonly.py (not a test module).

Usage: python tests/fault/fault_writer.py DB_PATH

Opens the store, creates encounter "Fight" if needed, then appends records
forever, printing ``ok <seq>`` (flushed) after each ``append`` returns.
Every 25th action it compacts (the snapshot holds every item so far) and
every 40th it takes a save point, so a SIGKILL can also land inside those.
Record ``n`` carries ``item == n``: a complete history is exactly 1..N.
"""

from __future__ import annotations

import sys
from typing import Any

from saves import Store


def summary(seq: int) -> dict[str, Any]:
    return {"name": "Fight", "round": seq // 10, "active": "Ogre", "combatants": 2, "started": True}


def main(db: str) -> None:
    store = Store(db)
    if not store.exists("Fight"):
        store.create("Fight", {"items": []}, summary(0))
    loaded = store.load("Fight")
    items: list[int] = list(loaded.snapshot["items"]) + [r["item"] for r in loaded.records]
    print(f"ready {len(items)}", flush=True)
    while True:
        n = len(items) + 1
        record = {"item": n, "text": f"Ogre hits Goblin for {n % 13} damage " + "x" * 300}
        seq = store.append("Fight", record, summary(n))
        items.append(n)
        print(f"ok {seq}", flush=True)
        if seq % 25 == 0:
            store.compact("Fight", {"items": items}, summary(n))
        if seq % 40 == 0:
            store.save_point("Fight", f"at {seq}", {"items": list(items)}, summary(n))


if __name__ == "__main__":
    main(sys.argv[1])
