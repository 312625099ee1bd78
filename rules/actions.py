"""The action language: one line per change to an encounter.

Every change to an encounter is an *action*, a small JSON-able dict such as
``{"verb": "damage", "targets": ["Goblin 2"], "amount": "2d6+3", "tags":
["fire"]}``.  :func:`parse_action` turns a line the GM typed into one;
:func:`format_action` turns one back into a line; :func:`normalize_action`
checks a dict built by code (the UI, the prepared-encounter loader) the same
way a typed line is checked.  The engine (``rules.engine``) applies them.

Syntax (Avrae's ``!init`` vocabulary is the model; ``HELP`` has every verb):

- Words are split like a shell does (``shlex``): quote names with spaces,
  ``"Goblin 2"`` or ``'Goblin 2'``.
- ``T`` is one or more combatants, separated by commas in one word
  (``"Goblin 1,Goblin 3"``).  Each is a name, any case, or a unique prefix of
  one; the engine resolves them (and lists the candidates when one is
  ambiguous or unknown).
- A dice expression may be typed with spaces around ``+`` / ``-``
  (``2d6 + 3``): the pieces are joined back together.
- Any line may end with ``faces N,N,…``: physical dice typed by the GM, used
  in order by the dice the action rolls, before the random source.  ``roll N``
  (attack, move, luck) is the d20 face for that verb's check.
- Keywords are case-insensitive; damage tags, bonus types and field names are
  lower-cased; names keep the case they were typed in.

The canonical record holds only what was given: absent options are left out,
flags (``crit``, ``player``, ``avg``, ``nospend``) appear only when set, and
tag lists only when not empty.  ``parse_action(format_action(a)) == a`` for
every canonical record (property-tested).

Several actions as one step: actions separated by ``;`` on one line
(outside quotes), ``set Goblin max_hp 30; set Goblin hp 20; set Goblin al 14``,
parse into ``{"verb": "batch", "actions": [record, …]}``.  The engine applies
them in order, all or nothing, as ONE step (one undo); an error names the
part that failed (``part 2 of 3 (set Goblin hp x): …``).  ``undo``, ``redo``
and ``prev`` cannot be part of a batch (their meaning depends on the history,
which a batch is about to change); every other verb can, ``start`` and
``next`` included.  Empty parts (``a; ; b;``) are ignored, and a line with
one action left is that action, not a batch.  ``format_action`` writes a
batch back joined with ``"; "``.

Every problem raises :class:`ActionError` with one message naming it; nothing
else ever escapes :func:`parse_action`, whatever the text.
"""

from __future__ import annotations

import shlex
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from rules.errors import ActionError
from rules.text import MAX_NAME, MAX_NOTES, check_text, describe, first_unsafe

#: usage line per verb, for help screens and completion.
HELP: dict[str, str] = {
    "add": (
        "add NAME [count N] [hp N|DICE] [avg] [al N] [init N] [bonus N] [player] "
        "[dex|per|str|con|int|wis|cha|luck N] [athletics N] [immune TAG,…] "
        "[resist TAG=N,…] [weak TAG,…] [susceptible TAG,…] [notes TEXT]"
    ),
    "remove": "remove T",
    "init": "init T N",
    "order": "order T up|down",
    "set": "set T FIELD VALUE",
    "start": "start",
    "next": "next",
    "prev": "prev",
    "damage": "damage T AMOUNT|DICE [TAG…] [crit]",
    "heal": "heal T AMOUNT|DICE",
    "temp": "temp T N|DICE [rounds N] [at start|end] [of C]",
    "persist": "persist T DICE TAG… [dc N]",
    "unpersist": "unpersist T TAG",
    "cond": "cond T NAME [value V] [rounds N] [at start|end] [of C]",
    "uncond": "uncond T NAME",
    "move": "move T dash|run|sprint [roll N] [nospend]",
    "bonus": "bonus T TYPE VALUE [to al|checks|attacks] [rounds N] [at start|end] [of C]",
    "unbonus": "unbonus T TYPE",
    "attack": (
        "attack T [with +N] [adv N] [dis N] [cover half|three-quarters|total] [roll N] "
        "[damage DICE [TAG…]]"
    ),
    "delay": "delay T",
    "return": "return T",
    "roll": "roll EXPR [adv N] [dis N] [dc N|dl NAME]",
    "luck": "luck T [roll N]",
    "cinematic": "cinematic T adv|dis",
    "undo": "undo",
    "redo": "redo",
}

