"""What the GM typed, kept like a shell's history: one bounded list per kind
of line (``command`` for the ``:`` line, ``damage``… for the prompts) in one
JSON file in the user state directory, replaced atomically after each
entry.  A damaged or unwritable file costs at most one notice."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from rules.text import is_unsafe
from saves.fsutil import read_regular

#: entries kept per kind (the oldest go first)
MAX_ENTRIES = 200
#: the longest line kept: what a GM types (a longer one, pasted, is applied
#: but not kept; the lines keys build from their targets are never kept)
MAX_LENGTH = 2000
#: a history file larger than this is not ours: ignored, not read
MAX_FILE_BYTES = 4 * MAX_ENTRIES * MAX_LENGTH
FILE_NAME = "history.json"
SCHEMA = 1


def history_path() -> Path:
    from tracker.commands.crash import state_dir

    return state_dir() / FILE_NAME


def _keepable(line: object) -> bool:
    """Whether the GM could have typed *line*: one line, no control characters."""
    return (
        isinstance(line, str)
        and 0 < len(line) <= MAX_LENGTH
        and line == line.strip()
        and not any(is_unsafe(ch) for ch in line)
    )


class History:
    """Every kind's entries, read on first use, written after each new one;
    *notice* is told once at most that the file could not be read or
    written (the history then lives in memory)."""

    def __init__(self, path: Path | None = None, notice: Callable[[str], None] | None = None):
        self._path = path
        self._notice = notice
        self._told = False
        self._kinds: dict[str, list[str]] | None = None

    @property
    def path(self) -> Path:
        if self._path is None:
            self._path = history_path()
        return self._path

    def _tell(self, message: str) -> None:
        if not self._told and self._notice is not None:
            self._told = True
            self._notice(message)

    def _load(self) -> dict[str, list[str]]:
        if self._kinds is None:
            self._kinds = self._read()
        return self._kinds

    def _read(self) -> dict[str, list[str]]:
        path = self.path
        try:
            # a FIFO or a device planted there must not hang the prompt
            data = read_regular(path, MAX_FILE_BYTES + 1, follow=True)
        except FileNotFoundError:
            return {}
        except OSError as exc:
            self._tell(f"Typing history not read ({exc.strerror or exc}); starting empty.")
            return {}
        try:
            if len(data) > MAX_FILE_BYTES:
                raise ValueError("too large")
            raw = json.loads(data.decode("utf-8"))
            if not isinstance(raw, dict) or raw.get("schema") != SCHEMA:
                raise ValueError("not a history file")
            kinds = raw.get("entries")
            if not isinstance(kinds, dict):
                raise ValueError("no entries")
        except (ValueError, RecursionError):  # JSON, UTF-8 and shape errors alike
            self._tell(f"Typing history in {path} is damaged; starting empty (it is rewritten).")
            return {}
        return {
            kind: [e for e in entries if _keepable(e)][-MAX_ENTRIES:]
            for kind, entries in kinds.items()
            if isinstance(kind, str) and _keepable(kind) and isinstance(entries, list)
        }

    def entries(self, kind: str) -> tuple[str, ...]:
        """Oldest first."""
        return tuple(self._load().get(kind, ()))

    def add(self, kind: str, line: str) -> None:
        """Keep *line* as *kind*'s newest entry and write the file (not if untypeable)."""
        line = line.strip()
        if not _keepable(line):
            return
        kinds = self._load()
        entries = [e for e in kinds.get(kind, []) if e != line]
        entries.append(line)
        kinds[kind] = entries[-MAX_ENTRIES:]
        self._write(kinds)

    def _write(self, kinds: dict[str, list[str]]) -> None:
        path = self.path
        text = json.dumps({"schema": SCHEMA, "entries": kinds}, ensure_ascii=False, indent=0)
        tmp = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # not fsutil.atomic_write: a failed replace must not leave the temp file
            fd, tmp = tempfile.mkstemp(prefix=".history-", suffix=".tmp", dir=path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
            tmp = None
        except OSError as exc:
            self._tell(
                f"Typing history not saved ({exc.strerror or exc}); it is kept until you quit."
            )
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)

    def kind(self, name: str) -> Kept:
        return Kept(self, name)


class Kept:
    """One kind's history, as a prompt uses it."""

    def __init__(self, history: History, kind: str) -> None:
        self._history = history
        self.kind = kind

    def entries(self) -> tuple[str, ...]:
        return self._history.entries(self.kind)

    def add(self, line: str) -> None:
        self._history.add(self.kind, line)

    def recall(self) -> Recall:
        return Recall(self.entries())


class Recall:
    """Up and Down through a copy of some entries, like a shell: Up keeps
    the line being typed as the draft, Down past the newest brings it back;
    an edit to a recalled line is forgotten on moving away."""

    def __init__(self, entries: Sequence[str]) -> None:
        self._entries = tuple(entries)
        self._index = len(self._entries)
        self._draft = ""

    def back(self, current: str) -> str | None:
        """The entry before the one shown (Up); None at the oldest."""
        if self._index == 0:
            return None
        if self._index == len(self._entries):
            self._draft = current
        self._index -= 1
        return self._entries[self._index]

    def forward(self) -> str | None:
        """The entry after the one shown, then the draft (Down); None past the draft."""
        if self._index >= len(self._entries):
            return None
        self._index += 1
        if self._index == len(self._entries):
            return self._draft
        return self._entries[self._index]
