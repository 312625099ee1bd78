"""The players' view (issue 12; rulings in docs/rules.md, "The players'
view"): one pure function from the encounter to a JSON-ready dict of ONLY
what the players may see, so nothing the GM hides ever leaves the process;
the web page renders this dict and nothing else."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.bonuses import stack
from rules.conditions import Condition
from rules.durations import Duration
from rules.engine.turns import passed_over
from rules.text import possessive, visible
from rules.view_settings import HIDDEN, MASKED, VISIBLE, ViewSettings

if TYPE_CHECKING:
    from rules.combatant import Combatant
    from rules.encounter import Encounter

#: What a masked combatant is called on the players' view.
UNKNOWN = "Unknown creature"
#: A duration whose count the players may not see (it is counted on a
#: hidden combatant's turns: the count going down would betray them).
UNTOLD = "for a limited time"

BANDS: tuple[str, ...] = ("healthy", "hurt", "bloodied", "down")


def hp_band(c: Combatant) -> str:
    """``healthy`` at full HP, ``hurt`` below it and above half,
    ``bloodied`` at half or below (``Combatant.bloodied``), ``down`` at 0
    (RULES.md §4); temp HP, a separate pool (§6), never change it."""
    if c.down:
        return "down"
    if c.bloodied:
        return "bloodied"
    return "healthy" if c.hp >= c.max_hp else "hurt"


def visibility(c: Combatant) -> str:
    """How the view shows *c*: a player always in full."""
    return VISIBLE if c.player else c.visibility


def _hp(c: Combatant, mode: str) -> dict[str, Any] | None:
    if mode == "exact":
        return {"kind": "exact", "hp": c.hp, "max": c.max_hp, "temp": c.temp_hp}
    if mode == "band":
        return {"kind": "band", "band": hp_band(c)}
    return None


_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


def _ordinal(n: int) -> str:
    """``3rd``, ``11th``, ``22nd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else _SUFFIXES.get(n % 10, "th")
    return f"{n}{suffix}"


def duration_words(
    enc: Encounter, duration: Duration | None, current: str | None = None
) -> str | None:
    """A duration as the players read it (RULES.md §10): ``until the end
    of Mira's next turn``, ``… current turn``, ``… turn after next``,
    ``… 3rd turn from now``; the combatant it counts on named only if the
    players see it (``an unknown creature`` when masked, :data:`UNTOLD`
    when hidden).  *current*: whose turn the players see as on now
    (default: the active combatant's)."""
    if duration is None:
        return None
    counter = next((c for c in enc.combatants if c.name == duration.of), None)
    if counter is None or visibility(counter) == HIDDEN:
        return UNTOLD
    who = "an unknown creature" if visibility(counter) == MASKED else visible(counter.name)
    turns = duration.rounds_left
    if current is None and enc.started and enc.active is not None:
        current = enc.active.name
    if current == counter.name and duration.tick == "end":
        turns -= 1  # the end of the turn on now is still to come
    if turns <= 0:
        return f"until the end of {possessive(who)} current turn"
    if turns == 1:
        when = "next turn"
    elif turns == 2:
        when = "turn after next"
    else:
        when = f"{_ordinal(turns)} turn from now"
    return f"until the {duration.tick} of {possessive(who)} {when}"


def _condition(enc: Encounter, cond: Condition, current: str | None) -> dict[str, Any]:
    return {
        "name": visible(cond.name),
        "value": cond.value,
        "duration": duration_words(enc, cond.duration, current),
    }


def _shown_turn(enc: Encounter, shown: list[bool]) -> tuple[int | None, int, bool]:
    """The index of the turn the players see highlighted, its round relative
    to the actual one (-1, 0 or +1), and whether that turn is still to come:
    the active combatant if shown; while a hidden one acts, the shown one
    just before it if it takes turns, else (it has just delayed, or nobody
    visible has acted yet) the next shown one to act.  So a hidden turn
    never shows the turn moving back, nor a started fight with nobody's
    turn (docs/rules.md, "Whose turn")."""
    turn = enc.turn
    if not enc.started or turn is None or not 0 <= turn < len(enc.combatants):
        return None, 0, False
    if shown[turn]:
        return turn, 0, False
    skip = passed_over(enc)
    n = len(enc.combatants)
    for step in range(1, n):
        i = turn - step
        if i < 0 and enc.round <= 1:
            break  # nobody visible has acted yet
        if shown[i % n]:
            if enc.combatants[i % n].name not in skip:
                return i % n, -1 if i < 0 else 0, False
            break
    ahead = _next_shown(enc, shown, turn)  # below the turn: wrapped into the next round
    return (None, 0, False) if ahead is None else (ahead, 1 if ahead < turn else 0, True)