#: every verb of the language, for completion.
VERBS: tuple[str, ...] = tuple(HELP)

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
    "dex",
    "per",
    "str",
    "con",
    "int",
    "wis",
    "cha",
    "luck",
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

ABILITY_KEYS: tuple[str, ...] = ("dex", "per", "str", "con", "int", "wis", "cha", "luck")
MOVEMENTS: tuple[str, ...] = ("dash", "run", "sprint")
COVERS: tuple[str, ...] = ("half", "three-quarters", "total")
APPLIES: tuple[str, ...] = ("al", "checks", "attacks")
TICKS: tuple[str, ...] = ("start", "end")

#: Size limits of the language's whole numbers (typo guards, not rules):
#: amounts, hit points, temp HP, resistances and endurance points at most
#: MAX_NUMBER; initiative, AL, DCs, bonuses, modifiers and condition values
#: within ±MAX_MODIFIER; counts (combatants, advantages, luck points) at most
#: MAX_COUNT; durations at most MAX_ROUNDS rounds.  Every bound is checked by
#: :func:`bounded`, so every field says "… is too large (at most N)" alike,
#: typed on the command line, in the app or built as a dict.
MAX_NUMBER = 1_000_000
MAX_MODIFIER = 1000
MAX_COUNT = 100
MAX_ROUNDS = 1000
MAX_FACES = 1000

#: (lowest, highest) of a whole-number field by the word that names it; any
#: other whole-number field (al, init, bonus, with, value, athletics, …) is
#: within ±MAX_MODIFIER.
BOUNDS: dict[str, tuple[int, int]] = {
    "count": (1, MAX_COUNT),
    "adv": (0, MAX_COUNT),
    "dis": (0, MAX_COUNT),
    "rounds": (1, MAX_ROUNDS),
    "dc": (1, MAX_MODIFIER),
    "hp": (1, MAX_NUMBER),
    "max_hp": (1, MAX_NUMBER),
    "temp": (0, MAX_NUMBER),
    "endurance": (0, MAX_NUMBER),
    "luck_points": (0, MAX_COUNT),
    "resist": (0, MAX_NUMBER),
}
_MODIFIER_BOUNDS = (-MAX_MODIFIER, MAX_MODIFIER)


def bounded(key: str, value: int | str, low: int | None = None, high: int | None = None) -> int:
    """*value* (an int, or text like ``-3`` / ``+12``) as a whole number
    within the bounds of field *key* (:data:`BOUNDS`, or *low*/*high*).

    Raises :class:`ActionError`: ``hp 'x' is not a whole number``,
    ``hp 99999999999 is too large (at most 1,000,000)``, ``… is too small
    (at least 1)``.
    """
    default_low, default_high = BOUNDS.get(key.split(" ")[0], _MODIFIER_BOUNDS)
    low = default_low if low is None else low
    high = default_high if high is None else high
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ActionError(f"{key} must be a whole number, not {value!r}")
    text = str(value).strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not digits.isascii() or not digits.isdigit():
        raise ActionError(f"{key} must be a whole number, not {str(value)!r}")
    if len(digits.lstrip("0")) > 12:  # no int() of a thousand digits
        sign = "small" if text.startswith("-") else "large"
        limit = f"at least {low:,}" if sign == "small" else f"at most {high:,}"
        raise ActionError(f"{key} {text} is too {sign} ({limit})")
    n = int(text)
    if n > high:
        raise ActionError(f"{key} {n} is too large (at most {high:,})")
    if n < low:
        raise ActionError(f"{key} {n} is too small (at least {low:,})")
    return n


# ---------------------------------------------------------------------------
# Verb grammar, as data.
#
# A positional kind is one of: targets (one word, comma-separated names),
# target (exactly one name), text (a name: condition, combatant), word
# (lower-cased), int, dice, hp (int or dice), rest (the remaining words),
# or a tuple of allowed lower-case words.  Options map a keyword to
# (record key, kind) with kinds int, word, text, flag, dice, hp, tags, resist,
# ability, or a tuple of allowed words.  ``free`` names the record key that
# collects any other words (damage tags), or None.

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
    **{a: (a, "ability") for a in ABILITY_KEYS},
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
    "damage": _Spec(
        [("targets", "targets"), ("amount", "dice")], {"crit": ("crit", "flag")}, free="tags"
    ),
    "heal": _Spec([("targets", "targets"), ("amount", "dice")]),
    "temp": _Spec([("targets", "targets"), ("amount", "dice")], _DURATION_OPTS),
    "persist": _Spec(
        [("targets", "targets"), ("dice", "dice")], {"dc": ("dc", "int")}, free="tags"
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
    "roll": _Spec(
        [("expr", "dice")],
        {"adv": ("adv", "int"), "dis": ("dis", "int"), "dc": ("dc", "int"), "dl": ("dl", "word")},
    ),
    "luck": _Spec([("targets", "targets")], {"roll": ("roll", "int")}),
    "cinematic": _Spec([("targets", "targets"), ("mode", ("adv", "dis"))]),
    "undo": _Spec(),
    "redo": _Spec(),
}

