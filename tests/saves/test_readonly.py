"""Read-only access (issue 3, Saves): while a GM has the tracker open, a
second terminal can list, show and export encounters.  A reader never waits
for or blocks a writer, never sees a half-written state, and never changes a
single file, even when it finds damage a writer would repair."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest

from saves import DatabaseLocked, DatabaseReadOnly, SaveError, Store

WRITER = Path(__file__).parents[1] / "fault" / "fault_writer.py"

# A writer process driven line by line: "create N", "append N ITEM",
# "compact N", "point N LABEL", "delete N", "close".  Answers "ok" or the error.
HOLDER = textwrap.dedent(
    """
    import sys
    from saves import SaveError, Store
    store = Store(sys.argv[1])
    items = {}
    def summary(name):
        return {"round": len(items[name]), "active": "Ogre", "combatants": 2, "started": True}
    print("ready", flush=True)
    for line in sys.stdin:
        cmd, name, *rest = line.split() + [""]
        try:
            if cmd == "create":
                items[name] = []
                store.create(name, {"items": []}, summary(name))
            elif cmd == "append":
                items[name].append(int(rest[0]))
                store.append(name, {"item": int(rest[0])}, summary(name))
            elif cmd == "compact":
                store.compact(name, {"items": list(items[name])}, summary(name))
            elif cmd == "point":
                store.save_point(name, rest[0], {"items": list(items[name])}, summary(name))
            elif cmd == "delete":
                store.delete(name)
            elif cmd == "close":
                store.close()
        except SaveError as exc:
            print(exc, flush=True)
            continue
        print("ok", flush=True)
    """
)

# A reader process: opens read-only and answers "load NAME" with the items.
READER = textwrap.dedent(
    """
    import json, sys
    from saves import Store
    store = Store(sys.argv[1], read_only=True)
    print("ready", flush=True)
    for line in sys.stdin:
        loaded = store.load(line.split()[1])
        items = list(loaded.snapshot["items"]) + [r["item"] for r in loaded.records]
        print(json.dumps({"items": items, "round": store.list()[0].round}), flush=True)
    """
)


class Process:
    """A helper process speaking one line per request."""

    def __init__(self, script: str, db: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", script, str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.readline() == "ready"

    def readline(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline().strip()

    def ask(self, line: str) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.readline()

    def do(self, *lines: str) -> None:
        for line in lines:
            assert self.ask(line) == "ok", line

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def summary(round_: int = 0) -> dict[str, Any]:
    return {"round": round_, "active": "Ogre", "combatants": 2, "started": True}


def history(loaded: Any) -> list[int]:
    return list(loaded.snapshot["items"]) + [r["item"] for r in loaded.records]


def make_fight(db: Path, n: int, name: str = "Fight") -> Path:
    """An encounter with actions 0..n-1; returns its directory."""
    folders = Path(f"{db}.d")
    before = set(folders.iterdir()) if folders.exists() else set()
    with Store(db) as s:
        s.create(name, {"items": []}, summary())
        for i in range(n):
            s.append(name, {"item": i}, summary(i))
    (d,) = set(folders.iterdir()) - before
    return d


def damage_line(journal: Path, index: int) -> None:
    lines = journal.read_bytes().splitlines(keepends=True)
    lines[index] = lines[index].replace(b'"item":', b'"itex":')
    journal.write_bytes(b"".join(lines))


def tree(root: Path) -> dict[str, tuple[bytes | None, int]]:
    """Every file and folder under ``root``: content and modification time."""
    return {
        str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
    }


# --- alongside a real writer process -------------------------------------------


def test_reader_sees_what_a_writer_process_saved_while_it_holds_the_lock(
    tmp_path: Path,
) -> None:
    db = tmp_path / "encounters.json"
    holder = Process(HOLDER, db)
    try:
        holder.do("create Fight", *(f"append Fight {i}" for i in range(3)), "point Fight Start")
        with pytest.raises(DatabaseLocked):
            Store(db)  # writing is still one process at a time
        with Store(db, read_only=True) as ro:
            assert ro.read_only
            (row,) = ro.list()
            assert (row.name, row.round, row.save_points) == ("Fight", 3, 1)
            assert ro.exists("fight")
            assert history(ro.load("Fight")) == [0, 1, 2]
            assert ro.load_save_point("Fight", "start") == {"items": [0, 1, 2]}

            # The writer carries on; the open reader follows, through a
            # compaction (the generation it read is deleted) and a new fight.
            holder.do("append Fight 3", "compact Fight", "append Fight 4", "create Other")
            assert history(ro.load("Fight")) == [0, 1, 2, 3, 4]
            assert {r.name: r.round for r in ro.list()} == {"Fight": 5, "Other": 0}
            holder.do("point Fight Start")  # the save point file is replaced
            assert ro.load_save_point("Fight", "Start") == {"items": [0, 1, 2, 3, 4]}
            holder.do("delete Other")
            assert [r.name for r in ro.list()] == ["Fight"]
            assert ro.notices == []  # a writer's ordinary work is not news
        assert Path(f"{db}.lock").read_text().strip() == str(holder.proc.pid)
        holder.do("append Fight 5")  # the reader never got in the writer's way
    finally:
        holder.stop()


def test_every_change_is_refused_with_one_clear_message(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 1)
    before = tree(tmp_path)
    with Store(db, read_only=True) as ro:
        attempts = [
            lambda: ro.create("New", {"items": []}, summary()),
            lambda: ro.append("Fight", {"item": 1}, summary()),
            lambda: ro.compact("Fight", {"items": [0]}, summary()),
            lambda: ro.save_point("Fight", "Start", {"items": [0]}, summary()),
            lambda: ro.delete("Fight"),
        ]
        for attempt in attempts:
            with pytest.raises(DatabaseReadOnly, match=r"the database .* was opened read-only"):
                attempt()
        with pytest.raises(DatabaseReadOnly, match="^Cannot delete 'Fight': "):
            ro.delete("Fight")
        assert history(ro.load("Fight")) == [0]
    assert tree(tmp_path) == before
    assert issubclass(DatabaseReadOnly, SaveError)


def test_a_writer_opens_and_saves_while_a_reader_process_has_the_database_open(
    tmp_path: Path,
) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 2)
    reader = Process(READER, db)
    try:
        with Store(db) as writer:  # no DatabaseLocked: readers hold no lock
            writer.load("Fight")
            writer.append("Fight", {"item": 2}, summary(7))
            assert json.loads(reader.ask("load Fight")) == {"items": [0, 1, 2], "round": 7}
            writer.compact("Fight", {"items": [0, 1, 2]}, summary(7))
            writer.append("Fight", {"item": 3}, summary(8))
            assert json.loads(reader.ask("load Fight")) == {"items": [0, 1, 2, 3], "round": 8}
    finally:
        reader.stop()


def test_reader_never_sees_a_half_written_state_while_a_writer_works_flat_out(
    tmp_path: Path,
) -> None:
    """The fault writer appends as fast as it can, compacting every 25
    actions and taking a save point every 40.  Every load the reader makes
    is a complete, gap-free history holding at least every action the writer
    had acknowledged before the load began, and every list shows a round at
    least that recent.

    The reader keeps going until the writer is past 160 actions *and* the
    reader itself has read across more than four compactions: how many it
    sees depends on how fast each side runs (a loaded machine slows the
    reader), so that is a goal to reach, not a rate to assert.  The cap on
    loads only stops a hang."""
    db = tmp_path / "encounters.json"
    writer = subprocess.Popen(
        [sys.executable, str(WRITER), str(db)], stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None
    assert writer.stdout.readline().startswith("ready")
    acked = [0]

    def follow() -> None:
        assert writer.stdout is not None
        for line in writer.stdout:
            if line.startswith("ok "):
                acked[0] = int(line.split()[1])

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    try:
        with Store(db, read_only=True) as ro:
            seen = 0
            compactions: set[int] = set()
            loads = 0
            while (
                (acked[0] < 160 or len(compactions) <= 4)
                and writer.poll() is None
                and loads < 200_000
            ):
                loads += 1
                floor = acked[0]
                loaded = ro.load("Fight")
                items = history(loaded)
                assert items == list(range(1, len(items) + 1)), "gap or duplicate"
                assert len(items) >= max(floor, seen)
                seen = len(items)
                compactions.add(len(loaded.snapshot["items"]))
                # The writer's summary round is (action number) // 10.
                assert ro.list()[0].round >= floor // 10, "list older than acknowledged"
                points = ro.save_points("Fight")
                if points:
                    label = points[0][0]
                    at = int(label.split()[1])
                    assert ro.load_save_point("Fight", label)["items"] == list(range(1, at + 1))
            assert ro.notices == [], ro.notices
        assert writer.poll() is None, "the writer died"
        assert acked[0] >= 160
        assert len(compactions) > 4  # the reader did read across compactions
    finally:
        writer.kill()
        writer.wait(timeout=30)
        follower.join(timeout=30)


def test_a_compaction_between_reading_the_index_and_the_files_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader has just read the index (generation 1) when the writer
    compacts and deletes generation 1: the reader must notice and read
    generation 2, not report a missing file or lose actions."""
    import saves.store

    db = tmp_path / "encounters.json"
    make_fight(db, 3)
    writer = Store(db)
    writer.load("Fight")
    ro = Store(db, read_only=True)
    read_generation = saves.store._read_generation
    interleaved = []

    def writer_gets_in_first(snapshot: Path, journal: Path) -> Any:
        if not interleaved:
            interleaved.append(snapshot.name)
            writer.compact("Fight", {"items": [0, 1, 2]}, summary(2))
            writer.append("Fight", {"item": 3}, summary(3))
        return read_generation(snapshot, journal)

    try:
        monkeypatch.setattr(saves.store, "_read_generation", writer_gets_in_first)
        loaded = ro.load("Fight")
        assert interleaved == ["snapshot-1.json"]  # it did start from the old generation
        assert loaded.snapshot == {"items": [0, 1, 2]} and history(loaded) == [0, 1, 2, 3]
        assert loaded.notices == () and ro.notices == []

        # Same for a save point replaced under the same label.
        writer.save_point("Fight", "Start", {"items": [0]}, summary())
        ro.save_points("Fight")  # the reader knows the first file
        find = Store._save_point

        def replaced_meanwhile(self: Store, name: str, label: str) -> Any:
            found = find(self, name, label)
            if self is ro and len(interleaved) == 1:
                interleaved.append("save point")
                writer.save_point("Fight", "Start", {"items": [0, 1]}, summary())
            return found

        monkeypatch.setattr(Store, "_save_point", replaced_meanwhile)
        assert ro.load_save_point("Fight", "Start") == {"items": [0, 1]}
        assert interleaved[-1] == "save point"
    finally:
        ro.close()
        writer.close()


