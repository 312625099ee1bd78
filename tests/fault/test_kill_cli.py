"""Kill -9 of the real command line (issue 10, Done): ``combat-tracker do
Fight`` reads a long stream of actions on stdin and is SIGKILLed at a
seeded random moment, fifty times.  Every ``ok N`` it printed is in the
fight afterwards, as step N, holding the action of the line it answered;
the database opens without a repair notice and the fight is exactly what
replaying its steps file gives."""

from __future__ import annotations

import importlib.util
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import ModuleType

import pytest

from rules.engine.step import Step
from saves.live import LiveEncounter
from saves.store import Store

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL"),
]

TRIALS = 50
WRITER = Path(__file__).with_name("fault_writer.py")


def _load_writer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_fault_writer", WRITER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fw = _load_writer()


def _cli(db: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tracker", "--db", str(db), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_kill_9_of_do_never_loses_an_acknowledged_action(tmp_path: Path) -> None:
    db = tmp_path / "fight.json"
    assert _cli(db, "new", "Fight").returncode == 0
    assert _cli(db, "do", "Fight", stdin="\n".join(fw.SETUP) + "\n").returncode == 0
    rng = random.Random(20261204)
    ref = fw.Reference()
    acknowledged = 0  # actions acknowledged over all trials
    highest = 0
    for trial in range(TRIALS):
        # Every line is answered by one line, "ok N" or "error: …" (an undo
        # with nothing to undo, a condition that is not there).
        stream = [
            rng.choice(("undo", "redo")) if rng.random() < 0.1 else rng.choice(fw.ACTIONS)
            for _ in range(1000)
        ]
        proc = subprocess.Popen(
            [sys.executable, "-m", "tracker", "--db", str(db), "do", "Fight"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        answers: list[str] = []
        enough = threading.Event()
        wanted = rng.randint(1, 20)

        def read(
            p: subprocess.Popen[str] = proc,
            out: list[str] = answers,
            enough: threading.Event = enough,
            wanted: int = wanted,
        ) -> None:
            assert p.stdout is not None
            for line in p.stdout:
                out.append(line.rstrip("\n"))
                if len(out) >= wanted:
                    enough.set()
            enough.set()  # the process ended

        def feed(p: subprocess.Popen[str] = proc, lines: list[str] = stream) -> None:
            assert p.stdin is not None
            try:
                p.stdin.write("\n".join(lines) + "\n")
                p.stdin.close()
            except OSError:  # killed: the pipe is broken
                pass

        threads = [threading.Thread(target=read), threading.Thread(target=feed)]
        for t in threads:
            t.start()
        if trial % 5:
            # Counted in answers, then a random part of one action: the
            # same moments on a fast or a loaded machine.
            enough.wait(timeout=60)
            time.sleep(rng.uniform(0.0, 0.002))
        else:
            time.sleep(rng.uniform(0.0, 0.25))  # may land while opening
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        for t in threads:
            t.join(timeout=60)
        assert proc.returncode == -signal.SIGKILL, f"trial {trial}: do ended by itself"

        acked = {}  # seq -> the line it answered
        for line, answer in zip(stream, answers, strict=False):
            if answer.startswith("ok "):
                acked[int(answer.split()[1])] = line
            else:
                assert answer.startswith("error: "), answer
        acknowledged += len(acked)
        with Store(db) as store:
            notices = store.take_notices()
            assert not [n for n in notices if "damaged" in n or "rebuilt" in n], notices
            live = LiveEncounter.open(store, "Fight")
            seq = live.session.seq
            assert seq >= max(acked, default=highest), f"trial {trial}: an ok N is missing"
            highest = seq
            ref.catch_up(store, "Fight", seq)
            assert fw.digest(live.encounter) == ref.digests[seq], f"trial {trial}"
            seqs = sorted(acked)
            for n, record in zip(seqs, store.read_steps("Fight", seqs), strict=True):
                step, line = Step.from_dict(record["step"]), acked[n]
                verb, *words = line.split()
                assert step.seq == n and step.action["verb"] == verb, (n, line, step.line)
                if step.kind == "do" and words:
                    assert words[0] in step.line, (n, line, step.line)
    # Meaningful only if the kills landed mid-stream, while do was saving.
    assert acknowledged > 5 * TRIALS