# ---------------------------------------------------------------------------
# Parsing


def _fail(verb: str, problem: str) -> ActionError:
    return ActionError(f"{verb}: {problem}  (usage: {HELP[verb]})" if verb in HELP else problem)


def _int(verb: str, key: str, token: str) -> int:
    if key == "roll":
        try:
            return bounded("roll", token, 1, 20)
        except ActionError:
            raise _fail(verb, f"roll is the d20 face, 1 to 20, not {token.strip()}") from None
    try:
        return bounded(key, token)
    except ActionError as exc:
        raise _fail(verb, str(exc)) from None


def check_dice(text: str, what: str = "dice") -> str:
    """Validate a dice expression with ``rules.dice.parse`` (RULES.md §1);
    a bad one raises :class:`ActionError` carrying the dice module's message."""
    if not text.strip():
        raise ActionError(f"{what}: a dice expression or number is needed")
    from rules.dice import DiceError, parse
    from rules.limits import check_amount

    try:
        expr = parse(text)
    except (DiceError, ValueError) as exc:
        raise ActionError(f"{what}: {exc}") from None
    for term in expr.terms:
        if term.value > MAX_NUMBER:
            raise ActionError(f"{what}: {term.value} is too large (at most {MAX_NUMBER:,})")
    # The bound is on what the amount can come to, not only on each number
    # typed, so 999999+999999 is refused before anything is rolled.
    check_amount(what, text)
    return text


def _is_number(token: str) -> bool:
    digits = token[1:] if token[:1] in "+-" else token
    return digits.isascii() and digits.isdigit()


def _take_dice(tokens: list[str], i: int) -> tuple[str, int]:
    """The dice expression starting at ``tokens[i]``, re-joining pieces typed
    with spaces around ``+`` and ``-``."""
    expr = tokens[i]
    i += 1
    while i < len(tokens) and (expr.endswith(("+", "-")) or tokens[i][:1] in ("+", "-")):
        expr += tokens[i]
        i += 1
    return expr, i


def _tags(verb: str, key: str, token: str) -> list[str]:
    tags = [t.strip().lower() for t in token.split(",")]
    if not all(tags):
        raise _fail(verb, f"{key}: empty tag in {token!r}")
    return list(dict.fromkeys(tags))