def test_a_compaction_between_reading_the_index_and_a_journal_tail_is_listed_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader has read the index (generation 1, whose entry holds the
    round-0 summary of the first snapshot) when the writer compacts and
    deletes journal 1: the list must show the round the writer had saved,
    not fall back to the summary of the generation it read."""
    import saves.store

    db = tmp_path / "encounters.json"
    make_fight(db, 3)
    writer = Store(db)
    writer.load("Fight")
    ro = Store(db, read_only=True)
    read_tail = saves.store.read_tail
    interleaved = []

    def writer_gets_in_first(path: Path, **kwargs: Any) -> Any:
        if not interleaved:
            interleaved.append(path.name)
            writer.compact("Fight", {"items": [0, 1, 2, 3]}, summary(3))
        return read_tail(path, **kwargs)

    try:
        writer.append("Fight", {"item": 3}, summary(3))  # acknowledged before list()
        monkeypatch.setattr(saves.store, "read_tail", writer_gets_in_first)
        (row,) = ro.list()
        assert interleaved == ["journal-1.jsonl"]  # it did start from the old generation
        assert row.round == 3
        assert ro.notices == []
    finally:
        ro.close()
        writer.close()


# --- nothing on disk changes ---------------------------------------------------


def test_reading_a_database_that_needs_every_repair_changes_no_file(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    damaged = make_fight(db, 6, "Damaged")
    damage_line(damaged / "journal-1.jsonl", 2)
    torn = make_fight(db, 2, "Torn")
    with (torn / "journal-1.jsonl").open("ab") as fh:
        fh.write(b'{"crc":"0000')
    make_fight(db, 3, "Unlisted")
    deleting = make_fight(db, 1, "Deleting")
    no_journal = make_fight(db, 2, "No journal")
    (no_journal / "journal-1.jsonl").unlink()
    gone = make_fight(db, 1, "Gone")
    data = json.loads(db.read_text())
    data["encounters"] = {k: v for k, v in data["encounters"].items() if v["name"] != "Unlisted"}
    db.write_text(json.dumps(data))
    (deleting / "DELETED").write_bytes(b"deleted\n")  # a delete that crashed midway
    deleting_id = deleting.name
    for p in gone.iterdir():
        p.unlink()
    gone.rmdir()
    (Path(f"{db}.d") / ".half-made-1234abcd.tmp").mkdir()
    Path(f"{db}.lock").unlink()
    before = tree(tmp_path)

    with Store(db, read_only=True) as ro:
        assert {r.name: r.round for r in ro.list()} == {
            "Damaged": 5,  # the tail, until a load finds the damage
            "Torn": 1,
            "Unlisted": 2,
            "No journal": 0,  # its journal is gone: the snapshot summary
        }
        opened = " ".join(ro.take_notices())
        assert "Read encounter 'Unlisted'" in opened and "read-only, nothing was changed" in opened
        assert "files of encounter 'Gone'" in opened and "it is not shown" in opened

        loaded = ro.load("Damaged")
        assert history(loaded) == [0, 1]
        (notice,) = loaded.notices
        assert "journal of 'Damaged' is damaged at line 3" in notice
        assert "showing the 2 action(s) before that line" in notice
        assert "leaving out 4 line(s)" in notice
        assert f"Opened read-only, so the file was left as it is: {damaged}" in notice
        assert {r.name: r.round for r in ro.list()}["Damaged"] == 1  # what was shown

        assert history(ro.load("Torn")) == [0, 1] and ro.load("Torn").notices == ()
        assert history(ro.load("Unlisted")) == [0, 1, 2]
        (missing,) = ro.load("No journal").notices
        assert "journal of 'No journal'" in missing and "is missing" in missing
        assert not ro.exists("Deleting") and not ro.exists("Gone")
    assert tree(tmp_path) == before
    assert not Path(f"{db}.lock").exists()

    # A writer opening afterwards still does every repair itself.
    with Store(db) as s:
        loaded = s.load("Damaged")
        assert history(loaded) == [0, 1]
        assert "the damaged file is kept as" in loaded.notices[0]
        assert "Recovered encounter 'Unlisted'" in " ".join(s.notices)
    assert list(damaged.glob("journal-1.jsonl.corrupt-*"))
    assert not Path(f"{db}.d", deleting_id).exists()


def test_a_damaged_index_is_read_from_the_encounter_files_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 4, "Fight")
    with Store(db) as s:
        s.save_point("Fight", "Start", {"items": [0]}, summary())
    # A compaction that crashed before the index moved on, then more
    # actions: the newest snapshot is an orphan and its actions are in the
    # older journal (the hardest case for rebuilding from files).
    s = Store(db)

    class Crash(BaseException):
        pass

    def crash(*args: Any, **kwargs: Any) -> None:
        raise Crash

    with monkeypatch.context() as m:
        m.setattr(Store, "_commit_generation", crash)
        with pytest.raises(Crash):
            s.compact("Fight", {"items": [0, 1, 2, 3]}, summary(3))
    s.close()
    with Store(db) as s:
        s.append("Fight", {"item": 4}, summary(4))
    unrecoverable = Path(f"{db}.d") / "broken-0000abcd"
    unrecoverable.mkdir()
    (unrecoverable / "snapshot-1.json").write_bytes(b"{}")
    db.write_bytes(b'{"encounters": ')  # truncated by something outside our control
    before = tree(tmp_path)

    with Store(db, read_only=True) as ro:
        notices = ro.take_notices()
        assert f"The database file {db} is damaged (it is not valid JSON" in notices[0]
        assert "Opened read-only, so it was left as it is" in notices[0]
        assert any(
            "Could not read the saved files" in n and "left as they are" in n for n in notices
        )
        assert any("Read encounter 'Fight'" in n and "1 save point(s)" in n for n in notices)
        loaded = ro.load("Fight")
        assert history(loaded) == [0, 1, 2, 3, 4] and loaded.notices == ()
        assert loaded.snapshot == {"items": [0, 1, 2, 3]}
        assert ro.list()[0].round == 4
        assert ro.load_save_point("Fight", "start") == {"items": [0]}
        assert ro.take_notices() == []  # said once, even though every call checks the index
    assert tree(tmp_path) == before
    assert not list(tmp_path.glob("*.corrupt-*"))


def test_read_only_on_a_database_that_does_not_exist_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "not" / "yet" / "encounters.json"
    with Store(db, read_only=True) as ro:
        assert ro.list() == [] and ro.notices == []
        with pytest.raises(SaveError, match="No saved encounter is named 'Fight'"):
            ro.load("Fight")
    assert list(tmp_path.iterdir()) == []


def test_read_only_damaged_journal_does_not_break_the_writer_that_repairs_it_later(
    tmp_path: Path,
) -> None:
    """The reader's corrected summary holds only while the damaged file is
    unchanged: once a writer has repaired and extended it, the tail is right."""
    db = tmp_path / "encounters.json"
    d = make_fight(db, 8)
    damage_line(d / "journal-1.jsonl", 4)
    with Store(db, read_only=True) as ro:
        assert ro.list()[0].round == 7
        assert history(ro.load("Fight")) == [0, 1, 2, 3]
        assert ro.list()[0].round == 3
        with Store(db) as writer:
            assert history(writer.load("Fight")) == [0, 1, 2, 3]
            writer.append("Fight", {"item": 4}, summary(40))
        assert ro.list()[0].round == 40
        loaded = ro.load("Fight")
        assert history(loaded) == [0, 1, 2, 3, 4] and loaded.notices == ()
    assert re.search(r"corrupt-\d{8}", " ".join(p.name for p in d.iterdir()))
