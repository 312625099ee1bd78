"""What an adversary's pass over the new saves found (issue 10), each kept
as a test: hand-edited files that still pass their checksum, planted
FIFOs and links, files of one encounter passed off as another's or as the
catalogue — one clear message or a repair with a notice, never a crash,
a hang or a lost acknowledged action."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from saves import SaveError, Store
from saves.live import LiveEncounter, open_store
from saves.seal import seal, unseal
from saves.storage import parse_tables

CAST = ["add Ogre hp 40 al 11 init 8", "add Mira player hp 30 init 15"]


def fight(db: Path, name: str = "Bridge", steps: int = 6) -> LiveEncounter:
    with open_store(db) as store:
        live = LiveEncounter.create(store, name, rng=random.Random(3), actions=CAST)
        live.do("start")
        for i in range(steps - 1):
            live.do("damage Ogre 1" if i % 2 else "next")
        live.close()
        return live


def folder(db: Path, name: str = "Bridge") -> Path:
    with open_store(db, read_only=True) as store:
        return store.folder(store.catalogue.by_key[name.casefold()]["id"])


def test_a_sealed_step_that_does_not_replay_is_cut_with_a_copy_kept(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    live = fight(db)
    steps = folder(db) / "steps.jsonl"
    last = unseal(steps.read_bytes().splitlines()[-1])
    lie = dict(last, seq=last["seq"] + 1)
    lie["record"] = {"step": {**last["record"]["step"], "seq": lie["seq"]}}
    lie["record"]["step"]["before"] = {"combatants": {"Ogre": {"hp": 999}}}
    before = steps.read_bytes()
    steps.write_bytes(before + seal(lie) + b"\n")
    with open_store(db) as store:
        resumed = LiveEncounter.open(store, "Bridge")
        notice = " ".join(store.take_notices())
        assert "does not replay from action" in notice and "kept as" in notice
        assert resumed.encounter == live.encounter
        resumed.do("next")  # the next step follows the ones kept
    assert steps.read_bytes().startswith(before)
    assert len(list(steps.parent.glob("steps.jsonl.corrupt-*"))) == 1


def test_the_snapshots_own_line_damaged_still_opens_the_fight(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    live = fight(db)
    steps = folder(db) / "steps.jsonl"
    lines = steps.read_bytes().splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b"Ogre", b"Ogrf", 1)  # the line the snapshot ends on
    steps.write_bytes(b"".join(lines))
    with open_store(db) as store:
        resumed = LiveEncounter.open(store, "Bridge")
        (notice,) = store.take_notices()
        assert "is damaged" in notice and "undo cannot go back past that action" in notice
        assert resumed.encounter == live.encounter
        assert store.save_points("Bridge") == []  # and nothing was thrown away


@pytest.mark.parametrize("which", ["steps.jsonl", "state.json"])
def test_an_encounters_own_file_as_the_database_is_refused_untouched(
    tmp_path: Path, which: str
) -> None:
    db = tmp_path / "e.json"
    fight(db)
    target = folder(db) / which
    before = sorted(p.name for p in target.parent.iterdir()), target.read_bytes()
    with pytest.raises(SaveError, match="is not a combat-tracker database; nothing was changed"):
        Store(target)
    assert (sorted(p.name for p in target.parent.iterdir()), target.read_bytes()) == before


def test_a_reader_never_lists_an_encounter_whose_folder_is_gone(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    fight(db, "Bridge")
    fight(db, "Crypt")
    gone = folder(db, "Bridge")
    gone.rename(gone.with_name(f".deleted-{gone.name}"))  # a delete the list never heard of
    with open_store(db, read_only=True) as reader:
        assert [s.name for s in reader.list()] == ["Crypt"] and reader.take_notices() == []


@pytest.mark.parametrize("which", ["steps.jsonl", "state.json"])
def test_a_planted_fifo_never_hangs_the_tracker(tmp_path: Path, which: str) -> None:
    db = tmp_path / "e.json"
    fight(db)
    path = folder(db) / which
    path.unlink()
    os.mkfifo(path)
    with open_store(db, read_only=True) as reader:
        reader.list()
        if which == "steps.jsonl":
            with pytest.raises(SaveError, match="not a regular file"):
                LiveEncounter.open(reader, "Bridge")
        else:  # no snapshot to read: the fight is rebuilt from its steps
            assert LiveEncounter.open(reader, "Bridge").encounter.combatants


def test_a_planted_link_to_dev_zero_is_not_read(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    live = fight(db)
    state = folder(db) / "state.json"
    state.unlink()
    state.symlink_to("/dev/zero")
    with open_store(db) as store:  # rebuilt from the steps, the link moved aside
        assert LiveEncounter.open(store, "Bridge").encounter == live.encounter


def test_a_save_point_of_another_encounter_is_not_offered(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    with open_store(db) as store:
        for name in ("Bridge", "Crypt"):
            LiveEncounter.create(store, name, actions=CAST).save_point("before")
    bridge, crypt = folder(db, "Bridge") / "state.json", folder(db, "Crypt") / "state.json"
    theirs = parse_tables(crypt.read_bytes())["save_points"]["1"]
    tables = parse_tables(bridge.read_bytes())
    tables["save_points"]["2"] = {**theirs, "label": "planted", "key": "planted"}
    bridge.write_bytes(seal(tables) + b"\n")
    with open_store(db) as store:
        assert [label for label, _ in store.save_points("Bridge")] == ["before"]
        assert "belongs to another encounter" in " ".join(store.take_notices())


def test_a_hard_linked_steps_file_is_never_written_through(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    fight(db, "Bridge")
    fight(db, "Crypt")
    bridge, crypt = folder(db, "Bridge") / "steps.jsonl", folder(db, "Crypt") / "steps.jsonl"
    crypt.unlink()
    os.link(bridge, crypt)
    before = bridge.read_bytes()
    with open_store(db) as store, pytest.raises(SaveError, match="belong to another encounter"):
        LiveEncounter.open(store, "Crypt")
    assert bridge.read_bytes() == before


@pytest.mark.parametrize("ui", ["ab", [["players_view", 1, 2]], 7, None])
def test_a_steps_ui_state_that_is_not_an_object_is_dropped(tmp_path: Path, ui: object) -> None:
    # the UI state (the players' view link among it) rides with each step:
    # a hand-edited one that still passes its checksum must not stop the
    # fight from opening
    db = tmp_path / "e.json"
    with open_store(db) as store:
        live = LiveEncounter.create(store, "Bridge", rng=random.Random(3), actions=CAST)
        live.set_ui_state(players_view={"token": "t" * 22, "on": True})
        live.do("start")
        live.close()
    steps = folder(db) / "steps.jsonl"
    *kept, last = steps.read_bytes().splitlines()
    doc = unseal(last)
    doc.pop("crc", None)
    doc["record"] = {**doc["record"], "ui": ui}
    steps.write_bytes(b"\n".join([*kept, seal(doc)]) + b"\n")
    with open_store(db) as store:
        resumed = LiveEncounter.open(store, "Bridge")
        assert resumed.encounter == live.encounter
        assert "players_view" not in resumed.ui_state or isinstance(
            resumed.ui_state["players_view"], dict
        )
        resumed.close()