def _resist(verb: str, token: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in token.split(","):
        tag, sep, value = part.partition("=")
        tag = tag.strip().lower()
        if not tag:
            raise _fail(verb, f"resist: empty tag in {token!r} (write fire=5,cold=5)")
        out[tag] = _int(verb, f"resist {tag}", value) if sep else 0
    return out


def _targets(verb: str, token: str, single: bool) -> list[str]:
    names = [n.strip() for n in token.split(",")]
    if not all(names):
        raise _fail(verb, f"empty combatant name in {token!r}")
    names = list(dict.fromkeys(names))
    if single and len(names) != 1:
        raise _fail(verb, f"takes exactly one combatant, not {len(names)}")
    return names


def _choice(verb: str, key: str, token: str, allowed: tuple[str, ...]) -> str:
    word = token.strip().lower()
    if word not in allowed:
        raise _fail(verb, f"{key} is {' or '.join(allowed)}, not {token!r}")
    return word


def _split(line: str) -> list[str]:
    try:
        return shlex.split(line)
    except ValueError as exc:
        raise ActionError(f"cannot read the line: {exc} (check the quotes)") from None


def _faces(token: str) -> list[int]:
    faces = []
    for part in token.split(","):
        part = part.strip()
        if not part.isascii() or not part.isdigit() or len(part) > 4 or int(part) < 1:
            raise ActionError(f"faces: {part!r} is not a die face (write faces 12,3,4)")
        faces.append(int(part))
    if len(faces) > MAX_FACES:
        raise ActionError(f"faces: at most {MAX_FACES} faces")
    return faces


#: the record verb of several actions applied as one step (not typed).
BATCH = "batch"
#: verbs that cannot be part of a batch (they act on the history).
NOT_IN_BATCH = frozenset({"undo", "redo", "prev"})
MAX_BATCH = 100


def split_batch(line: str) -> list[str]:
    """*line* split at each ``;`` outside quotes (shell quoting rules, as
    :func:`parse_action` reads words); the parts are not stripped."""
    if ";" not in line:
        return [line]
    parts: list[str] = []
    buf: list[str] = []
    quote = ""
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if quote:
            if ch == quote:
                quote = ""
            elif ch == "\\" and quote == '"' and i + 1 < n:
                buf.append(ch)
                i += 1
                ch = line[i]
        elif ch in "'\"":
            quote = ch
        elif ch == "\\" and i + 1 < n:
            buf.append(ch)
            i += 1
            ch = line[i]
        elif ch == ";":
            parts.append("".join(buf))
            buf = []
            i += 1
            continue
        buf.append(ch)
        i += 1
    parts.append("".join(buf))
    return parts


def _batch_part(record: dict[str, Any], n: int, total: int, shown: str) -> dict[str, Any]:
    if record["verb"] in NOT_IN_BATCH:
        raise ActionError(
            f"part {n} of {total} ({shown}): {record['verb']} cannot be part of a batch "
            "(send it on its own line)"
        )
    return record


def _parse_batch(parts: list[str]) -> dict[str, Any]:
    if len(parts) > MAX_BATCH:
        raise ActionError(f"too many actions on one line ({len(parts)}; at most {MAX_BATCH})")
    actions = []
    for n, part in enumerate(parts, 1):
        shown = part.strip()
        try:
            record = _parse_one(part)
        except ActionError as exc:
            raise ActionError(f"part {n} of {len(parts)} ({shown}): {exc}") from None
        actions.append(_batch_part(record, n, len(parts), shown))
    return {"verb": BATCH, "actions": actions}


def parse_action(line: str) -> dict[str, Any]:
    """Parse one line of the action language into its canonical record
    (several actions separated by ``;``: a batch record, see the module
    docstring).

    Raises :class:`ActionError` (and nothing else) with one message naming
    the problem, for any text at all.
    """
    if not isinstance(line, str):
        raise ActionError(f"an action line is text, not {type(line).__name__}")
    if len(line) > 2000:
        raise ActionError(f"the line is too long ({len(line)} characters; at most 2000)")
    line = unicodedata.normalize("NFC", line)
    try:
        parts = [p for p in split_batch(line) if p.strip()]
        one = parts[0] if parts else ""
        record = _parse_batch(parts) if len(parts) > 1 else _parse_one(one)
    except ActionError:
        bad = first_unsafe(line.strip())
        if bad >= 0:  # say so, rather than echo the character in a message
            raise ActionError(
                f"the line contains {describe(line.strip()[bad])} at character {bad + 1}: "
                "no control, bidirectional or invisible characters"
            ) from None
        raise
    _check_texts(record)
    return record


#: record keys whose text may be longer than a name.
_LONG_TEXT = frozenset({"notes"})
#: keys that name something that already exists (a combatant, a condition
#: to remove) rather than new text: an encounter saved with a name refused
#: today must still be reachable, and an unknown one is an error anyway.
_REFERENCES = frozenset({"targets", "of"})
_REFERENCE_VERBS = frozenset({"uncond", "unpersist", "unbonus"})


def _check_texts(record: Mapping[str, Any], where: str = "") -> None:
    """Every text a record carries (names, targets, tags, conditions, notes)
    passes :func:`rules.text.check_text`; the message names the verb and the
    field (``add name cannot contain U+001B ESCAPE …``)."""
    verb = str(record.get("verb", ""))
    if verb == BATCH:
        for n, part in enumerate(record["actions"], 1):
            _check_texts(part, f"part {n}: ")
        return
    for key, value in record.items():
        if key in _REFERENCES or (verb in _REFERENCE_VERBS and key != "verb"):
            continue
        field = f"{where}{verb} {key}"
        limit = MAX_NAME
        if key in _LONG_TEXT or (key == "value" and record.get("field") != "name"):
            limit = MAX_NOTES
        if isinstance(value, str):
            check_text(field, value, limit)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, str):
                    check_text(field, item, limit)
        elif isinstance(value, dict):
            for item in value:
                check_text(field, str(item), limit)


