"""Property tests of the journal parser (issue 3, Saves): whatever bytes a
crash or a disk leaves behind, reading a journal never raises, never
invents a record, and keeps every record before the first defect."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from saves.errors import CorruptData
from saves.journal import decode_entry, encode_entry, scan, seal, unseal

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=6,
)
json_dicts = st.dictionaries(st.text(max_size=8), json_values, min_size=1, max_size=5)


def journal_of(records: list[dict[str, Any]]) -> bytes:
    return b"".join(
        encode_entry(i + 1, "2026-01-01T00:00:00+00:00", {"round": i}, r)
        for i, r in enumerate(records)
    )


@given(json_dicts)
def test_seal_round_trips_any_json_object(doc: dict[str, Any]) -> None:
    assert unseal(seal(doc)) == doc


@given(st.binary(max_size=300))
def test_unseal_rejects_arbitrary_bytes_with_corrupt_data_only(data: bytes) -> None:
    try:
        result = unseal(data)
    except CorruptData:
        return
    assert isinstance(result, dict)  # only a genuinely sealed object gets through


@given(json_dicts, st.data())
def test_any_single_byte_change_is_detected(doc: dict[str, Any], data: st.DataObject) -> None:
    sealed = seal(doc)
    i = data.draw(st.integers(0, len(sealed) - 1))
    flipped = bytes([sealed[i] ^ data.draw(st.integers(1, 255))])
    mutated = sealed[:i] + flipped + sealed[i + 1 :]
    try:
        result = unseal(mutated)
    except CorruptData:
        return
    # Only changes JSON cannot see (e.g. insignificant whitespace) may pass.
    assert result == doc


@settings(max_examples=60)
@given(st.lists(json_dicts, max_size=5), st.data())
def test_a_torn_journal_keeps_exactly_the_whole_lines(
    records: list[dict[str, Any]], data: st.DataObject
) -> None:
    raw = journal_of(records)
    cut = data.draw(st.integers(0, len(raw)))
    result = scan(raw[:cut], 0)
    complete = raw[:cut].count(b"\n")
    assert [e.record for e in result.entries] == records[:complete]
    assert result.damage is None
    assert result.good_end + result.torn_bytes == cut
    assert result.last_seq == complete


@settings(max_examples=60)
@given(st.lists(json_dicts, min_size=1, max_size=5), st.data())
def test_garbage_anywhere_keeps_a_prefix_and_never_raises(
    records: list[dict[str, Any]], data: st.DataObject
) -> None:
    raw = journal_of(records)
    start = data.draw(st.integers(0, len(raw)))
    garbage = data.draw(st.binary(min_size=1, max_size=40))
    mutated = raw[:start] + garbage + raw[start + len(garbage) :]
    result = scan(mutated, 0)
    kept = [e.record for e in result.entries]
    assert kept == records[: len(kept)]
    assert [e.seq for e in result.entries] == list(range(1, len(kept) + 1))
    # Everything wholly before the garbage survives.
    assert len(kept) >= raw[:start].count(b"\n")


@given(st.lists(json_dicts, max_size=6), st.integers(0, 8))
def test_records_up_to_the_snapshot_sequence_are_skipped(
    records: list[dict[str, Any]], after: int
) -> None:
    result = scan(journal_of(records), after)
    assert [e.record for e in result.entries] == records[after:]
    assert result.last_seq == max(after, len(records))


def test_decode_entry_names_what_is_wrong() -> None:
    with pytest.raises(CorruptData, match="bad sequence number"):
        decode_entry(seal({"seq": 0, "t": "x", "summary": {}, "record": {}}))
    with pytest.raises(CorruptData, match="missing fields"):
        decode_entry(seal({"seq": 1, "t": "x", "summary": {}}))
