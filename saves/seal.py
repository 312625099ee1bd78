"""Checksummed JSON: every file the store writes is one JSON object whose
first member is a CRC-32 of the exact bytes after it, ``{"crc":"1a2b3c4d",
...}``, so a torn write, a zeroed block or a flipped bit is found without
trusting the JSON parser to notice; stock ``tinydb.TinyDB(path)`` still
reads it (one extra member, ``crc``)."""

from __future__ import annotations

import json
import zlib
from typing import Any

from saves.errors import CorruptData, SaveError

_HEAD = b'{"crc":"'
_HEAD_LEN = len(_HEAD) + 8 + 2  # {"crc":"xxxxxxxx",
_CRC_OF_BRACE = zlib.crc32(b"{")


def dumps(obj: Any, what: str) -> bytes:
    """Compact UTF-8 JSON; a value that is not plain JSON is a SaveError
    naming *what* (never a traceback)."""
    try:
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise SaveError(f"The {what} cannot be saved: it is not plain JSON data ({exc}).") from None
    return text.encode("utf-8")


def seal(obj: dict[str, Any], what: str = "document") -> bytes:
    """Serialise a non-empty dict with its CRC-32 as first member."""
    if not obj or "crc" in obj:
        raise ValueError("cannot seal an empty document or one with a crc member")
    body = dumps(obj, what)
    return b'{"crc":"%08x",' % zlib.crc32(body) + body[1:]


def unseal(data: bytes) -> dict[str, Any]:
    """Check and parse a sealed document; any defect raises CorruptData."""
    if len(data) < _HEAD_LEN + 1 or not data.startswith(_HEAD) or data[16:18] != b'",':
        raise CorruptData("no checksum header")
    try:
        expected = int(data[8:16], 16)
    except ValueError:
        raise CorruptData("unreadable checksum") from None
    view = memoryview(data)
    if zlib.crc32(view[_HEAD_LEN:], _CRC_OF_BRACE) != expected:
        raise CorruptData("checksum mismatch")
    try:
        obj = json.loads(b"".join((b"{", view[_HEAD_LEN:])))
    except (UnicodeDecodeError, ValueError):
        raise CorruptData("not JSON although the checksum matches") from None
    except RecursionError:  # a hand-made file can nest past the parser's stack
        raise CorruptData("nested too deeply to read") from None
    if not isinstance(obj, dict):
        raise CorruptData("not a JSON object")
    return obj