def _parse_one(line: str) -> dict[str, Any]:
    tokens = _split(line)
    if not tokens:
        raise ActionError("empty line: type a verb (" + ", ".join(VERBS) + ")")
    verb = tokens[0].lower()
    spec = SPECS.get(verb)
    if spec is None:
        close = [v for v in VERBS if v.startswith(verb[:2])] if verb else []
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise ActionError(f"unknown verb {tokens[0]!r}{hint}; verbs: {', '.join(VERBS)}")
    rest = tokens[1:]
    action: dict[str, Any] = {"verb": verb}
    if len(rest) >= 2 + len(spec.positional) and rest[-2].lower() == "faces":
        action["faces"] = _faces(rest[-1])
        rest = rest[:-2]
    i = _parse_positional(verb, spec, rest, action)
    _parse_options(verb, spec, rest, i, action)
    if verb == "set":
        _check_set_value(action["field"], action["value"])
    if "faces" in action:  # keep the canonical key order: faces last
        action["faces"] = action.pop("faces")
    return action


def _parse_positional(verb: str, spec: _Spec, rest: list[str], action: dict[str, Any]) -> int:
    i = 0
    for key, kind in spec.positional:
        if i >= len(rest):
            raise _fail(verb, f"missing {key}")
        token = rest[i]
        if kind == "rest":
            action[key] = " ".join(rest[i:])
            return len(rest)
        i += 1
        if kind in ("targets", "target"):
            action[key] = _targets(verb, token, kind == "target")
        elif kind == "text":
            if not token.strip():
                raise _fail(verb, f"{key} cannot be empty")
            action[key] = token.strip()
        elif kind == "word":
            if not token.strip():
                raise _fail(verb, f"{key} cannot be empty")
            action[key] = token.strip().lower()
        elif kind == "int":
            action[key] = _int(verb, key, token)
        elif kind == "dice":
            expr, i = _take_dice(rest, i - 1)
            action[key] = check_dice(expr, f"{verb} {key}")
        elif isinstance(kind, tuple):
            action[key] = _choice(verb, key, token, kind)
    return i


def _parse_options(verb: str, spec: _Spec, rest: list[str], i: int, action: dict[str, Any]) -> None:
    free: list[str] = []
    seen: set[str] = set()
    while i < len(rest):
        word = rest[i].lower()
        opt = spec.options.get(word)
        if opt is None:
            if spec.free is None or (verb == "attack" and "damage" not in action):
                raise _fail(verb, f"unexpected {rest[i]!r}")
            tag = rest[i].strip().lower()
            if not tag or "," in tag:
                raise _fail(verb, f"bad damage tag {rest[i]!r}")
            if tag not in free:
                free.append(tag)
            i += 1
            continue
        key, kind = opt
        if word in seen:
            raise _fail(verb, f"{word} given twice")
        seen.add(word)
        i += 1
        if kind == "flag":
            action[key] = True
            continue
        if i >= len(rest):
            raise _fail(verb, f"{word} needs a value")
        token = rest[i]
        i += 1
        if kind == "int":
            action[key] = _int(verb, word, token)
        elif kind == "ability":
            score = _int(verb, word, token)
            if not 1 <= score <= 30:
                raise _fail(verb, f"{word} is an ability score from 1 to 30, not {score}")
            action.setdefault("abilities", {})[key] = score
        elif kind == "hp":
            if _is_number(token):
                action[key] = _int(verb, "hp", token)
            else:
                expr, i = _take_dice(rest, i - 1)
                action[key] = check_dice(expr, f"{verb} hp")
        elif kind == "dice":
            expr, i = _take_dice(rest, i - 1)
            action[key] = check_dice(expr, f"{verb} {word}")
        elif kind == "text":
            if not token.strip():
                raise _fail(verb, f"{word} cannot be empty")
            action[key] = token.strip() if key != "notes" else token
        elif kind == "word":
            if not token.strip():
                raise _fail(verb, f"{word} cannot be empty")
            action[key] = token.strip().lower()
        elif kind == "tags":
            action[key] = _tags(verb, word, token)
        elif kind == "resist":
            action[key] = _resist(verb, token)
        elif isinstance(kind, tuple):
            action[key] = _choice(verb, word, token, kind)
    if free:
        action[spec.free or "tags"] = free
    if verb == "roll" and "dc" in action and "dl" in action:
        raise _fail(verb, "give dc N or dl NAME, not both")
    if verb in ("persist",) and not action.get("tags"):
        raise _fail(verb, "needs at least one damage tag (e.g. bleed, fire)")


