"""The store (issue 10): encounters are created, listed, resumed, saved
step by step, given save points and deleted — and the files they live in
are plain enough to read with stock TinyDB."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
import tinydb

from saves import EncounterExists, EncounterNotFound, SaveError, Store
from saves.errors import DatabaseReadOnly, SavePointExists, SavePointNotFound
from saves.live import LiveEncounter, open_store
from saves.migrations import SCHEMA_VERSION
from tracker.restore import restore_save_point

CAST = ["add Ogre hp 40 al 11 init 8", "add Mira player hp 30 init 15"]


def new_fight(store: Store, name: str = "Bridge", steps: int = 0) -> LiveEncounter:
    live = LiveEncounter.create(store, name, rng=random.Random(3), actions=CAST)
    if steps:
        live.do("start")
    for i in range(steps - 1):
        live.do("damage Ogre 1" if i % 2 else "next")
    return live


def folder(db: Path, name: str = "Bridge") -> Path:
    with open_store(db, read_only=True) as store:
        return store.folder(store.catalogue.by_key[name.casefold()]["id"])


def test_a_fight_resumes_exactly_as_it_was_left(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    with open_store(db) as store:
        live = new_fight(store, steps=9)
        live.set_ui_state(selected="Ogre", marked=["Mira"])
        live.close()
        kept = (live.encounter, list(live.log), live.ui_state)
    with open_store(db) as store:
        again = LiveEncounter.open(store, "bridge")
        assert (again.encounter, list(again.log), again.ui_state) == kept
        assert again.undo().action["verb"] == "undo"


def test_each_step_is_on_disk_before_do_returns(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    with open_store(db) as store:
        live = new_fight(store, steps=3)
        step = live.do("damage Ogre 7")
        steps = (folder(db) / "steps.jsonl").read_bytes().splitlines()
        assert len(steps) == step.seq + 1  # line 0 creates the encounter
        assert json.loads(steps[-1])["seq"] == step.seq
        # a reader sees it at once, without the writer closing anything
        with open_store(db, read_only=True) as reader:
            seen = LiveEncounter.open(reader, "Bridge")
            assert seen.encounter == live.encounter


def test_saving_a_step_touches_only_its_steps_file(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    with open_store(db) as store:
        live = new_fight(store, steps=2)
        new_fight(store, "Crypt", steps=2)
        before = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()}
        live.do("damage Ogre 3")
        after = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()}
        assert {p.name for p in after if after[p] != before.get(p)} == {"steps.jsonl"}


def test_names_ignore_case_and_are_unique(tmp_path: Path) -> None:
    with open_store(tmp_path / "e.json") as store:
        new_fight(store, "Goblin Ambush")
        assert store.exists("goblin ambush") and store.exists("  GOBLIN AMBUSH ")
        with pytest.raises(EncounterExists, match="already exists"):
            new_fight(store, "GOBLIN ambush")
        with pytest.raises(EncounterNotFound, match="No saved encounter is named 'Nope'"):
            LiveEncounter.open(store, "Nope")
        with pytest.raises(SaveError, match="non-empty"):
            store.exists("  ")


def test_list_shows_the_latest_state_newest_first(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    with open_store(db) as store:
        old = new_fight(store, "Old", steps=2)
        new_fight(store, "New", steps=5)
        assert [s.name for s in store.list()] == ["New", "Old"]
        old.do("next")
        old.do("next")
        old.do("next")
        first = store.list()[0]
        assert first.round == old.encounter.round > 1
        assert (first.name, first.active) == ("Old", old.encounter.active.name)


def test_save_points_are_kept_listed_refused_twice_and_restored(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    with open_store(db) as store:
        live = new_fight(store, steps=5)
        live.save_point("Before the ogre")
        with pytest.raises(SavePointExists, match="already has a save point"):
            live.save_point("before THE ogre")
        at_save = (live.encounter, live.full_log())
        live.do("damage Ogre 30")
        live.save_point("Before the ogre", replace=True)  # replaced, not added
        live.save_point("later")
        assert [label for label, _ in store.save_points("Bridge")] == ["later", "Before the ogre"]
        live.close()
    with open_store(db) as store:
        assert store.list()[0].save_points == 2
        with pytest.raises(SavePointNotFound):
            store.load_save_point("Bridge", "nope")
        live = LiveEncounter.open(store, "Bridge")
        live.undo()
        live.save_point("rewound")
        name = restore_save_point(store, "Bridge", "rewound")
        restored = LiveEncounter.open(store, name)
        assert (restored.encounter.name, name) == ("Bridge (rewound)", "Bridge (rewound)")
        assert restored.full_log() == at_save[1]
        undone = 0
        while restored.can_undo:  # the history before the save point came along
            restored.undo()
            undone += 1
        assert undone == 7 and restored.encounter.combatants == ()
        (ogre,) = [
            c for c in LiveEncounter.open(store, "Bridge").encounter.combatants if c.name == "Ogre"
        ]
        assert ogre.hp == 40 - 2  # the original is as it was left (its undo kept)


def test_delete_removes_the_encounter_and_its_files(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    with open_store(db) as store:
        new_fight(store, steps=3).save_point("x")
        new_fight(store, "Crypt")
        path = folder(db)
        store.delete("BRIDGE")
        assert not path.exists() and [s.name for s in store.list()] == ["Crypt"]
        with pytest.raises(EncounterNotFound):
            store.delete("Bridge")
    with open_store(db) as store:
        assert [s.name for s in store.list()] == ["Crypt"] and store.take_notices() == []
    assert sorted(p.name for p in Path(f"{db}.d").iterdir()) == [folder(db, "Crypt").name]


def test_the_files_are_plain_tinydb_and_hold_what_show_shows(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    with open_store(db) as store:
        live = new_fight(store, steps=4)
        live.close()
        shown = [(c.name, c.hp) for c in live.encounter.combatants]
    catalogue = tinydb.TinyDB(db)
    (entry,) = catalogue.table("encounters").all()
    assert (entry["name"], entry["schema"]) == ("Bridge", SCHEMA_VERSION)
    state = tinydb.TinyDB(folder(db) / "state.json")
    (snapshot,) = state.table("snapshot").all()
    combatants = snapshot["session"]["encounter"]["combatants"]
    assert [(c["name"], c["hp"]) for c in combatants] == shown
    assert snapshot["seq"] == 4 + len(CAST) - 1 + 1 and snapshot["schema"] == SCHEMA_VERSION


def test_a_symlinked_database_is_followed_everywhere(tmp_path: Path) -> None:
    real = tmp_path / "real" / "encounters.json"
    real.parent.mkdir()
    with open_store(real) as store:
        new_fight(store, steps=2)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    with open_store(link) as store:
        new_fight(store, "Crypt")
        assert [s.name for s in store.list()] == ["Crypt", "Bridge"]
    assert link.is_symlink() and not Path(f"{link}.d").exists()
    with open_store(real) as store:
        assert len(store.list()) == 2


def test_a_file_that_is_not_a_tracker_database_is_refused_untouched(tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    notes.write_text('{"shopping": ["milk"]}')
    with pytest.raises(SaveError, match="is not a combat-tracker database; nothing was changed"):
        Store(notes)
    assert notes.read_text() == '{"shopping": ["milk"]}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.json"]  # not even a lock


def test_read_only_store_refuses_every_change_and_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    with open_store(db, read_only=True) as store:
        assert store.list() == []
        with pytest.raises(DatabaseReadOnly, match="read-only"):
            new_fight(store)
    assert list(tmp_path.iterdir()) == []


def test_a_directory_as_database_and_a_closed_store_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="is a directory"):
        Store(tmp_path)
    store = Store(tmp_path / "e.json")
    store.close()
    with pytest.raises(SaveError, match="has been closed"):
        store.list()


def test_the_default_path_honours_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from saves.store import default_db_path

    monkeypatch.setenv("COMBAT_TRACKER_DB", str(tmp_path / "x.json"))
    assert default_db_path() == tmp_path / "x.json"
    monkeypatch.delenv("COMBAT_TRACKER_DB")
    assert default_db_path().name == "encounters.json"
    assert os.fspath(default_db_path()).count("combat-tracker") == 1


def test_a_hand_edited_blank_label_restores_as_it_is_listed(tmp_path: Path) -> None:
    # a label only of whitespace is listed as it is (trimmed, it would be
    # nothing); the picker hands that label back, and it must find the
    # save point rather than say "the label must be a non-empty text"
    from saves.seal import seal
    from saves.storage import parse_tables

    db = tmp_path / "e.json"
    with open_store(db) as store:
        live = new_fight(store, steps=3)
        live.save_point("before")
        live.close()
    (state,) = folder(db).glob("state.json")
    tables = parse_tables(state.read_bytes())
    for point in tables["save_points"].values():
        point["label"] = " \t "
    state.write_bytes(seal(tables, "test") + b"\n")
    with open_store(db) as store:
        (listed,) = [label for label, _ in store.save_points("Bridge")]
        assert listed == " \t "
        name = restore_save_point(store, "Bridge", listed, "Again")
        assert LiveEncounter.open(store, name).encounter.round == 1
        # a blank label that names no save point is still refused as blank
        with pytest.raises(SaveError, match="must be a non-empty text"):
            store.load_save_point("Bridge", "  ")
