"""Recovery (issue 10): torn writes, damaged files, a full disk and a
catalogue that lies never cost the GM an acknowledged action, never write
into another encounter's files, and what was done is said in one sentence."""

from __future__ import annotations

import errno
import os
import random
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import saves.step_lines
import saves.steps
import saves.storage
from saves import SaveError, Store
from saves.errors import NewerSchema
from saves.live import LiveEncounter, close_live, open_store
from saves.seal import seal
from saves.steps import StepsFile
from saves.storage import parse_tables

CAST = ["add Ogre hp 40 al 11 init 8", "add Mira player hp 30 init 15"]


def fight(db: Path, name: str = "Bridge", steps: int = 6, close: bool = True) -> LiveEncounter:
    with open_store(db) as store:
        live = LiveEncounter.create(store, name, rng=random.Random(3), actions=CAST)
        live.do("start")
        for i in range(steps - 1):
            live.do(f"damage Ogre {i % 3 + 1}" if i % 2 else "next")
        if close:
            live.close()
        return live


def folder(db: Path, name: str = "Bridge") -> Path:
    for path in Path(f"{db}.d").iterdir():
        first = (path / "steps.jsonl").read_bytes().split(b"\n", 1)[0]
        if saves.step_lines.decode(first).record["name"] == name:
            return path
    raise AssertionError(name)


def reopen(db: Path, name: str = "Bridge") -> tuple[LiveEncounter, list[str]]:
    store = open_store(db)
    live = LiveEncounter.open(store, name)
    notices = store.take_notices()
    store.close()
    return live, notices


