"""Names and times as the store keeps them: a name to look up is trimmed
and NFC-normalised; a name to save under is also checked as every typed
text is (``rules.text``); folder ids are a slug of the name plus random hex;
times are UTC ISO strings."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from rules.errors import ActionError
from rules.text import MAX_TITLE, check_text, name_key, nfc, visible
from saves.errors import SaveError

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def parse_time(text: Any) -> datetime:
    try:
        value = datetime.fromisoformat(str(text))
    except ValueError:
        return _EPOCH
    value = value if value.tzinfo else value.replace(tzinfo=UTC)
    # a hand-edited year 1 or 9999 cannot be shown in every time zone
    return value if 1971 <= value.year <= 9000 else _EPOCH


def clean_name(name: Any, what: str = "encounter name") -> str:
    """A name to look up: trimmed and NFC-normalised (not checked, so an
    encounter saved under a name refused today can still be opened)."""
    if not isinstance(name, str) or not name.strip():
        raise SaveError(f"The {what} must be a non-empty text (got {visible(repr(name))}).")
    return nfc(name.strip())


def label_key(label: str) -> str:
    """How a save point kept under *label* is looked up: trimmed as
    :func:`clean_name` trims the label asked for, then :func:`name_key`.
    Worked out from the label, not taken from the file's ``key``, which a
    hand edit can leave stale or untrimmed."""
    return name_key(shown_label(label))


def shown_label(label: str) -> str:
    """*label* as ``list`` and the picker offer it: trimmed as a lookup
    trims it, so what is shown restores the save point (a label only of
    whitespace stays as it is)."""
    return label.strip() or label


def new_name(name: Any, what: str = "encounter name") -> str:
    """A name to save something under: checked as every typed text is."""
    try:
        return check_text(what, clean_name(name, what), MAX_TITLE)
    except ActionError as exc:
        raise SaveError(f"The {exc}.") from None


def new_id(name: str) -> str:
    slug = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in name_key(name))
    slug = "-".join(part for part in slug.split("-") if part)[:32].strip("-")
    return f"{slug}-{uuid.uuid4().hex[:8]}" if slug else uuid.uuid4().hex[:12]
