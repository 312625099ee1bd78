"""The action language's grammar as data: each verb's usage (:data:`HELP`)
and word shapes (:data:`SPECS`), the ``set`` fields, and a batch record's
shape.  An action is a JSON-able dict such as ``{"verb": "damage",
"targets": ["Goblin 2"], "amount": "2d6+3", "tags": ["fire"]}``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.abilities import ABILITIES
from rules.engine.values import bounded, clears, parse_resistances
from rules.errors import ActionError
from rules.text import closest, shorten

#: usage line per verb, for help screens and completion.
HELP: dict[str, str] = {
    "add": (
        "add NAME [count N] [hp N|DICE] [avg] [al N] [init N] [bonus N] [player] "
        "[dex|per|str|con|int|wis|cha|luck N] [athletics N] [immune TAG,…] "
        "[resist TAG=N,…] [weak TAG,…] [susceptible TAG,…] [notes TEXT] [group [NAME]] "
        "[visible|masked|hidden]"
    ),
    "remove": "remove T|defeated",
    "init": "init T N",
    "order": "order T up|down",
    "set": "set T FIELD VALUE",
    "start": "start",
    "next": "next",
    "prev": "prev",
    "end": "end",
    "damage": "damage T AMOUNT|DICE [TAG…] [+ DICE TAG…] [crit] [half T] [none T]",
    "heal": "heal T AMOUNT|DICE",
    "temp": "temp T N|DICE [rounds N] [at start|end] [of C]",
    "persist": "persist T DICE TAG… [dc N] [of C]",
    "unpersist": "unpersist T TAG",
    "cond": "cond T NAME [value V] [rounds N] [at start|end] [of C]",
    "uncond": "uncond T NAME",
    "move": "move T dash|run|sprint [roll N] [nospend]",
    "bonus": "bonus T TYPE VALUE [to al|checks|attacks] [rounds N] [at start|end] [of C]",
    "unbonus": "unbonus T TYPE",
    "attack": (
        "attack T [with +N] [adv N] [dis N] [cover half|three-quarters|total] [roll N] "
        "[damage DICE [TAG…] [+ DICE TAG…]]"
    ),
    "delay": "delay T",
    "return": "return T",
    "group": "group NAME T",
    "ungroup": "ungroup T|NAME",
    "hide": "hide T",
    "mask": "mask T",
    "reveal": "reveal T",
    "view": (
        "view monster_hp|player_hp band|exact|hidden · "
        "view show_al|show_initiative|reveal_on_turn on|off · "
        "view new_monsters visible|masked|hidden"
    ),
    "roll": "roll EXPR [adv N] [dis N] [dc N|dl NAME]",
    "luck": "luck T [roll N]",
    "cinematic": "cinematic T adv|dis",
    "undo": "undo",
    "redo": "redo",
}


#: every verb of the language, for completion.
VERBS: tuple[str, ...] = tuple(HELP)

#: other words read as a verb: ``dmg`` is how a GM abbreviates damage on
#: paper and means nothing else (the record and the log say ``damage``).
VERB_ALIASES: dict[str, str] = {"dmg": "damage"}

#: words from other games and trackers that are NOT this language's but
#: name what one of its words does, offered when one is refused: ``hit``
#: may be a damage or an attack roll, ``ac`` is another game's armor, so
#: neither is read as a guess.
OTHER_WORDS: dict[str, tuple[str, ...]] = {
    "hit": ("damage", "attack"),
    "hp": ("damage", "heal"),
    "ac": ("al",),
    "armor": ("al",),
    "armour": ("al",),
    "initiative": ("init",),
}


def verb_of(word: str) -> str:
    """The verb *word* names (any case; an alias its verb), else *word* lower-cased."""
    word = word.lower()
    return VERB_ALIASES.get(word, word)


#: each verb's usage under each word that names it, for the ``:`` line's hint.
USAGE: dict[str, str] = {**HELP, **{alias: HELP[v] for alias, v in VERB_ALIASES.items()}}


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """``; did you mean crit?`` for a refused *word*: the words of *choices*
    :data:`OTHER_WORDS` gives for it, else the one it most likely
    misspells (``rules.text.closest``); empty when there is none."""
    meant = [w for w in OTHER_WORDS.get(word.strip().lower(), ()) if w in choices]
    close = closest(word, choices)
    if not meant and close is not None:
        meant = [close]
    return f"; did you mean {' or '.join(meant)}?" if meant else ""


#: the fields ``set T FIELD VALUE`` accepts (aliases map to these).
SET_FIELDS: tuple[str, ...] = (
    "hp",
    "max_hp",
    "al",
    "temp",
    "init_bonus",
    "initiative",
    "name",
    "notes",
    "athletics",
    "player",
    "luck_points",
    "endurance",
    *ABILITIES,
    "immunities",
    "resistances",
    "weaknesses",
    "susceptibilities",
)


#: other words ``set`` accepts for a field.
SET_ALIASES: dict[str, str] = {
    "temp_hp": "temp",
    "bonus": "init_bonus",
    "init": "initiative",
    "maxhp": "max_hp",
    "max": "max_hp",
    "immune": "immunities",
    "resist": "resistances",
    "weak": "weaknesses",
    "susceptible": "susceptibilities",
    "points": "endurance",
    "luck_point": "luck_points",
}


MOVEMENTS: tuple[str, ...] = ("dash", "run", "sprint")
COVERS: tuple[str, ...] = ("half", "three-quarters", "total")
APPLIES: tuple[str, ...] = ("al", "checks", "attacks")
TICKS: tuple[str, ...] = ("start", "end")

# A kind names how a word is read (targets, target, text, word, int, dice,
# hp, rest, flag, tags, resist, ability; ``flag-or-text``: a flag, or the
# next word as its text when that is no keyword of the verb) or is a tuple
# of allowed words.
# Options map a keyword to (record key, kind); ``free`` names the record key
# that collects any other words (damage tags).
_Kind = str | tuple[str, ...]
_DURATION_OPTS: dict[str, tuple[str, _Kind]] = {
    "rounds": ("rounds", "int"),
    "at": ("at", TICKS),
    "of": ("of", "text"),
}


class _Spec:
    __slots__ = ("positional", "options", "free")

    def __init__(
        self,
        positional: Sequence[tuple[str, _Kind]] = (),
        options: Mapping[str, tuple[str, _Kind]] | None = None,
        free: str | None = None,
    ) -> None:
        self.positional = tuple(positional)
        self.options = dict(options or {})
        self.free = free


_ADD_OPTS: dict[str, tuple[str, _Kind]] = {
    "count": ("count", "int"),
    "hp": ("hp", "hp"),
    "avg": ("avg", "flag"),
    "al": ("al", "int"),
    "init": ("init", "int"),
    "bonus": ("bonus", "int"),
    "player": ("player", "flag"),
    "athletics": ("athletics", "int"),
    "immune": ("immunities", "tags"),
    "resist": ("resistances", "resist"),
    "weak": ("weaknesses", "tags"),
    "susceptible": ("susceptibilities", "tags"),
    "notes": ("notes", "text"),
    "grouped": ("group", "flag"),  # before "group": format writes the last
    # ``group`` alone: the group named after NAME; ``group Horde``: that one
    "group": ("group", "flag-or-text"),
    # how the players' view shows the new combatants (one of the three)
    "visible": ("visible", "flag"),
    "masked": ("masked", "flag"),
    "hidden": ("hidden", "flag"),
    **{a: (a, "ability") for a in ABILITIES},
}


SPECS: dict[str, _Spec] = {
    "add": _Spec([("name", "text")], _ADD_OPTS),
    "remove": _Spec([("targets", "targets")]),
    "init": _Spec([("targets", "target"), ("value", "int")]),
    "order": _Spec([("targets", "target"), ("direction", ("up", "down"))]),
    "set": _Spec([("targets", "target"), ("field", "word"), ("value", "rest")]),
    "start": _Spec(),
    "next": _Spec(),
    "prev": _Spec(),
    "end": _Spec(),
    "damage": _Spec(
        [("targets", "targets"), ("amount", "dice")],
        {"crit": ("crit", "flag"), "half": ("half", "targets"), "none": ("none", "targets")},
        free="tags",
    ),
    "heal": _Spec([("targets", "targets"), ("amount", "dice")]),
    "temp": _Spec([("targets", "targets"), ("amount", "dice")], _DURATION_OPTS),
    "persist": _Spec(
        [("targets", "targets"), ("dice", "dice")],
        {"dc": ("dc", "int"), "of": ("of", "text")},
        free="tags",
    ),
    "unpersist": _Spec([("targets", "targets"), ("tag", "word")]),
    "cond": _Spec(
        [("targets", "targets"), ("name", "text")],
        {"value": ("value", "int"), **_DURATION_OPTS},
    ),
    "uncond": _Spec([("targets", "targets"), ("name", "text")]),
    "move": _Spec(
        [("targets", "targets"), ("movement", MOVEMENTS)],
        {"roll": ("roll", "int"), "nospend": ("nospend", "flag")},
    ),
    "bonus": _Spec(
        [("targets", "targets"), ("type", "word"), ("value", "int")],
        {"to": ("to", APPLIES), **_DURATION_OPTS},
    ),
    "unbonus": _Spec([("targets", "targets"), ("type", "word")]),
    "attack": _Spec(
        [("targets", "targets")],
        {
            "with": ("modifier", "int"),
            "adv": ("adv", "int"),
            "dis": ("dis", "int"),
            "cover": ("cover", COVERS),
            "roll": ("roll", "int"),
            "damage": ("damage", "dice"),
        },
        free="tags",
    ),
    "delay": _Spec([("targets", "targets")]),
    "return": _Spec([("targets", "targets")]),
    "group": _Spec([("name", "text"), ("targets", "targets")]),
    "ungroup": _Spec([("targets", "targets")]),
    "hide": _Spec([("targets", "targets")]),
    "mask": _Spec([("targets", "targets")]),
    "reveal": _Spec([("targets", "targets")]),
    "view": _Spec([("setting", "word"), ("value", "word")]),
    "roll": _Spec(
        [("expr", "dice")],
        {"adv": ("adv", "int"), "dis": ("dis", "int"), "dc": ("dc", "int"), "dl": ("dl", "word")},
    ),
    "luck": _Spec([("targets", "targets")], {"roll": ("roll", "int")}),
    "cinematic": _Spec([("targets", "targets"), ("mode", ("adv", "dis"))]),
    "undo": _Spec(),
    "redo": _Spec(),
}


#: the record verb of several actions applied as one step (not typed).
BATCH = "batch"
#: verbs that cannot be part of a batch (they act on the history).
NOT_IN_BATCH = frozenset({"undo", "redo", "prev"})
MAX_BATCH = 100

#: Record keys that only the engine writes into a resolved (journaled) action.
RESOLVED_KEYS = frozenset({"undone", "redone", "unused_faces"})


def fail(verb: str, problem: str) -> ActionError:
    return ActionError(f"{verb}: {problem}  (usage: {HELP[verb]})" if verb in HELP else problem)


def batch_parts(action: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The parts of a batch record, checked for shape."""
    unknown = sorted(k for k in action if k not in ("verb", "actions"))
    if unknown:
        raise ActionError(f"batch: unknown field {unknown[0]!r}")
    parts = action.get("actions")
    if not isinstance(parts, list | tuple) or not parts:
        raise ActionError("batch: actions must be a non-empty list of actions")
    if len(parts) > MAX_BATCH:
        raise ActionError(f"batch: at most {MAX_BATCH} actions, not {len(parts)}")
    for n, part in enumerate(parts, 1):
        if not isinstance(part, Mapping):
            raise ActionError(f"batch: part {n} is not an action ({part!r})")
        if part.get("verb") == BATCH:
            raise ActionError(f"batch: part {n} is a batch (batches do not nest)")
        if part.get("verb") in NOT_IN_BATCH:
            raise ActionError(f"batch: part {n}: {part['verb']} cannot be part of a batch")
    return list(parts)