#: ``set`` fields that may be cleared with ``none``.
_NULLABLE = frozenset({"initiative", "athletics", "luck_points", *ABILITY_KEYS})


def set_value(field: str, value: str) -> int | None:
    """The whole number ``set T FIELD VALUE`` gives a numeric *field*
    (aliases resolved), None for ``none`` where a field may be cleared;
    raises :class:`ActionError` (``set max_hp: max_hp 1e20 is too large …``).
    Only the size and syntax: the engine checks what depends on the
    combatant (``hp`` within its ``max_hp``, endurance within its pool)."""
    field = SET_ALIASES.get(field, field)
    text = value.strip()
    if field in _NULLABLE and text.lower() in ("none", "-", ""):
        return None
    try:
        if field in ABILITY_KEYS:
            n = bounded(field, text)
            if not 1 <= n <= 30:
                raise ActionError(f"{field} is an ability score from 1 to 30, not {n}")
            return n
        return bounded(field, text, 0 if field == "hp" else None)  # set hp 0: down
    except ActionError as exc:
        raise ActionError(f"set: {exc}") from None


SET_NUMERIC = frozenset(
    {"hp", "max_hp", "al", "temp", "init_bonus", "initiative", "athletics", "luck_points"}
    | {"endurance", *ABILITY_KEYS}
)


def _check_set_value(field: str, value: str) -> None:
    field = SET_ALIASES.get(field, field)
    if field in SET_NUMERIC:
        set_value(field, value)
    elif field == "resistances" and value.strip().lower() not in ("none", "-", ""):
        for part in value.split(","):
            tag, sep, amount = part.partition("=")
            if sep:
                try:
                    bounded(f"resist {tag.strip().lower()}", amount)
                except ActionError as exc:
                    raise ActionError(f"set resistances: {exc}") from None


# ---------------------------------------------------------------------------
# Formatting


def _quote(text: str) -> str:
    return shlex.quote(text)


def _fmt_value(kind: _Kind, value: Any, key: str) -> str:
    if kind == "flag":
        return ""
    if kind in ("int", "ability"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ActionError(f"{key} must be a whole number, not {value!r}")
        return str(value)
    if kind == "hp":
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if not isinstance(value, str):
            raise ActionError(f"hp must be a number or dice, not {value!r}")
        return _quote(value)
    if kind == "tags":
        if not isinstance(value, list | tuple) or not all(isinstance(t, str) for t in value):
            raise ActionError(f"{key} must be a list of tags, not {value!r}")
        return _quote(",".join(value))
    if kind == "resist":
        if not isinstance(value, Mapping):
            raise ActionError(f"resistances must be a table tag → value, not {value!r}")
        return _quote(",".join(f"{k}={v}" for k, v in value.items()))
    if not isinstance(value, str):
        raise ActionError(f"{key} must be text, not {value!r}")
    return _quote(value)


def format_action(action: Mapping[str, Any]) -> str:
    """Write a record back as a line of the language (inverse of
    :func:`parse_action` for canonical records).  A record that cannot be
    written raises :class:`ActionError`."""
    if not isinstance(action, Mapping):
        raise ActionError(f"an action is a table of fields, not {type(action).__name__}")
    verb = action.get("verb")
    if verb == BATCH:
        return "; ".join(format_action(part) for part in _batch_actions(action))
    if not isinstance(verb, str) or verb.lower() not in SPECS:
        raise ActionError(f"unknown verb {verb!r}; verbs: {', '.join(VERBS)}")
    verb = verb.lower()
    spec = SPECS[verb]
    parts = [verb]
    for key, kind in spec.positional:
        if key not in action:
            raise _fail(verb, f"missing {key}")
        value = action[key]
        if kind in ("targets", "target"):
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list | tuple) or not all(isinstance(n, str) for n in value):
                raise _fail(verb, f"targets must be a list of names, not {value!r}")
            parts.append(_quote(",".join(value)))
        elif kind == "int":
            parts.append(_fmt_value("int", value, key))
        elif kind == "dice":
            parts.append(_quote(_fmt_dice(value, key)))
        else:
            parts.append(_fmt_value("text", value, key))
    by_key = {key: (word, kind) for word, (key, kind) in spec.options.items()}
    for key, (word, kind) in by_key.items():
        if kind == "ability":
            continue
        value = action.get(key)
        if value is None or (kind in ("tags", "resist") and not value):
            continue  # absent, or an empty list / table: nothing to say
        if kind == "flag":
            if value:
                parts.append(word)
            continue
        if kind == "dice":
            parts += [word, _quote(_fmt_dice(value, key))]
        else:
            parts += [word, _fmt_value(kind, value, key)]
    abilities = action.get("abilities")
    if abilities:
        if not isinstance(abilities, Mapping):
            raise _fail(verb, f"abilities must be a table of scores, not {abilities!r}")
        for name, score in abilities.items():
            if name not in ABILITY_KEYS:
                raise _fail(verb, f"unknown ability {name!r} (known: {', '.join(ABILITY_KEYS)})")
            parts += [name, _fmt_value("int", score, name)]
    if spec.free and action.get(spec.free):
        tags = action[spec.free]
        if not isinstance(tags, list | tuple) or not all(isinstance(t, str) for t in tags):
            raise _fail(verb, f"tags must be a list of words, not {tags!r}")
        parts += [_quote(t) for t in tags]
    faces = action.get("faces")
    if faces:
        if not isinstance(faces, list | tuple) or not all(
            isinstance(f, int) and not isinstance(f, bool) for f in faces
        ):
            raise _fail(verb, f"faces must be a list of whole numbers, not {faces!r}")
        parts += ["faces", ",".join(str(f) for f in faces)]
    return " ".join(parts)


