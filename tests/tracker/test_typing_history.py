"""The typing history without Textual: one list per kind of line, newest
last, bounded, kept in a file written atomically; Up/Down walk it like a
shell's.  A damaged, non-UTF-8, oversized or unwritable file is one notice
at most, never an exception."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracker.history import FILE_NAME, MAX_ENTRIES, MAX_FILE_BYTES, History, Recall, history_path


def told(path: Path) -> tuple[History, list[str]]:
    notices: list[str] = []
    return History(path, notices.append), notices


def test_entries_are_kept_per_kind_and_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    history, notices = told(path)
    history.add("damage", "2d6+3 fire")
    history.add("damage", "  8 slashing ")
    history.add("command", "next")
    again, _ = told(path)
    assert again.entries("damage") == ("2d6+3 fire", "8 slashing")
    assert again.entries("command") == ("next",)
    assert again.entries("heal") == ()
    assert notices == []
    assert not [p for p in tmp_path.iterdir() if p.name != FILE_NAME]  # no temp file left


def test_a_repeated_line_moves_to_the_newest_and_blank_ones_are_not_kept(tmp_path: Path) -> None:
    history, _ = told(tmp_path / FILE_NAME)
    for line in ("5", "2d6+3 fire", "5", "", "   ", "bad\x1b[31m"):
        history.add("damage", line)
    assert history.entries("damage") == ("2d6+3 fire", "5")


def test_each_kind_is_bounded_the_oldest_going_first(tmp_path: Path) -> None:
    history, _ = told(tmp_path / FILE_NAME)
    for n in range(MAX_ENTRIES + 5):
        history.add("heal", str(n))
    kept = told(tmp_path / FILE_NAME)[0].entries("heal")
    assert len(kept) == MAX_ENTRIES and kept[0] == "5" and kept[-1] == str(MAX_ENTRIES + 4)


def test_the_file_is_in_the_state_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COMBAT_TRACKER_STATE", str(tmp_path / "state"))
    assert history_path() == tmp_path / "state" / FILE_NAME
    History().add("command", "next")  # the directory is made when first written
    assert json.loads((tmp_path / "state" / FILE_NAME).read_text())["entries"] == {
        "command": ["next"]
    }


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe not utf-8",
        b"{ not json",
        b'{"schema": 99, "entries": {}}',
        b'["a list"]',
        b'{"schema": 1, "entries": []}',
        b"[" * 100_000,
        b" " * (MAX_FILE_BYTES + 1),
    ],
)
def test_a_damaged_file_is_one_notice_and_an_empty_history(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / FILE_NAME
    path.write_bytes(content)
    history, notices = told(path)
    assert history.entries("damage") == ()
    history.add("damage", "5")  # rewritten: the next start reads it
    history.add("damage", "6")
    assert len(notices) == 1 and "damaged" in notices[0]
    assert told(path)[0].entries("damage") == ("5", "6")


def test_entries_a_gm_could_not_have_typed_are_dropped(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    entries = {"damage": ["5", 7, None, "x\x1b]52;c;AAAA\x07", "a\nb", "", "x" * 5000, "6"]}
    entries["\x1bkind"] = ["next"]
    path.write_text(json.dumps({"schema": 1, "entries": entries}))
    history, notices = told(path)
    assert history.entries("damage") == ("5", "6")
    assert history.entries("\x1bkind") == ()
    assert notices == []


def test_a_full_disk_is_one_notice_and_the_history_lives_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / FILE_NAME
    told(path)[0].add("damage", "4")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    history, notices = told(path)
    history.add("damage", "5")
    history.add("damage", "6")
    assert history.entries("damage") == ("4", "5", "6")  # in memory until quitting
    assert len(notices) == 1 and "not saved" in notices[0] and "No space" in notices[0]
    assert [p.name for p in tmp_path.iterdir()] == [FILE_NAME]  # no temp file left
    monkeypatch.undo()
    assert told(path)[0].entries("damage") == ("4",)  # the old file is whole


def test_an_unreadable_file_is_one_notice(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).mkdir()  # a directory where the file should be
    history, notices = told(tmp_path / FILE_NAME)
    assert history.entries("command") == ()
    history.add("command", "next")  # cannot replace a directory: no second notice
    assert len(notices) == 1 and "not read" in notices[0]


# -- Up / Down -------------------------------------------------------------------


def test_up_walks_back_and_down_forward_to_the_draft() -> None:
    recall = Recall(["5", "2d6+3 fire", "8"])
    assert recall.forward() is None  # nothing newer than the draft
    assert recall.back("2d") == "8"
    assert recall.back("8 edited") == "2d6+3 fire"  # an edit is not kept
    assert recall.back("x") == "5"
    assert recall.back("x") is None  # the oldest: stays
    assert recall.forward() == "2d6+3 fire"
    assert recall.forward() == "8"
    assert recall.forward() == "2d"  # what was being typed
    assert recall.forward() is None


def test_nothing_to_recall() -> None:
    recall = Recall(())
    assert recall.back("typed") is None and recall.forward() is None


@given(st.lists(st.text(max_size=5), max_size=6), st.lists(st.booleans(), max_size=20))
def test_recall_only_ever_shows_an_entry_or_the_draft(entries: list[str], ups: list[bool]) -> None:
    recall = Recall(entries)
    for up in ups:
        shown = recall.back("draft") if up else recall.forward()
        assert shown is None or shown in entries or shown == "draft"


def test_a_fifo_or_a_link_is_not_a_hang(tmp_path: Path) -> None:
    # a named pipe where the file should be would block the first prompt
    # forever; a link (a dotfiles folder) is followed
    fifo = tmp_path / "fifo" / FILE_NAME
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    history, notices = told(fifo)
    assert history.entries("command") == ()
    assert len(notices) == 1 and "not a regular file" in notices[0]
    kept = tmp_path / "dotfiles" / FILE_NAME
    kept.parent.mkdir()
    told(kept)[0].add("damage", "2d6+3 fire")
    link = tmp_path / "linked" / FILE_NAME
    link.parent.mkdir()
    link.symlink_to(kept)
    assert told(link)[0].entries("damage") == ("2d6+3 fire",)
