"""The last resort (issue 9): an unexpected error in any command or in the
app is one sentence on stderr naming a crash report, and a non-zero exit —
never a traceback in front of the GM, never status 0."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tracker.cli import main
from tracker.commands.crash import EX_SOFTWARE, STATE_ENV

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "state"
    monkeypatch.setenv(STATE_ENV, str(directory))
    return directory


def _boom(*_args: Any) -> int:
    raise RuntimeError("boom \x1b[2J")


def test_a_crash_in_a_command_is_one_sentence_and_a_report(capsys, tmp_path, state, monkeypatch):
    from tracker.commands import browse

    monkeypatch.setattr(browse, "_list", _boom)
    status = main(["--db", str(tmp_path / "db.json"), "list"])
    out, err = capsys.readouterr()
    assert status == EX_SOFTWARE and out == ""
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "everything already acknowledged is saved on disk" in err
    (report,) = state.glob("crash-*.txt")
    assert str(report) in err and "RuntimeError" in err
    text = report.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and "RuntimeError: boom" in text
    assert "\x1b" not in text and "boom \\x1b[2J" in text  # the report is safe to cat
    assert "combat-tracker 0.1.0 crash report" in text or "crash report" in text.splitlines()[0]
    assert "command: combat-tracker --db" in text and "list" in text
    assert "python: 3." in text and "time: " in text


def test_the_command_line_in_the_report_is_made_visible(capsys, tmp_path, state, monkeypatch):
    from tracker.commands import browse

    monkeypatch.setattr(browse, "_show", _boom)
    status = main(["--db", str(tmp_path / "db.json"), "show", "Ogre\x1b]52;c;aGk=\x07"])
    assert status == EX_SOFTWARE
    (report,) = state.glob("crash-*.txt")
    assert "command: combat-tracker --db" in (text := report.read_text(encoding="utf-8"))
    assert "show Ogre\\x1b]52;c;aGk=\\x07" in text


def test_when_the_report_cannot_be_written_there_is_still_one_sentence(
    capsys, tmp_path, monkeypatch
):
    from tracker.commands import browse

    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv(STATE_ENV, str(blocker / "state"))
    monkeypatch.setattr(browse, "_list", _boom)
    status = main(["--db", str(tmp_path / "db.json"), "list"])
    _, err = capsys.readouterr()
    assert status == EX_SOFTWARE and len(err.splitlines()) == 1
    assert "could not write a crash report" in err and "saved on disk" in err


def test_ctrl_c_is_status_130_without_a_traceback(capsys, tmp_path, state, monkeypatch):
    from tracker.commands import browse

    def interrupted(*_args: Any) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(browse, "_list", interrupted)
    assert main(["--db", str(tmp_path / "db.json"), "list"]) == 130
    out, err = capsys.readouterr()
    assert out == "" and err == "" and not state.exists()


def test_a_crash_exits_non_zero_from_the_real_process(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from tracker.commands import roll\n"
        "def boom(args): raise ValueError('no')\n"
        "roll.run = boom\n"
        "from tracker.cli import main\n"
        "raise SystemExit(main(['roll', '1d6']))\n"
    )
    env = {**os.environ, STATE_ENV: str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == EX_SOFTWARE
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert len(list(tmp_path.glob("crash-*.txt"))) == 1


@pytest.mark.parametrize("command", ["list", "export Fight"])
def test_a_reader_that_goes_away_is_a_quiet_stop(tmp_path: Path, command: str) -> None:
    # `combat-tracker export Fight | head -1`: a report longer than a pipe holds
    from rules.encounter import Encounter, LogEntry
    from rules.engine import Session
    from saves.live import LiveEncounter
    from saves.store import Store

    db = tmp_path / "db.json"
    with Store(db) as store:
        live = LiveEncounter.create(store, "Fight")
        live.session = Session(Encounter("Fight"))
        live.session.log = [LogEntry(i, 0, "", f"note {i} " + "x" * 100) for i in range(2000)]
        live.compact()
        live.close()
    env = {**os.environ, STATE_ENV: str(tmp_path / "state")}
    pipeline = subprocess.run(
        f"{sys.executable} -m tracker --db {db} {command} | head -1; exit ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert pipeline.stdout.startswith((" encounter", "# Fight"))
    assert pipeline.stderr == ""
    assert pipeline.returncode in (0, 1)  # 1: the reader left before the end
    assert not (tmp_path / "state").exists()  # not a crash


def test_a_closed_pipe_is_status_1_and_no_report(capsys, tmp_path, state, monkeypatch) -> None:
    # Whether a real pipe breaks depends on the kernel's pipe buffer; this
    # one always does.
    class ClosedPipe:
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self) -> None:
            raise BrokenPipeError(32, "Broken pipe")

    main(["--db", str(tmp_path / "db.json"), "new", "Fight"])
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(["--db", str(tmp_path / "db.json"), "export", "Fight"]) == 1
    assert capsys.readouterr().err == "" and not state.exists()


def test_a_crash_inside_the_app_is_a_report_and_status_70(capsys, tmp_path, state, monkeypatch):
    """Textual catches an error in the app, shuts down and prints its own
    traceback; the app's run now ends like any other crash."""
    from textual.app import App

    from tracker.commands import tui

    closed = []

    class Store:
        def close(self) -> None:
            closed.append(True)

    class Broken(App[None]):
        store = Store()

        def on_mount(self) -> None:
            raise RuntimeError("the app broke")

        def run(self, **kwargs: Any) -> None:  # no terminal under pytest
            return super().run(headless=True)

    monkeypatch.setattr(tui, "build_app", lambda args: Broken())
    status = main(["--db", str(tmp_path / "db.json")])
    out, err = capsys.readouterr()
    assert status == EX_SOFTWARE and closed == [True]
    assert len(err.splitlines()) == 1 and "RuntimeError" in err and "Traceback" not in err
    (report,) = state.glob("crash-*.txt")
    assert str(report) in err
    assert "the app broke" in report.read_text(encoding="utf-8")