def _next_shown(enc: Encounter, shown: list[bool], after: int) -> int | None:
    """The index of the next shown combatant to take a turn after index
    *after* (RULES.md §4: delaying and passed-over down monsters excluded),
    or None."""
    skip = passed_over(enc)
    n = len(enc.combatants)
    ahead = (i % n for i in range(after + 1, after + n))
    return next((i for i in ahead if shown[i] and enc.combatants[i].name not in skip), None)


def _al(c: Combatant) -> int:
    """The AL with its stacked AL bonuses, no cover (RULES.md §9); the base
    AL when a bonus of a hand-edited file cannot be stacked."""
    try:
        return c.al + stack(c.bonuses, "al").total
    except ValueError:
        return c.al


def _combatant(
    enc: Encounter, c: Combatant, settings: ViewSettings, place: int, current: str | None
) -> dict[str, Any]:
    masked = visibility(c) == MASKED
    entry: dict[str, Any] = {
        "id": f"c{place + 1}",
        "name": UNKNOWN if masked else visible(c.name),
        "player": c.player,
        "masked": masked,
        "active": False,
        "next": False,
        "delayed": c.name in enc.delayed,
        "down": c.down,
        "hp": None,
        "al": None,
        "initiative": c.initiative if settings.show_initiative else None,
        "conditions": [],
        "persistent": [],
    }
    if masked:
        return entry
    entry["hp"] = _hp(c, settings.player_hp if c.player else settings.monster_hp)
    if settings.show_al:
        entry["al"] = _al(c)
    entry["conditions"] = [_condition(enc, cond, current) for cond in c.conditions]
    entry["persistent"] = [visible("/".join(p.tags)) or "persistent" for p in c.persistent]
    return entry


def players_view(encounter: Encounter, settings: ViewSettings | None = None) -> dict[str, Any]:
    """The JSON-ready dict of ONLY what the players may see of *encounter*,
    by *settings* (default: the encounter's own, ``Encounter.view``).  Every
    text is a person's text made safe by ``rules.text.visible``::

        {"name": str, "round": int (0 when combat is not on),
         "started": bool, "ended": bool (fought, then ``end``),
         "active": int | None, "next": int | None (indexes in "combatants"),
         "shows": {"monster_hp"/"player_hp": "band"|"exact"|"hidden",
                   "al": bool, "initiative": bool},
         "combatants": [  # in initiative order, hidden ones left out
           {"id": "c1" (its place in THIS list: no name),
            "name": str (UNKNOWN when masked), "player": bool, "masked": bool,
            "active"/"next"/"delayed"/"down": bool,
            "hp": {"kind": "exact", "hp": int, "max": int, "temp": int}
                | {"kind": "band", "band": one of BANDS} | None,
            "al": int | None, "initiative": int | None,
            "conditions": [{"name": str, "value": int | None,
                            "duration": str | None (in words)}],
            "persistent": [str, ...] (tags only: "fire", "bleed/acid")}, ...]}

    A masked combatant shows only its place, initiative, down and delayed;
    the highlighted turn is :func:`_shown_turn`'s."""
    enc = encounter
    settings = enc.view if settings is None else settings
    shown = [visibility(c) != HIDDEN for c in enc.combatants]
    highlighted, round_shift, ahead = _shown_turn(enc, shown)
    upcoming = None if highlighted is None else _next_shown(enc, shown, highlighted)
    # a turn shown before it comes is worded as the one on now
    current = enc.combatants[highlighted].name if ahead and highlighted is not None else None
    entries: list[dict[str, Any]] = []
    active = following = None
    for i, c in enumerate(enc.combatants):
        if not shown[i]:
            continue
        entry = _combatant(enc, c, settings, len(entries), current)
        if i == highlighted:
            entry["active"], active = True, len(entries)
        if i == upcoming:
            entry["next"], following = True, len(entries)
        entries.append(entry)
    return {
        "name": visible(enc.name),
        # after the fight, no round: ended on a hidden turn, the actual
        # round can be one more than the last the players saw
        "round": enc.round + round_shift if enc.started else 0,
        "started": enc.started,
        "ended": not enc.started and enc.round > 0,
        "active": active,
        "next": following,
        "shows": {
            "monster_hp": settings.monster_hp,
            "player_hp": settings.player_hp,
            "al": settings.show_al,
            "initiative": settings.show_initiative,
        },
        "combatants": entries,
    }