def _fmt_dice(value: Any, key: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise ActionError(f"{key} must be a number or dice expression, not {value!r}")
    return value


#: Record keys that only the engine writes into a resolved (journaled) action.
RESOLVED_KEYS = frozenset({"undone", "redone", "unused_faces"})


def _batch_actions(action: Mapping[str, Any]) -> list[Mapping[str, Any]]:
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


def normalize_action(action: Mapping[str, Any] | str) -> dict[str, Any]:
    """A canonical record from a line or a dict built by code.

    A dict is checked exactly as if its line had been typed (it is formatted
    and parsed again), so code cannot slip past a check the GM would hit.
    A batch record is checked part by part; with one part it is that part.
    """
    if isinstance(action, str):
        return parse_action(action)
    if isinstance(action, Mapping) and action.get("verb") == BATCH:
        parts = _batch_actions(action)
        out = []
        for n, part in enumerate(parts, 1):
            try:
                out.append(normalize_action(part))
            except ActionError as exc:
                raise ActionError(f"part {n} of {len(parts)}: {exc}") from None
        return out[0] if len(out) == 1 else {"verb": BATCH, "actions": out}
    if isinstance(action, Mapping) and RESOLVED_KEYS.intersection(action):
        action = {k: v for k, v in action.items() if k not in RESOLVED_KEYS}
    try:
        line = format_action(action)
    except ActionError:
        raise
    except (TypeError, ValueError, AttributeError) as exc:
        raise ActionError(f"malformed action {dict(action)!r}: {exc}") from None
    known = _known_keys(str(action.get("verb", "")).lower())
    unknown = sorted(k for k in action if k not in known)
    if unknown:
        raise ActionError(f"{action.get('verb')}: unknown field {unknown[0]!r}")
    return parse_action(line)


def _known_keys(verb: str) -> set[str]:
    spec = SPECS.get(verb)
    if spec is None:
        return {"verb"}
    keys = {"verb", "faces"} | {k for k, _ in spec.positional}
    keys |= {key for key, _ in spec.options.values()}
    if spec.free:
        keys.add(spec.free)
    if verb == "add":
        keys.add("abilities")
    return keys


def completions(prefix: str, names: Sequence[str] = ()) -> list[str]:
    """Verbs (for the first word) or combatant names (later) starting with
    the last word of *prefix*; a small helper for command-line completion."""
    words = prefix.split(" ")
    last = words[-1].lower().lstrip("\"'")
    pool: Sequence[str] = VERBS if len(words) == 1 else names
    return [w for w in pool if w.lower().startswith(last)]


__all__ = [
    "BATCH",
    "ActionError",
    "HELP",
    "SET_FIELDS",
    "VERBS",
    "check_dice",
    "completions",
    "format_action",
    "normalize_action",
    "parse_action",
    "split_batch",
]
