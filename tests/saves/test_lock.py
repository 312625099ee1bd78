"""One tracker per database (issue 3, Saves): a second process is told who
has the file, and a killed process never leaves the database locked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from saves import DatabaseLocked, Store

HOLDER = textwrap.dedent(
    """
    import sys
    from saves import Store
    store = Store(sys.argv[1])
    print("ready", flush=True)
    sys.stdin.readline()
    store.close()
    """
)

OPENER = textwrap.dedent(
    """
    import sys
    from saves import SaveError, Store
    try:
        Store(sys.argv[1]).close()
    except SaveError as exc:
        print(exc)
        sys.exit(3)
    print("opened")
    """
)


def start_holder(db: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    return proc


def test_second_process_gets_database_locked_naming_the_pid(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    holder = start_holder(db)
    try:
        with pytest.raises(DatabaseLocked) as info:
            Store(db)
        assert info.value.pid == holder.pid
        assert f"is in use by PID {holder.pid}" in str(info.value)
        assert str(db) in str(info.value)
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=30)
    with Store(db) as s:  # released on close
        assert s.list() == []


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    holder = start_holder(db)
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(timeout=30)
    assert Path(f"{db}.lock").read_text().strip() == str(holder.pid)  # the PID is left...
    with Store(db) as s:  # ...but the lock is not
        assert s.list() == []
        assert Path(f"{db}.lock").read_text().strip() == str(os.getpid())


def test_this_process_holding_the_lock_blocks_another_process(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    with Store(db):
        other = subprocess.run(
            [sys.executable, "-c", OPENER, str(db)], capture_output=True, text=True, timeout=60
        )
        assert other.returncode == 3
        assert other.stdout.strip().endswith(
            "close the other combat-tracker first (or use --db for another file)."
        )
        assert f"in use by PID {os.getpid()}" in other.stdout
    other = subprocess.run(
        [sys.executable, "-c", OPENER, str(db)], capture_output=True, text=True, timeout=60
    )
    assert other.stdout.strip() == "opened"
