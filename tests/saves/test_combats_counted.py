"""Several combats in one fight (``end``, then ``start`` again) numbered the
same in the app's log as in ``export``, when the first combat's start is
only in the saved steps: the snapshot keeps how many combats began in the
entries older than the log in memory, an undo that reads older steps back
keeps the count right, and a snapshot written before the count was kept
has it counted from the steps file."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine.combats import count_combats, openings
from rules.engine.history import KEEP_ENTRIES
from rules.engine.session import Session
from rules.errors import ActionError
from saves.live import LiveEncounter, open_store

CAST = ["add Zalek player hp 38 al 15 init 14", "add Goblin count 2 hp 9 al 13"]


def combats(entries: object) -> int:
    return count_combats(entries)  # type: ignore[arg-type]


def two_combats(db: Path, first_rounds: int = 150) -> None:
    """A fight whose first combat is long enough that its start is older
    than the log a snapshot keeps, then ``end``, a heal between the
    combats, and a second combat two turns in; saved and closed."""
    with open_store(db) as store:
        live = LiveEncounter.create(store, "Ambush", rng=random.Random(2), actions=CAST)
        live.do("start")
        for _ in range(first_rounds * 3):
            live.do("next")
        for line in ("end", "damage 'Goblin 1' 2", "start", "next", "next"):
            live.do(line)
        live.close()


def counted(live: LiveEncounter) -> int | None:
    """Combats begun before the log plus those in it: export's count when right."""
    earlier = live.combats_earlier()
    return None if earlier is None else earlier + combats(live.log)