def edit_tables(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    tables = parse_tables(path.read_bytes())
    change(tables)
    path.write_bytes(seal(tables, "test") + b"\n")


def full_disk(*_: Any, **__: Any) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


# --- the steps file -----------------------------------------------------------


@pytest.mark.parametrize(
    "tear",
    [
        pytest.param(lambda line: line[: len(line) // 2], id="half-a-line"),
        pytest.param(lambda line: b"\0" * 4096, id="zero-filled-block"),
        pytest.param(lambda line: line[:-1], id="no-newline"),
    ],
)
def test_a_torn_last_line_is_ignored_and_cut_before_the_next_step(
    tmp_path: Path, tear: Callable[[bytes], bytes]
) -> None:
    db = tmp_path / "e.json"
    kept = fight(db, steps=4)
    steps = folder(db) / "steps.jsonl"
    lines = steps.read_bytes().splitlines(keepends=True)
    torn = lines[-1].replace(b'"seq":5', b'"seq":6')  # a step never acknowledged
    steps.write_bytes(b"".join(lines) + tear(torn))
    live, notices = reopen(db)
    assert notices == [] and live.encounter == kept.encounter
    with open_store(db) as store:
        LiveEncounter.open(store, "Bridge").do("next")
    assert steps.read_bytes().startswith(b"".join(lines))
    assert len(steps.read_bytes().splitlines()) == len(lines) + 1


def test_a_whole_last_line_that_fails_its_checksum_is_damage_not_a_torn_write(
    tmp_path: Path,
) -> None:
    db = tmp_path / "e.json"
    fight(db, steps=4)  # snapshot at step 6
    with open_store(db) as store:
        again = LiveEncounter.open(store, "Bridge")
        again.do("damage Ogre 1")
        again.do("damage Ogre 1")  # steps 7 and 8, acknowledged
    steps = folder(db) / "steps.jsonl"
    lines = steps.read_bytes().splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b"Ogre", b"Ogrf", 1)  # a flipped bit, not a torn write
    steps.write_bytes(b"".join(lines))
    resumed, notices = reopen(db)
    (notice,) = notices
    assert "damaged from action 8 on" in notice and "kept as" in notice
    (aside,) = steps.parent.glob("steps.jsonl.corrupt-*")
    assert aside.read_bytes() == b"".join(lines)
    assert resumed.session.seq == 7


def test_damage_in_the_middle_keeps_every_step_before_it_and_the_damaged_file(
    tmp_path: Path,
) -> None:
    db = tmp_path / "e.json"
    live = fight(db, steps=4)  # snapshot at step 6
    with open_store(db) as store:
        again = LiveEncounter.open(store, "Bridge")
        for _ in range(4):
            again.do("damage Ogre 1")  # steps 7-10, after the snapshot
    steps = folder(db) / "steps.jsonl"
    lines = steps.read_bytes().splitlines(keepends=True)
    lines[8] = lines[8].replace(b"Ogre", b"Ogrf", 1)  # step 8 of 10
    steps.write_bytes(b"".join(lines))
    resumed, notices = reopen(db)
    (notice,) = notices
    assert "damaged from action 8 on" in notice and "the 7 actions before it were kept" in notice
    assert [c.hp for c in resumed.encounter.combatants if c.name == "Ogre"] == [
        [c.hp for c in live.encounter.combatants if c.name == "Ogre"][0] - 1
    ]
    (aside,) = steps.parent.glob("steps.jsonl.corrupt-*")
    assert aside.read_bytes() == b"".join(lines)
    assert len(steps.read_bytes().splitlines()) == 8


def test_a_damaged_snapshot_is_rebuilt_from_the_steps_and_listed_normally(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    live = fight(db, steps=8)
    with open_store(db) as store:
        LiveEncounter.open(store, "Bridge").save_point("before")
    state = folder(db) / "state.json"
    raw = bytearray(state.read_bytes())
    raw[len(raw) // 2] ^= 0x01  # one flipped bit
    state.write_bytes(bytes(raw))
    with open_store(db) as store:
        assert store.list()[0].round == live.encounter.round  # the steps file's tail
    resumed, notices = reopen(db)
    (notice,) = notices
    assert "was unusable" in notice and "rebuilt from its 10 saved actions" in notice
    assert "moved to" in notice and "with its save points" in notice
    assert resumed.encounter == live.encounter and resumed.full_log() == live.full_log()
    (aside,) = state.parent.glob("state.json.corrupt-*")
    assert aside.read_bytes() == bytes(raw)
    again, notices = reopen(db)  # the rebuilt snapshot was written on close
    assert notices == [] and again.encounter == live.encounter


def test_a_folder_holding_another_encounters_files_is_never_written(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    fight(db, "Bridge")
    fight(db, "Crypt")
    bridge, crypt = folder(db, "Bridge"), folder(db, "Crypt")
    (crypt / "state.json").unlink()
    (crypt / "steps.jsonl").write_bytes((bridge / "steps.jsonl").read_bytes())
    before = (bridge / "steps.jsonl").read_bytes()
    with open_store(db) as store:
        with pytest.raises(SaveError, match="belong to another encounter"):
            LiveEncounter.open(store, "Crypt")
        LiveEncounter.open(store, "Bridge").do("next")
    assert (bridge / "steps.jsonl").read_bytes().startswith(before)
    assert (crypt / "steps.jsonl").read_bytes() == before


def test_an_unreadable_steps_file_is_named_as_that_file(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    fight(db)
    steps = folder(db) / "steps.jsonl"
    steps.unlink()
    steps.mkdir()
    with open_store(db) as store:
        (shown,) = store.list()
        (notice,) = store.take_notices()
        assert f"Cannot read {steps}" in notice and "is shown as it was at" in notice
        with pytest.raises(SaveError, match=f"Cannot open {steps}"):
            LiveEncounter.open(store, "Bridge")


# --- a full disk ---------------------------------------------------------------


def test_a_step_that_cannot_be_saved_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "e.json"
    fight(db)
    steps = folder(db) / "steps.jsonl"
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Bridge")
        before, size = live.encounter, steps.stat().st_size
        real = saves.steps.write_all

        def half_then_full(fd: int, data: bytes) -> None:
            real(fd, data[: len(data) // 2])
            full_disk()

        monkeypatch.setattr(saves.steps, "write_all", half_then_full)
        with pytest.raises(SaveError, match="could not be saved .*No space left on device"):
            live.do("damage Ogre 5")
        assert live.encounter == before and steps.stat().st_size == size
        monkeypatch.setattr(saves.steps, "write_all", real)
        live.do("damage Ogre 5")  # space is back: the next step is saved
        after = live.encounter
    resumed, notices = reopen(db)
    assert notices == [] and resumed.encounter == after


def test_closing_on_a_full_disk_is_one_line_and_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "e.json"
    fight(db)
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Bridge")
        live.do("damage Ogre 4")
        monkeypatch.setattr(saves.storage, "atomic_write", full_disk)
        note = close_live(live)
        assert note is not None and "No space left on device" in note and "\n" not in note
        assert "Every action is saved" in note
        monkeypatch.undo()
        kept = live.encounter
    assert reopen(db)[0].encounter == kept


def test_delete_works_on_a_full_disk_and_the_encounter_never_comes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "e.json"
    fight(db, "Bridge")
    fight(db, "Crypt")
    path = folder(db, "Bridge")
    with open_store(db) as store:
        monkeypatch.setattr(saves.storage, "atomic_write", full_disk)
        store.delete("Bridge")  # frees space, even though the list cannot be rewritten
        assert not path.exists() and [s.name for s in store.list()] == ["Crypt"]
        assert "tidied the next time" in store.take_notices()[0]
        monkeypatch.undo()
    with open_store(db) as store:
        assert [s.name for s in store.list()] == ["Crypt"] and store.take_notices() == []
        assert not store.exists("Bridge")
    assert sorted(p.name for p in Path(f"{db}.d").iterdir()) == [folder(db, "Crypt").name]


@pytest.mark.parametrize("fault", [KeyboardInterrupt, OSError], ids=["ctrl-c", "disk-error"])
def test_a_new_encounter_is_made_all_or_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: type[BaseException]
) -> None:
    db = tmp_path / "e.json"
    fight(db, "Crypt")

    def interrupted(*_: Any, **__: Any) -> None:
        raise fault(errno.EIO, "Input/output error") if fault is OSError else fault()

    monkeypatch.setattr(saves.state.StateFile, "write_snapshot", interrupted)
    with open_store(db) as store, pytest.raises((SaveError, KeyboardInterrupt)):
        LiveEncounter.create(store, "Bridge", actions=CAST * 1)
    monkeypatch.undo()
    with open_store(db) as store:
        assert [s.name for s in store.list()] == ["Crypt"] and store.take_notices() == []
    assert sorted(p.name for p in Path(f"{db}.d").iterdir()) == [folder(db, "Crypt").name]


# --- the catalogue ---------------------------------------------------------------


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda raw: raw[: len(raw) // 2], id="truncated"),
        pytest.param(lambda raw: raw.replace(b"Bridge", b"Bridgf"), id="bad-crc"),
        pytest.param(lambda raw: b"\xff\xfe garbage", id="garbage"),
        pytest.param(lambda raw: b'{"encounters": {"1": {"name": "x"}}}', id="hand-written"),
    ],
)
def test_a_damaged_catalogue_is_moved_aside_and_rebuilt_from_the_folders(
    tmp_path: Path, damage: Callable[[bytes], bytes]
) -> None:
    db = tmp_path / "e.json"
    bridge = fight(db, "Bridge", steps=5)
    with open_store(db) as store:
        LiveEncounter.open(store, "Bridge").save_point("x")
    fight(db, "Crypt", steps=2)
    db.write_bytes(damage(db.read_bytes()))
    with open_store(db) as store:
        notices = store.take_notices()
        assert (
            "was damaged" in notices[0] and "rebuilt from the encounters' own folders" in notices[0]
        )
        assert sorted(n.split("'")[1] for n in notices[1:]) == ["Bridge", "Crypt"]
        listed = {s.name: s for s in store.list()}
        assert listed["Bridge"].round == bridge.encounter.round
        assert listed["Bridge"].save_points == 1
        assert LiveEncounter.open(store, "Bridge").encounter == bridge.encounter
    assert len(list(tmp_path.glob("e.json.corrupt-*"))) == 1


def test_a_catalogue_from_a_newer_tracker_is_refused_and_left_alone(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    fight(db)
    edit_tables(db, lambda t: t["encounters"]["1"].update(schema=99))
    before = db.read_bytes()
    with pytest.raises(NewerSchema, match="newer combat-tracker"):
        Store(db)
    assert db.read_bytes() == before and not list(tmp_path.glob("e.json.corrupt-*"))


def test_the_catalogue_is_checked_not_trusted(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    fight(db, "Bridge")
    fight(db, "Crypt")

    def lie(tables: dict[str, Any]) -> None:
        docs = tables["encounters"]
        bridge = next(d for d in docs.values() if d["name"] == "Bridge")
        crypt = next(d for d in docs.values() if d["name"] == "Crypt")
        crypt["key"] = "not crypt"  # a key that does not match its name
        docs["3"] = {**bridge, "name": "Ghost"}  # a second entry naming Bridge's folder
        docs["4"] = {**crypt, "id": "nowhere-1234"}  # an entry whose folder is gone

    edit_tables(db, lie)
    with open_store(db) as store:
        notices = " ".join(store.take_notices())
        assert "listed the folder" in notices and "'Ghost'" in notices
        assert "was repaired" in notices and "are missing" in notices
        assert sorted(s.name for s in store.list()) == ["Bridge", "Crypt"]
        assert store.exists("crypt")


def test_a_folder_the_catalogue_does_not_list_is_adopted(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    crypt = fight(db, "Crypt", steps=3)
    fight(db, "Bridge")
    edit_tables(
        db,
        lambda t: t["encounters"].pop(
            next(k for k, d in t["encounters"].items() if d["name"] == "Crypt")
        ),
    )
    with open_store(db) as store:
        (notice,) = store.take_notices()
        assert "Recovered encounter 'Crypt'" in notice and "interrupted create" in notice
        assert LiveEncounter.open(store, "Crypt").encounter == crypt.encounter


def test_leftovers_of_a_crash_are_tidied_and_nothing_else_is_touched(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    fight(db)
    enc = folder(db)
    strays = [
        tmp_path / "e.json.tmp-99999",
        enc / "state.json.tmp-99999",
        Path(f"{db}.d") / ".new-half-made-1234" / "steps.jsonl",
        Path(f"{db}.d") / ".deleted-gone-1234" / "steps.jsonl",
    ]
    for stray in strays:
        stray.parent.mkdir(exist_ok=True)
        stray.write_bytes(b"leftover")
    mine = tmp_path / "my-notes.tmp-1"  # not the tracker's
    mine.write_bytes(b"keep me")
    with open_store(db) as store:
        assert store.take_notices() == [] and len(store.list()) == 1
    assert not any(
        s.exists() or s.parent.name.startswith(".") and s.parent.exists() for s in strays
    )
    assert mine.read_bytes() == b"keep me"


def test_temp_files_are_never_written_through_a_planted_link(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    fight(db)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    planted = folder(db) / f"state.json.tmp-{os.getpid()}"
    planted.symlink_to(victim)
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Bridge")
        live.do("next")
        live.close()
    assert victim.read_text() == "precious"


def test_steps_from_a_newer_tracker_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "steps.jsonl"
    StepsFile.create(
        path,
        saves.step_lines.origin_line("x-1", "X", "t", {"encounter": {}}).replace(
            b'"schema":1', b'"schema":7'
        ),
    )
    with pytest.raises(SaveError):
        StepsFile(path).open(None)


def nested_too_deeply(raw: bytes) -> bytes:
    """*raw* (one sealed document) with a member nested past the JSON
    parser's stack, sealed again: only a hand-made file looks like this."""
    body = b'{"x":' + b"[" * 100_000 + b"]" * 100_000 + b"," + raw.rstrip(b"\n")[18:]
    return b'{"crc":"%08x",' % zlib.crc32(body) + body[1:] + b"\n"


def test_a_sealed_catalogue_nested_too_deeply_is_rebuilt_not_a_crash(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    bridge = fight(db)
    db.write_bytes(nested_too_deeply(db.read_bytes()))
    with open_store(db) as store:
        notices = store.take_notices()
        assert "was damaged (nested too deeply to read)" in notices[0]
        assert LiveEncounter.open(store, "Bridge").encounter == bridge.encounter


def test_a_sealed_snapshot_nested_too_deeply_is_rebuilt_from_the_steps(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    bridge = fight(db)
    state = folder(db) / "state.json"
    state.write_bytes(nested_too_deeply(state.read_bytes()))
    resumed, notices = reopen(db)
    (notice,) = notices
    assert "was unusable (nested too deeply to read)" in notice
    assert resumed.encounter == bridge.encounter


def test_a_sealed_step_nested_too_deeply_is_damage_in_the_middle(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    fight(db)
    steps = folder(db) / "steps.jsonl"
    (folder(db) / "state.json").unlink()
    lines = steps.read_bytes().splitlines(keepends=True)
    lines[3] = nested_too_deeply(lines[3])
    steps.write_bytes(b"".join(lines))
    resumed, notices = reopen(db)
    assert "damaged from action 3 on (nested too deeply to read)" in notices[-1]
    assert sorted(c.name for c in resumed.encounter.combatants) == ["Mira", "Ogre"]  # steps 1, 2
    assert resumed.encounter.round == 0  # step 3, the start, was the damaged one
