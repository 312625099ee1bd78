"""Fault injection (issue 3, Saves): a writer process is SIGKILLed at random
(seeded) moments, over and over, on the same database.  After every kill
the database file parses, the store opens, and every action the writer
acknowledged (``ok <seq>``) is there, exactly once and in order."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from saves import Store

TRIALS = 50
WRITER = Path(__file__).with_name("fault_writer.py")


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_at_random_moments_never_loses_an_acknowledged_record(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    rng = random.Random(20261130)
    acknowledged = 0  # highest sequence number any writer was told is saved
    killed_mid_loop = 0
    trial = 0
    # At least TRIALS kills, and on until most of them landed while the writer
    # was appending: how many do depends on how fast the machine is, so that
    # is a goal to reach, not a rate to assert (the cap only stops a hang).
    while trial < TRIALS or (killed_mid_loop < TRIALS // 2 and trial < 4 * TRIALS):
        trial += 1
        proc = subprocess.Popen(
            [sys.executable, str(WRITER), str(db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        if trial % 5:
            # Counted from when the writer is ready, so a slow start (a
            # loaded machine) does not turn the kill into one during startup.
            ready = proc.stdout.readline()
            time.sleep(rng.uniform(0.0, 0.5))
        else:
            # Counted from the start: may land while opening, creating or
            # repairing a torn journal.
            ready = ""
            time.sleep(rng.uniform(0.05, 0.6))
        proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate(timeout=30)
        out = ready + out
        assert proc.returncode == -signal.SIGKILL, f"trial {trial}: writer died early:\n{err}"
        acked = [int(line.split()[1]) for line in out.splitlines() if line.startswith("ok ")]
        if acked:
            killed_mid_loop += 1
            assert acked == list(range(acked[0], acked[-1] + 1))
            acknowledged = max(acknowledged, acked[-1])

        if db.exists():
            json.loads(db.read_bytes() or b"{}")  # the database file always parses
        with Store(db) as store:
            assert not [n for n in store.notices if "damaged" in n], store.notices
            if not store.exists("Fight"):
                assert acknowledged == 0, f"trial {trial}: the encounter vanished"
                continue
            loaded = store.load("Fight")
            items = list(loaded.snapshot["items"]) + [r["item"] for r in loaded.records]
            assert items == list(range(1, len(items) + 1)), f"trial {trial}: gap or duplicate"
            assert len(items) >= acknowledged, (
                f"trial {trial}: acknowledged {acknowledged} but only {len(items)} saved"
            )
    assert acknowledged > 0
    assert killed_mid_loop >= TRIALS // 2  # most kills landed while writing