def test_a_resumed_fight_knows_its_first_combat_began_before_the_log(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    two_combats(db)
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush")
        assert live.log_earlier > 0 and len(live.log) >= KEEP_ENTRIES
        assert combats(live.log) == 1  # only the second start is in memory
        assert live.combats_earlier() == 1
        assert counted(live) == combats(live.full_log()) == 2
        # undo back through the second combat and into the steps file: the
        # older entries read back take their combat with them
        while live.log_earlier:
            live.undo()
            assert counted(live) == combats(live.full_log())
        assert live.combats_earlier() == 0 and combats(live.log) == 1
        while live.can_redo:
            live.redo()
        assert counted(live) == 2
        live.close()
    with open_store(db) as store:  # and the snapshot closing wrote says so again
        again = LiveEncounter.open(store, "Ambush")
        assert again.log_earlier > 0 and counted(again) == 2


def test_the_second_combat_opens_where_its_start_began_read_back_or_not(
    tmp_path: Path,
) -> None:
    """The log in memory, numbered from the combats before it, places each
    opening as the whole log does: over the second start's first entry
    (its initiative), under the damage dealt between the combats."""
    db = tmp_path / "encounters.json"
    two_combats(db)

    def placed(live: LiveEncounter) -> list[tuple[int, str, str]]:
        """Each opening: its number, the entry above it, its own entry."""
        full = live.full_log()
        whole = list(openings(full))
        held = list(openings(live.log, live.combats_earlier() or 0))
        assert whole[len(full) - len(live.log) :] == held
        above = [""] + [e.text for e in full]
        return [(n, above[i], full[i].text) for i, n in enumerate(whole) if n]

    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush")
        assert live.log_earlier > 0
        first = placed(live)
        assert [n for n, _, _ in first] == [1, 2]
        assert first[0][2] == "Zalek has a fixed initiative of 14"
        assert first[1][1] == "Goblin 1 takes 2 (2 HP lost, 7/9 left)"
        assert "rolls initiative" in first[1][2]  # end cleared it: combat 2 rolls anew
        while live.log_earlier:  # undo into the steps file, read back
            live.undo()
            placed(live)
        while live.can_redo:
            live.redo()
        assert placed(live) == first
        live.close()
    with open_store(db) as store:
        assert placed(LiveEncounter.open(store, "Ambush")) == first


def test_a_snapshot_from_before_the_count_has_it_counted_from_the_steps(tmp_path: Path) -> None:
    from saves.seal import seal
    from saves.storage import parse_tables

    db = tmp_path / "encounters.json"
    two_combats(db)
    (state,) = Path(f"{db}.d").glob("*/state.json")
    tables = parse_tables(state.read_bytes())
    del tables["snapshot"]["1"]["session"]["combats_earlier"]
    state.write_bytes(seal(tables, "test") + b"\n")
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush")
        assert live.log_earlier > 0
        assert live.combats_earlier() == 1 and counted(live) == 2
        live.do("next")
        live.compact()
    with open_store(db) as store:
        tables = parse_tables(state.read_bytes())
        assert tables["snapshot"]["1"]["session"]["combats_earlier"] == 1


def test_a_count_that_cannot_be_read_is_unknown_not_a_guess(tmp_path: Path) -> None:
    session = Session(Encounter("Ambush"), rng=random.Random(1))
    for line in [*CAST, "start", *["next"] * 300, "end", "start"]:
        session.apply(line)
    data = json.loads(json.dumps(session.to_dict(bounded=True)))
    del data["combats_earlier"]
    again = Session.from_dict(data)  # no steps file to read the older steps from
    assert again.log_earlier > 0
    assert again.combats_earlier() is None


@pytest.mark.parametrize("value", [-1, "1", 1.5, True])
def test_a_malformed_count_is_one_clear_error(value: object) -> None:
    session = Session(Encounter("Ambush"), rng=random.Random(1))
    for line in [*CAST, "start", *["next"] * 300]:
        session.apply(line)
    data = {**json.loads(json.dumps(session.to_dict(bounded=True))), "combats_earlier": value}
    with pytest.raises(ActionError, match="not a saved session: combats_earlier"):
        Session.from_dict(data)


@pytest.mark.parametrize("extra", [1, 10**4000], ids=["one more", "4000 digits"])
def test_a_count_past_the_older_entries_is_one_clear_error(extra: int) -> None:
    # each combat begins with one entry ("Round 1"), so the older entries
    # hold at most as many combats as entries: a hand edit past that
    # would put a rule "Combat 1000…0" of thousands of digits in the log
    session = Session(Encounter("Ambush"), rng=random.Random(1))
    for line in [*CAST, "start", *["next"] * 300]:
        session.apply(line)
    data = json.loads(json.dumps(session.to_dict(bounded=True)))
    assert data["log_earlier"] > 0
    data["combats_earlier"] = data["log_earlier"] + extra
    with pytest.raises(ActionError, match="not a saved session: combats_earlier") as refused:
        Session.from_dict(data)
    assert len(str(refused.value)) < 200  # one line to read, not the number
    data["combats_earlier"] = data["log_earlier"]  # the most there can be
    assert Session.from_dict(data).combats_earlier() == data["log_earlier"]


def test_the_listing_says_which_combat_each_fight_is_in(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    two_combats(db)
    with open_store(db) as store:
        LiveEncounter.create(store, "Bridge", actions=CAST).close()
        live = LiveEncounter.create(store, "Crypt", actions=CAST)
        live.do("start")
        live.close()
        assert {s.name: s.combat for s in store.list()} == {"Ambush": 2, "Bridge": 0, "Crypt": 1}
    with open_store(db) as store:
        # each step's summary says it: an undo of the second start, read
        # from the steps file's last line before any snapshot is written
        live = LiveEncounter.open(store, "Ambush")
        while combats(live.log) == 1:
            live.undo()
        assert counted(live) == 1
        assert next(s.combat for s in store.list() if s.name == "Ambush") == 1
        live.redo()
        assert next(s.combat for s in store.list() if s.name == "Ambush") == 2


@given(
    st.integers(0, 10**300),
    st.integers(0, 10**300),
)
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_a_snapshot_counting_more_than_its_steps_hold_is_rebuilt(
    tmp_path_factory: pytest.TempPathFactory, earlier: int, combats_before: int
) -> None:
    # a hand-edited snapshot said a short fight had 10**300 older entries
    # and as many combats: ``show`` titled it "combat 1000…0" while
    # ``export``, reading the steps, said 2
    from saves.seal import seal
    from saves.storage import parse_tables

    db = tmp_path_factory.mktemp("db") / "encounters.json"
    with open_store(db) as store:
        live = LiveEncounter.create(store, "Ambush", rng=random.Random(2), actions=CAST)
        for line in ("start", "next", "end", "start"):
            live.do(line)
        live.compact()
        live.close()
    (state,) = Path(f"{db}.d").glob("*/state.json")
    tables = parse_tables(state.read_bytes())
    session = tables["snapshot"]["1"]["session"]
    assert not session["undo_older"]  # every step in the snapshot: nothing older
    session["log_earlier"], session["combats_earlier"] = earlier, combats_before
    state.write_bytes(seal(tables, "test") + b"\n")
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush")
        assert live.session.combats() == combats(live.full_log()) == 2
        live.close()
