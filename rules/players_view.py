"""The players' view (issue 12; docs/rules.md, "The players' view"): one
pure function from the encounter to the JSON-ready dict of ONLY what the
players may see, so nothing the GM hides ever leaves the process.  The web
page renders this dict and nothing else.

The dict (every text is a person's text made safe by
``rules.text.visible``, so no control character reaches a browser)::

    {
      "name": str,            # the encounter's name
      "round": int,           # the round of the turn shown (see "active"); 0
                              # when combat is not on
      "started": bool,        # combat is on
      "ended": bool,          # combat was fought and ended (``end``)
      "active": int | None,   # index in "combatants" of the highlighted turn
      "next": int | None,     # index of the next visible combatant to act
      "shows": {"monster_hp": "band"|"exact"|"hidden",
                "player_hp": "band"|"exact"|"hidden",
                "al": bool, "initiative": bool},
      "combatants": [         # in initiative order, hidden ones left out
        {
          "id": "c1",         # its place in THIS list (c1, c2, …): no name
          "name": str,        # or "Unknown creature" when masked
          "player": bool,
          "masked": bool,
          "active": bool, "next": bool, "delayed": bool, "down": bool,
          "hp": {"kind": "exact", "hp": int, "max": int, "temp": int}
              | {"kind": "band", "band": "healthy"|"hurt"|"bloodied"|"down"}
              | None,         # hidden by the setting, or masked
          "al": int | None,   # AL with AL bonuses (not cover), if shown
          "initiative": int | None,
          "conditions": [{"name": str, "value": int | None,
                          "duration": str | None}],   # in words
          "persistent": [str, …],   # tags only ("fire", "bleed/acid")
        }, …
      ],
    }

Rulings (docs/rules.md): a hidden combatant is absent (no count, no gap:
ids are places in the shown list); a masked one is "Unknown creature"
with its place, initiative (the order shows it anyway), down and delayed
markers, and nothing else.  While a hidden combatant's turn is on, the
visible turn just before it stays highlighted, with the round of that
turn, or, when there is none to keep (nobody visible has acted yet, or
the one before has just delayed), the next visible turn is highlighted
already (``_shown_turn``); "next" never names a hidden combatant and skips
those whose turns are passed over (RULES.md §4: delaying, down monsters)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.bonuses import stack
from rules.conditions import Condition
from rules.durations import Duration
from rules.engine.turns import passed_over
from rules.text import visible
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
    (RULES.md §4).  Temp HP never change the band (they are a separate
    pool, RULES.md §6)."""
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
    players see it (``an unknown creature`` when masked; no count at all
    when hidden: :data:`UNTOLD`).  *current*: whose turn the players see
    as on now (default: the active combatant's).  None when it has no
    duration."""
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
        return f"until the end of {who}'s current turn"
    if turns == 1:
        when = "next turn"
    elif turns == 2:
        when = "turn after next"
    else:
        when = f"{_ordinal(turns)} turn from now"
    return f"until the {duration.tick} of {who}'s {when}"


def _condition(enc: Encounter, cond: Condition, current: str | None) -> dict[str, Any]:
    return {
        "name": visible(cond.name),
        "value": cond.value,
        "duration": duration_words(enc, cond.duration, current),
    }


def _shown_turn(enc: Encounter, shown: list[bool]) -> tuple[int | None, int, bool]:
    """The index of the turn the players see highlighted, the round it is
    in relative to the actual one (-1, 0 or +1), and whether that turn is
    still to come.  The active combatant if shown.  While a hidden one
    acts: the shown combatant just before it (only hidden ones between,
    cyclically into the previous round) if it takes turns, since its turn
    has just been played; else (it is passed over now, as when it has just
    delayed, or nobody visible has acted yet this fight) the next shown one
    to act, as its turn will look.  So a hidden turn never shows the turn
    moving back, nor a started fight with nobody's turn."""
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
    for step in range(1, n):
        i = turn + step
        if shown[i % n] and enc.combatants[i % n].name not in skip:
            return i % n, 1 if i >= n else 0, True
    return None, 0, False


def _next_shown(enc: Encounter, shown: list[bool], highlighted: int | None) -> int | None:
    """The index of the next shown combatant that takes a turn after the
    one highlighted (RULES.md §4: delaying and passed-over down monsters
    excluded), or None (nobody highlighted, or nobody else to act)."""
    if highlighted is None:
        return None
    skip = passed_over(enc)
    n = len(enc.combatants)
    for step in range(1, n):
        i = (highlighted + step) % n
        if shown[i] and enc.combatants[i].name not in skip:
            return i
    return None


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
    """The JSON-ready dict of ONLY what the players may see of
    *encounter* (module docstring), by *settings* (default: the
    encounter's own, ``Encounter.view``)."""
    enc = encounter
    settings = enc.view if settings is None else settings
    shown = [visibility(c) != HIDDEN for c in enc.combatants]
    highlighted, round_shift, ahead = _shown_turn(enc, shown)
    upcoming = _next_shown(enc, shown, highlighted)
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


__all__ = [
    "BANDS",
    "UNKNOWN",
    "UNTOLD",
    "ViewSettings",
    "duration_words",
    "hp_band",
    "players_view",
    "visibility",
]
