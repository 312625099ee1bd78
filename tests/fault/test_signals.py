"""A ``kill`` (SIGTERM) or a closed terminal window (SIGHUP) while the app
runs: the app ends as ``q`` does, not in the middle of a frame.  The fight
is compacted and the lock released, the terminal is given back (out of the
alternate screen, mouse reporting off), one line says what happened, and
the status is 128 + the signal: neither 0 nor a crash report."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from saves.live import LiveEncounter
from saves.store import Store

pytestmark = pytest.mark.skipif(
    not hasattr(signal, "SIGHUP") or sys.platform == "win32", reason="needs a pty and SIGHUP"
)

ROOT = Path(__file__).resolve().parents[2]


def _read_until(fd: int, needle: bytes, timeout: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            seen += chunk
    return seen


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
def test_a_signal_ends_the_app_as_quitting_does(tmp_path: Path, signum: int) -> None:
    import pty

    db = tmp_path / "db.json"
    with Store(db) as store:
        live = LiveEncounter.create(store, "Fight", actions=["add Ogre hp 40 init 5"])
        live.close()
    main, child = pty.openpty()
    env = {
        **os.environ,
        "COMBAT_TRACKER_STATE": str(tmp_path / "state"),
        "COMBAT_TRACKER_CONFIG": str(tmp_path / "config.toml"),
        "TERM": "xterm-256color",
        "COLUMNS": "100",
        "LINES": "30",
    }
    app = subprocess.Popen(
        [sys.executable, "-m", "tracker", "--db", str(db), "open", "Fight"],
        stdin=child,
        stdout=child,
        stderr=child,
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    os.close(child)
    try:
        assert b"Ogre" in _read_until(main, b"Ogre", 60), "the app never drew the fight"
        time.sleep(1)  # past the first frame: keys typed now reach the screen
        for keys in (b":", b"damage Ogre 3", b"\r"):
            os.write(main, keys)
            time.sleep(0.5)
        assert b"37/40" in _read_until(main, b"37/40", 30), "the damage never showed"
        app.send_signal(signum)
        # read while it exits: a full pty would block its last frames
        tail = _read_until(main, b"everything acknowledged is saved", 30)
        status = app.wait(timeout=30)
    finally:
        if app.poll() is None:
            app.kill()
        os.close(main)
    assert status == 128 + signum  # not 0, not a crash (70)
    assert b"\x1b[?1049l" in tail  # out of the alternate screen: the terminal is usable
    name = signal.Signals(signum).name.encode()
    assert b"stopped by " + name + b"; everything acknowledged is saved" in tail
    assert not (tmp_path / "state").exists() or not list((tmp_path / "state").glob("crash-*"))
    with Store(db) as store:  # the lock is free, and the step was kept
        assert store.take_notices() == []
        reopened = LiveEncounter.open(store, "Fight")
        assert reopened.encounter.combatants[0].hp == 37
        reopened.close()