def test_quitting_the_app_is_status_0(capsys, tmp_path, state, monkeypatch) -> None:
    from textual.app import App

    from tracker.commands import tui

    class Store:
        def close(self) -> None:
            pass

    class Quits(App[None]):
        store = Store()

        def on_mount(self) -> None:
            self.exit(message=message)

        def run(self, **kwargs: Any) -> None:
            return super().run(headless=True)

    message = None
    monkeypatch.setattr(tui, "build_app", lambda args: Quits())
    assert main(["--db", str(tmp_path / "db.json")]) == 0
    assert capsys.readouterr().err == "" and not state.exists()
    # a message given to exit() still reaches the GM, made visible
    message = "Bye\x1b[2J"
    assert main(["--db", str(tmp_path / "db.json")]) == 0
    assert capsys.readouterr().err == "Bye\\x1b[2J\n" and not state.exists()


class _Store:
    """What the app asks of a store when nothing is saved."""

    def close(self) -> None:
        pass

    def take_notices(self) -> list[str]:
        return []


def _tracker_app_whose_input_fails(error: BaseException) -> Any:
    """The tracker's app, made to fail the way Textual's input thread does:
    the error raised in a thread's ``run_input_thread``, handed to
    ``App.panic`` as a Rich traceback (textual/drivers/linux_driver.py)."""
    import random
    import threading

    import rich.traceback

    from rules.encounter import Encounter
    from rules.engine import Session
    from saves.live import LiveEncounter
    from tracker.app import CombatTrackerApp

    class Failing(CombatTrackerApp):
        CSS_PATH = str(ROOT / "tracker" / "app.tcss")  # relative to tracker/, not tests/

        def on_mount(self) -> None:
            def run_input_thread() -> None:
                raise error

            def thread() -> None:
                try:
                    run_input_thread()
                except BaseException:
                    self.call_later(self.panic, rich.traceback.Traceback())

            threading.Thread(target=thread).start()

        def run(self, **kwargs: Any) -> None:
            return super().run(headless=True)

    live = LiveEncounter.in_memory(Session(Encounter("Fight"), rng=random.Random(1)))
    return Failing(store=_Store(), live=live)


def test_a_terminal_that_is_not_utf8_is_one_clear_line_not_status_0(
    capsys, tmp_path, state, monkeypatch
) -> None:
    from tracker.commands import tui

    bad = UnicodeDecodeError("utf-8", b"\xe9", 0, 1, "invalid continuation byte")
    monkeypatch.setattr(tui, "build_app", lambda args: _tracker_app_whose_input_fails(bad))
    status = main(["--db", str(tmp_path / "db.json")])
    err = capsys.readouterr().err
    assert status == 1
    assert len(err.splitlines()) == 1 and "not UTF-8" in err and "Traceback" not in err
    assert "everything acknowledged is saved" in err
    assert not state.exists()  # the GM's terminal setting, not a bug to report


def test_any_other_panic_of_the_app_is_a_crash_report(capsys, tmp_path, state, monkeypatch):
    from tracker.commands import tui

    monkeypatch.setattr(
        tui, "build_app", lambda args: _tracker_app_whose_input_fails(OSError("input gone"))
    )
    status = main(["--db", str(tmp_path / "db.json")])
    err = capsys.readouterr().err
    assert status == EX_SOFTWARE and len(err.splitlines()) == 1
    (report,) = state.glob("crash-*.txt")
    assert "input gone" in report.read_text(encoding="utf-8")


@pytest.mark.parametrize("command", [["roll", "d20"], ["list"], ["show", "Fight", "--json"]])
def test_output_that_cannot_be_written_is_one_line_not_a_crash(
    command: list[str], capsys, tmp_path, state, monkeypatch
) -> None:
    import errno

    class FullDisk:
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        def flush(self) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

    db = str(tmp_path / "db.json")
    main(["--db", db, "new", "Fight"])
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdout", FullDisk())
    assert main(["--db", db, *command]) == 1
    assert capsys.readouterr().err == (
        "combat-tracker: cannot write the output: No space left on device\n"
    )
    assert not state.exists()


def test_output_to_a_full_device_from_the_real_process(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "tracker", "--db", str(tmp_path / "db.json"), "roll", "d20"],
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=60,
            env={**os.environ, "COMBAT_TRACKER_STATE": str(tmp_path / "state")},
        )
    assert done.returncode == 1
    assert done.stderr == b"combat-tracker: cannot write the output: No space left on device\n"