#: ``set`` fields that may be cleared with ``none``.
_NULLABLE = frozenset({"initiative", "athletics", "luck_points", *ABILITIES})


def set_value(field: str, value: str) -> int | None:
    """The whole number ``set T FIELD VALUE`` gives a numeric *field*, None
    where ``none`` clears it; raises :class:`ActionError`.  Size and syntax
    only: the engine checks what depends on the combatant."""
    field = SET_ALIASES.get(field, field)
    text = value.strip()
    if field in _NULLABLE and clears(text):
        return None
    try:
        if field in ABILITIES:
            n = bounded(field, text)
            if not 1 <= n <= 30:
                raise ActionError(f"{field} is an ability score from 1 to 30, not {n}")
            return n
        return bounded(field, text, 0 if field == "hp" else None)  # set hp 0: down
    except ActionError as exc:
        raise ActionError(f"set: {exc}") from None


#: ``add`` flags that set how the players' view shows the new combatants.
ADD_VISIBILITY: tuple[str, ...] = ("visible", "masked", "hidden")


SET_NUMERIC = frozenset(
    {"hp", "max_hp", "al", "temp", "init_bonus", "initiative", "athletics", "luck_points"}
    | {"endurance", *ABILITIES}
)


def check_set_value(field: str, value: str) -> None:
    """Check what can be checked of ``set T FIELD VALUE`` without the
    combatant: a number's size and syntax, a resistance table's amounts."""
    field = SET_ALIASES.get(field, field)
    if field not in SET_FIELDS:
        hint = did_you_mean(field, [*SET_FIELDS, *SET_ALIASES])
        if hint:
            raise ActionError(f"set: unknown field {shorten(field)!r}{hint}")
        raise ActionError(
            f"set: unknown field {shorten(field)!r} (fields: {', '.join(SET_FIELDS)})"
        )
    if field in SET_NUMERIC:
        set_value(field, value)
    elif field == "resistances" and not clears(value):
        parse_resistances(value, "set resistances")
