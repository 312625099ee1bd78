"""Readers beside a writer (issue 10, Persistence): while a GM has the
tracker open, a second terminal lists, shows and exports encounters
through ``Store(path, read_only=True)``.  A reader takes no lock, never
sees a half-written state or a summary going backwards, and never
creates, writes or moves a file, even when it finds damage a writer would
repair; every change it is asked for is refused with one clear message."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from rules.engine import Session
from rules.errors import ActionError
from saves import DatabaseLocked, DatabaseReadOnly, EncounterNotFound, SaveError, Store
from saves.live import LiveEncounter, close_live, summary_of
from tracker.restore import restore_save_point

SETUP = ("add Goblin hp 40 al 12 init 10", "add Ogre hp 90 al 11 init 5", "start")
# No undo, redo or prev: the round only moves on, so a summary going back
# is a reader's fault.
ACTIONS = (
    "damage Goblin 1d6 fire",
    "heal Goblin 1d6",
    "damage Ogre 2d6",
    "heal Ogre 2d6",
    "temp Ogre 3",
    "next",
)


def digest(encounter: Any) -> str:
    data = encounter.to_dict()
    data.pop("name", None)
    return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


# A writer process working flat out on "Fight": an action, then every
# 5th a compaction and every 7th a save point (p0 or p1, replaced).  It
# prints "ok SEQ DIGEST" after each action is saved.
WRITER = textwrap.dedent(
    f"""
    import hashlib, json, random, sys
    from rules.errors import ActionError
    from saves.live import LiveEncounter
    from saves.store import Store

    def digest(encounter):
        data = encounter.to_dict()
        data.pop("name", None)
        return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]

    rng = random.Random(int(sys.argv[2]))
    store = Store(sys.argv[1])
    live = LiveEncounter.create(store, "Fight", rng=rng, actions={SETUP!r})
    live.save_point("p0")
    print("ready", flush=True)
    n = 0
    while True:
        n += 1
        try:
            step = live.do(rng.choice({ACTIONS!r}))
        except ActionError:  # everyone down: nobody can take a turn
            continue
        print(f"ok {{step.seq}} {{digest(live.encounter)}}", flush=True)
        if n % 5 == 0:
            live.compact()
        if n % 7 == 0:
            live.save_point(f"p{{n % 2}}", replace=True)
    """
)


def tree(root: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder under *root*: size and modification time."""
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder, name)
            st = path.lstat()
            out[str(path.relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return out


def make_fight(db: Path, steps: int = 0, seed: int = 1) -> tuple[LiveEncounter, dict[int, str]]:
    """A saved fight (setup, then *steps* actions), still open in a writer
    store; the digest of the fight after each step."""
    store = Store(db)
    rng = random.Random(seed)
    live = LiveEncounter.create(store, "Fight", rng=rng, actions=SETUP)
    digests = {live.session.seq: digest(live.encounter)}
    while len(digests) <= steps:
        try:
            step = live.do(rng.choice(ACTIONS))
        except ActionError:  # a heal at full HP is refused: nothing saved
            continue
        digests[step.seq] = digest(live.encounter)
    return live, digests


def stopped(pid: int) -> None:
    """Wait until SIGSTOP took effect (the process state is T)."""
    stat = Path(f"/proc/{pid}/stat")
    for _ in range(1000):
        if not stat.exists():
            time.sleep(0.05)
            return
        if stat.read_text().rsplit(")", 1)[1].split()[0] in "tT":
            return
        time.sleep(0.001)
    raise AssertionError("the writer did not stop")


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP")
def test_a_reader_beside_a_writer_working_flat_out_sees_only_whole_states(
    tmp_path: Path,
) -> None:
    """The reader lists, opens the fight, lists its save points and loads
    them, over and over: never an exception, every fight and save point it
    sees is exactly the writer's at that step, nothing goes backwards.  Now
    and then the writer is frozen (SIGSTOP, at whatever it was doing) and
    the reader's calls change no name, size or time in the folder."""
    db = tmp_path / "encounters.json"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db), "7"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None
    assert writer.stdout.readline() == "ready\n"
    digests: dict[int, str] = {}

    def follow() -> None:
        assert writer.stdout is not None
        for line in writer.stdout:
            _, seq, dig = line.split()
            digests[int(seq)] = dig

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    seen: list[tuple[int, str]] = []  # (seq, digest) of every state the reader saw
    snapshots: set[int] = set()
    frozen_checks = 0
    try:
        with pytest.raises(DatabaseLocked):
            Store(db)  # writing is still one process at a time
        ro = Store(db, read_only=True)
        last_seq, last_round, last_points = 0, 0, {"p0": 0, "p1": 0}

        def read_everything() -> None:
            nonlocal last_seq, last_round
            floor = max(digests, default=0)  # acknowledged before this read began
            (row,) = ro.list()
            assert row.name == "Fight" and row.round >= last_round, (row, last_round)
            last_round = row.round
            snapshot = ro.load("Fight").snapshot
            assert snapshot is not None
            snapshots.add(snapshot["seq"])
            live = LiveEncounter.open(ro, "Fight")
            seq = live.session.seq
            assert seq >= max(floor, last_seq), (seq, floor, last_seq)
            assert live.encounter.round >= last_round
            last_seq = seq
            seen.append((seq, digest(live.encounter)))
            for label, _created in ro.save_points("Fight"):
                point = ro.load_save_point("Fight", label)
                assert point["seq"] >= last_points[label]
                last_points[label] = point["seq"]
                kept = Session.from_dict(point["session"]).encounter
                seen.append((point["seq"], digest(kept)))
            assert ro.take_notices() == []  # a writer's ordinary work is not news

        # Until the reader has read across 15 snapshots and checked the
        # folder 8 times: how long that takes depends on the machine, so it
        # is a goal (the deadline only stops a hang).
        deadline = time.monotonic() + 120
        rounds = 0
        while (len(snapshots) < 15 or frozen_checks < 8) and time.monotonic() < deadline:
            rounds += 1
            read_everything()
            if rounds % 5 == 0:
                writer.send_signal(signal.SIGSTOP)
                try:
                    stopped(writer.pid)
                    before = tree(tmp_path)
                    for _ in range(3):
                        read_everything()
                    assert tree(tmp_path) == before, "the reader changed a file"
                    frozen_checks += 1
                finally:
                    writer.send_signal(signal.SIGCONT)
        ro.close()
        assert writer.poll() is None, writer.stderr.read() if writer.stderr else ""
        assert len(snapshots) >= 15, f"the reader read across {len(snapshots)} snapshots only"
        assert frozen_checks >= 8
    finally:
        writer.kill()
        writer.wait(timeout=30)
        follower.join(timeout=30)
    # Every state the reader saw is the writer's at that step (a step saved
    # just before the kill may not have had its "ok" printed).
    top = max(digests)
    assert all(seq <= top + 1 for seq, _ in seen)
    wrong = [(seq, d) for seq, d in seen if seq in digests and digests[seq] != d]
    assert not wrong, f"half-written or wrong states seen: {wrong[:5]}"
    assert len(seen) > 100


def test_a_reader_follows_what_the_writer_saved_after_it_opened_the_fight(
    tmp_path: Path,
) -> None:
    db = tmp_path / "encounters.json"
    live, _ = make_fight(db)
    live.save_point("Start")
    assert live.store is not None
    with Store(db, read_only=True) as ro:
        LiveEncounter.open(ro, "Fight")
        assert [label for label, _ in ro.save_points("Fight")] == ["Start"]
        live.do("next")
        live.save_point("After")
        live.compact()
        # The reader had the fight open: it still sees the new save point.
        assert {label for label, _ in ro.save_points("Fight")} == {"Start", "After"}
        assert ro.load_save_point("Fight", "after")["seq"] == live.session.seq
        assert LiveEncounter.open(ro, "Fight").session.seq == live.session.seq
        assert ro.list()[0].save_points == 2
        assert ro.notices == []
    live.store.close()


def test_every_change_through_a_read_only_store_is_refused_with_one_clear_message(
    tmp_path: Path,
) -> None:
    db = tmp_path / "encounters.json"
    writer, _ = make_fight(db, 3)
    writer.save_point("Start")
    writer.close()
    assert writer.store is not None
    writer.store.close()
    before = tree(tmp_path)
    message = (
        r"^Cannot {}: the database .*encounters\.json was opened read-only "
        r"\(to look at it while a tracker has it open\)\.$"
    )
    with Store(db, read_only=True) as ro:
        live = LiveEncounter.open(ro, "Fight")
        seq, state = live.session.seq, digest(live.encounter)
        snap, summary = live.snapshot(), summary_of(live.session)
        attempts = [
            (
                "save the new encounter 'New'",
                lambda: ro.create("New", {"encounter": live.encounter.to_dict()}, snap, summary),
            ),
            (
                "save an action of 'Fight'",
                lambda: ro.append("Fight", seq + 1, {"step": {}}, summary),
            ),
            ("save the state of 'Fight'", lambda: ro.compact("Fight", snap, summary, seq)),
            (
                "save the save point 'Later' of 'Fight'",
                lambda: ro.save_point("Fight", "Later", snap, summary, seq),
            ),
            ("delete 'Fight'", lambda: ro.delete("Fight")),
            # The same through the live encounter and a restore.
            ("save an action of 'Fight'", lambda: live.do("next")),
            ("save the state of 'Fight'", live.compact),
            ("save the save point 'Later' of 'Fight'", lambda: live.save_point("Later")),
            (
                "save the new encounter 'Fight (Start)'",
                lambda: restore_save_point(ro, "Fight", "Start"),
            ),
        ]
        for doing, attempt in attempts:
            with pytest.raises(DatabaseReadOnly, match=message.format(re.escape(doing))):
                attempt()
        # The refused action was rolled back: what the reader shows is the file.
        assert (live.session.seq, digest(live.encounter)) == (seq, state)
        assert close_live(live) is None and not live.compaction_due
        assert [s.name for s in ro.list()] == ["Fight"]
        assert ro.notices == []
    assert issubclass(DatabaseReadOnly, SaveError)
    assert tree(tmp_path) == before


def test_a_read_only_store_on_a_database_that_does_not_exist_creates_nothing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "not" / "yet" / "encounters.json"
    with Store(db, read_only=True) as ro:
        assert ro.list() == [] and not ro.exists("Fight")
        with pytest.raises(EncounterNotFound):
            LiveEncounter.open(ro, "Fight")
        with pytest.raises(DatabaseReadOnly):
            LiveEncounter.create(ro, "Fight")
        assert ro.notices == []
    assert list(tmp_path.iterdir()) == []


def test_a_damaged_catalogue_is_read_from_the_folders_in_memory_and_left_as_it_is(
    tmp_path: Path,
) -> None:
    db = tmp_path / "encounters.json"
    live, digests = make_fight(db, 6)
    live.save_point("Start")
    assert live.store is not None
    other = LiveEncounter.create(live.store, "Other", actions=["add Kobold hp 5"])
    live.close()
    live.store.close()
    raw = bytearray(db.read_bytes())
    raw[len(raw) // 2] ^= 0x01  # one flipped bit: the checksum fails
    db.write_bytes(bytes(raw))
    before = tree(tmp_path)

    with Store(db, read_only=True) as ro:
        notices = ro.take_notices()
        assert f"The database file {db} is damaged" in notices[0]
        assert "Opened read-only, so it was left as it is" in notices[0]
        assert any("Read encounter 'Fight'" in n for n in notices), notices
        assert {s.name: s.save_points for s in ro.list()} == {"Fight": 1, "Other": 0}
        fight = LiveEncounter.open(ro, "Fight")
        assert digest(fight.encounter) == digests[fight.session.seq] == digests[max(digests)]
        assert digest(LiveEncounter.open(ro, "Other").encounter) == digest(other.encounter)
        assert [label for label, _ in ro.save_points("Fight")] == ["Start"]
        assert ro.load_save_point("Fight", "start")["seq"] == max(digests)
        assert ro.take_notices() == []  # said once, though every call reads the catalogue
    assert tree(tmp_path) == before
    assert not list(tmp_path.glob("*corrupt*"))

    # The next writer moves the damaged file aside and rebuilds the list.
    with Store(db) as store:
        said = " ".join(store.take_notices())
        assert "was moved to" in said and "Recovered encounter 'Fight'" in said
        assert {s.name for s in store.list()} == {"Fight", "Other"}
    assert len(list(tmp_path.glob("encounters.json.corrupt-*"))) == 1


def test_a_damaged_steps_file_is_left_to_the_writer_that_repairs_it(tmp_path: Path) -> None:
    """Damage in the middle of the steps, after the snapshot: the reader
    shows the steps before it and changes nothing; the next writer keeps
    those steps, keeps the damaged file beside it and goes on."""
    db = tmp_path / "encounters.json"
    live, digests = make_fight(db, 4)  # steps 1-3 the setup, 4-7 actions
    live.compact()  # the snapshot covers step 7
    assert live.store is not None
    for _ in range(5):
        step = live.do("damage Ogre 1")
        digests[step.seq] = digest(live.encounter)
    live.store.close()  # as a kill would: no compaction on the way out
    (folder,) = Path(f"{db}.d").iterdir()
    steps = folder / "steps.jsonl"
    lines = steps.read_bytes().splitlines(keepends=True)
    assert len(lines) == 13
    bad = bytearray(lines[9])
    bad[len(bad) // 2] ^= 0x01  # one flipped bit: the checksum fails
    lines[9] = bytes(bad)
    damaged = b"".join(lines)
    steps.write_bytes(damaged)
    before = tree(tmp_path)

    with Store(db, read_only=True) as ro:
        fight = LiveEncounter.open(ro, "Fight")
        assert fight.session.seq == 8 and digest(fight.encounter) == digests[8]
        (notice,) = ro.take_notices()
        assert f"The steps file {steps} is damaged from action 9 on" in notice
        assert "opened read-only, so it was left as it is" in notice
        assert "the 8 actions before it are shown" in notice
    assert tree(tmp_path) == before

    with Store(db) as store:
        fight = LiveEncounter.open(store, "Fight")
        assert fight.session.seq == 8 and digest(fight.encounter) == digests[8]
        (notice,) = store.take_notices()
        assert "the 8 actions before it were kept" in notice
        (aside,) = folder.glob("steps.jsonl.corrupt-*")
        assert str(aside) in notice
        assert aside.read_bytes() == damaged
        assert steps.read_bytes() == b"".join(lines[:9])
        step = fight.do("next")
        assert step.seq == 9
        nine = digest(fight.encounter)
    with Store(db, read_only=True) as ro:
        fight = LiveEncounter.open(ro, "Fight")
        assert (fight.session.seq, digest(fight.encounter)) == (9, nine)
        assert ro.take_notices() == []
