"""Reading the action language (README, "The action language"; Avrae's
``!init`` vocabulary is the model): :func:`parse_action` turns a typed line
into its canonical record, holding only what was given, and
:func:`normalize_action` checks a record built by code the same way.  Any
line may end with ``faces N,N,…``; every problem is one :class:`ActionError`."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine.damage_parts import PART_VERBS, FreeWords
from rules.engine.format import format_action
from rules.engine.fuse import Spelled, begun_name, fuse_all, misspelled_name
from rules.engine.grammar import (
    ADD_VISIBILITY,
    BATCH,
    MAX_BATCH,
    NOT_IN_BATCH,
    RESOLVED_KEYS,
    SPECS,
    VERBS,
    _Kind,
    _Spec,
    batch_parts,
    check_set_value,
    did_you_mean,
    fail,
    verb_of,
)
from rules.engine.targets import targets_at
from rules.engine.values import check_dice
from rules.engine.words import (
    in_quotes,
    is_number,
    read_add_count,
    read_choice,
    read_faces,
    read_int,
    read_resistances,
    read_tags,
    read_targets,
    split_batch,
    split_words,
    take_dice,
)
from rules.errors import ActionError
from rules.limits import MAX_LINE
from rules.text import (
    CARRIAGE_RETURN_ENDS_LINES,
    MAX_NAME,
    MAX_NOTES,
    check_text,
    describe,
    first_unsafe,
    name_key,
    nfc,
    shorten,
    stray_return,
)
from rules.view_settings import canonical_word


def _batch_part(record: dict[str, Any], n: int, total: int, shown: str) -> dict[str, Any]:
    if record["verb"] in NOT_IN_BATCH:
        raise ActionError(
            f"part {n} of {total} ({shown}): {record['verb']} cannot be part of a batch "
            "(send it on its own line)"
        )
    return record


def _parse_batch(parts: list[str], spelled: Spelled | None) -> dict[str, Any]:
    if len(parts) > MAX_BATCH:
        raise ActionError(f"too many actions on one line ({len(parts)}; at most {MAX_BATCH})")
    actions = []
    for n, part in enumerate(parts, 1):
        shown = shorten(part.strip())
        try:
            record = _parse_one(part, spelled)
        except ActionError as exc:
            raise ActionError(f"part {n} of {len(parts)} ({shown}): {exc}") from None
        actions.append(_batch_part(record, n, len(parts), shown))
    return {"verb": BATCH, "actions": actions}


def parse_action(
    line: str, names: Sequence[str] = (), groups: Sequence[str] = ()
) -> dict[str, Any]:
    """Parse one line into its canonical record (a batch record for several
    actions); raises :class:`ActionError`, and nothing else, for any text.
    With the encounter's *names* (and its *groups*' names), an unquoted full
    name with spaces is one target (``rules.engine.fuse``).  A line is at
    most ``rules.limits.MAX_LINE`` characters, read in time linear in it."""
    if not isinstance(line, str):
        raise ActionError(f"an action line is text, not {type(line).__name__}")
    if len(line) > MAX_LINE:
        raise ActionError(f"the line is too long ({len(line):,} characters; at most {MAX_LINE:,})")
    stray = stray_return(line)
    if stray >= 0:  # read as a space, it would join two lines into one action
        raise ActionError(
            f"the line contains {describe(chr(13))} at character {stray + 1}: "
            f"{CARRIAGE_RETURN_ENDS_LINES}"
        )
    line = nfc(line)
    spelled = Spelled(names, groups) if names or groups else None
    try:
        parts = [p for p in split_batch(line) if p.strip()]
        one = parts[0] if parts else ""
        record = _parse_batch(parts, spelled) if len(parts) > 1 else _parse_one(one, spelled)
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


#: keys that name something that already exists rather than new text: an
#: encounter saved with a name refused now must still be reachable.
_REFERENCES = frozenset({"targets", "of", "half", "none"})


_REFERENCE_VERBS = frozenset({"uncond", "unpersist", "unbonus"})


def _check_texts(record: Mapping[str, Any], where: str = "") -> None:
    """Every new text a record carries passes :func:`rules.text.check_text`,
    the message naming the verb and the field."""
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
                elif key == "extra" and isinstance(item, Mapping):  # more damage parts
                    for tag in item.get("tags", ()):
                        check_text(f"{where}{verb} tags", str(tag), limit)
        elif isinstance(value, dict):
            for item in value:
                check_text(field, str(item), limit)


def _parse_one(line: str, spelled: Spelled | None) -> dict[str, Any]:
    tokens = split_words(line)
    if not tokens:
        raise ActionError("empty line: type a verb (" + ", ".join(VERBS) + ")")
    verb = verb_of(tokens[0])
    spec = SPECS.get(verb)
    if spec is None:
        hint = did_you_mean(tokens[0], VERBS)
        shown = shorten(tokens[0])
        raise ActionError(f"unknown verb {shown!r}{hint or '; verbs: ' + ', '.join(VERBS)}")
    rest = tokens[1:]
    quoted = False
    if spelled is not None and rest:
        after_verb = line.lstrip()[len(tokens[0]) :].lstrip()
        quoted = after_verb[:1] in ("'", '"')
        rest = fuse_all(spec, rest, spelled, lambda words: _parse_words(verb, spec, words), quoted)
    try:
        return _parse_words(verb, spec, rest)
    except ActionError:
        start = targets_at(spec)
        if spelled is not None and start is not None and not (quoted and start == 0):
            _refuse_part_of_name(verb, spec, rest, start, spelled)
        raise


def _refuse_part_of_name(
    verb: str, spec: _Spec, rest: list[str], start: int, spelled: Spelled
) -> None:
    """Raise the quoting hint when the words from ``rest[start]`` on, read
    apart, begin a name with spaces (``heal Brother Tom 5`` for Brother
    Tomas: the line failed on "Tom", not on the amount the GM typed) —
    or, when quoting them would not make the line read either, the name a
    few more words misspell (``heal Brother Tmoas 5``)."""

    def parses(words: list[str]) -> None:
        _parse_words(verb, spec, words)

    def misspelled(end: int) -> None:
        found = misspelled_name(rest, start, end, spelled, parses)
        if found is not None:
            raise ActionError(
                f'no combatant named "{shorten(found[0])}"; did you mean "{shorten(found[1])}"?'
            )

    end = begun_name(rest, start, spelled)
    if end is None:
        word = rest[start] if start < len(rest) else ","
        if "," not in word and spelled.begins_some(name_key(word.strip()) + " "):
            misspelled(start + 1)  # one word of a name with spaces, the next mistyped
        return
    typed = " ".join(rest[start:end])
    try:
        parses([*rest[:start], typed, *rest[end:]])
    except ActionError:
        misspelled(end)
    raise fail(
        verb,
        f"unexpected {shorten(rest[start + 1])!r}; "
        + in_quotes(verb, typed, shlex.join(rest[end:])),
    )


def _parse_words(verb: str, spec: _Spec, rest: list[str]) -> dict[str, Any]:
    action: dict[str, Any] = {"verb": verb}
    if len(rest) >= 2 + len(spec.positional) and rest[-2].lower() == "faces":
        action["faces"] = read_faces(rest[-1])
        rest = rest[:-2]
    i = _parse_positional(verb, spec, rest, action)
    _parse_options(verb, spec, rest, i, action)
    if verb == "set":
        check_set_value(action["field"], action["value"])
    if verb == "view":  # written canonically: yes → on (rules.view_settings)
        try:
            action["value"] = canonical_word(action["setting"], action["value"])
        except ValueError as exc:
            raise fail(verb, str(exc)) from None
    if "faces" in action:  # keep the canonical key order: faces last
        action["faces"] = action.pop("faces")
    return action


def _read(verb: str, label: str, kind: _Kind, rest: list[str], i: int) -> tuple[Any, int]:
    """The value of *kind* at ``rest[i]`` (a positional or an option's),
    named *label* in messages, and the index after it."""
    token = rest[i]
    if kind == "dice" or (kind == "hp" and not is_number(token)):
        expr, end = take_dice(rest, i, plus=kind == "dice" and verb in PART_VERBS)
        if kind == "hp":
            return check_dice(expr, f"{verb} hp"), end
        return check_dice(expr, f"{verb} {label}", amount=verb != "roll"), end
    if kind in ("int", "hp", "ability"):
        n = read_int(verb, label, token)
        if kind == "ability" and not 1 <= n <= 30:
            raise fail(verb, f"{label} is an ability score from 1 to 30, not {n}")
        return n, i + 1
    if kind in ("text", "flag-or-text", "word"):
        if not token.strip():
            raise fail(verb, f"{label} cannot be empty")
        if kind == "word":
            return token.strip().lower(), i + 1
        return (token if label == "notes" else token.strip()), i + 1
    if kind in ("targets", "target"):
        return read_targets(verb, token, kind == "target"), i + 1
    if kind == "tags":
        return read_tags(verb, label, token), i + 1
    if kind == "resist":
        return read_resistances(verb, token), i + 1
    assert isinstance(kind, tuple)
    return read_choice(verb, label, token, kind), i + 1


def _parse_positional(verb: str, spec: _Spec, rest: list[str], action: dict[str, Any]) -> int:
    i = 0
    for key, kind in spec.positional:
        if i >= len(rest):
            raise fail(verb, f"missing {key}")
        if kind == "rest":
            action[key] = " ".join(rest[i:])
            return len(rest)
        action[key], i = _read(verb, key, kind, rest, i)
    return i


def _parse_options(verb: str, spec: _Spec, rest: list[str], i: int, action: dict[str, Any]) -> None:
    free = FreeWords(verb)
    seen: set[str] = set()
    while i < len(rest):
        word = rest[i].lower()
        opt = spec.options.get(word)
        if opt is None:
            if word == "faces":  # a keyword, never a tag: it would not read back
                raise fail(verb, "faces comes last, with the faces (faces 12,3,4)")
            if spec.free is None or (verb == "attack" and "damage" not in action):
                raise _unexpected(verb, spec, rest, i)
            i = free.take(rest, i)
            continue
        key, kind = opt
        if word in seen:
            raise fail(verb, f"{word} given twice")
        seen.add(word)
        i += 1
        if kind == "flag" or (
            kind == "flag-or-text" and (i >= len(rest) or rest[i].lower() in spec.options)
        ):
            action[key] = True
            continue
        if i >= len(rest):
            raise fail(verb, f"{word} needs a value")
        if verb == "add" and word == "count":  # a horde past the bound: how to add it
            value, i = read_add_count(rest, i, spec.options), i + 1
        else:
            value, i = _read(verb, word, kind, rest, i)
        if kind == "ability":
            action.setdefault("abilities", {})[key] = value
        else:
            action[key] = value
    free.store(action, spec.free or "tags")
    if verb == "roll" and "dc" in action and "dl" in action:
        raise fail(verb, "give dc N or dl NAME, not both")
    shown = [w for w in ADD_VISIBILITY if action.get(w)] if verb == "add" else []
    if len(shown) > 1:
        raise fail(verb, f"give one of visible, masked or hidden, not {' and '.join(shown)}")
    if verb in ("persist",) and not action.get("tags"):
        raise fail(verb, "needs at least one damage tag (e.g. bleed, fire)")


def _unexpected(verb: str, spec: _Spec, rest: list[str], i: int) -> ActionError:
    """The error for ``rest[i]``, a word *verb* does not take there, with the
    keyword it most likely misspells; ``add``'s word right after the name
    is most likely the rest of it (``add Animated Armor``), unless a number
    follows as a keyword's would (``add Orc armor 15``)."""
    hint = did_you_mean(rest[i], list(spec.options))
    if not hint and "value" in spec.options and is_number(rest[i]):
        # the condition prompt (key c) takes "frightened 2"; this line wants the keyword
        hint = f"; did you mean value {shorten(rest[i])}?"
    shown = shorten(rest[i])
    keyword_like = hint and i + 1 < len(rest) and is_number(rest[i + 1])
    if verb == "add" and i == 1 and not is_number(rest[i]) and not keyword_like:
        return fail(verb, f"unexpected {shown!r}; {in_quotes(verb, f'{rest[0]} {rest[i]}')}")
    return fail(verb, f"unexpected {shown!r}{hint}")


def normalize_action(
    action: Mapping[str, Any] | str, names: Sequence[str] = (), groups: Sequence[str] = ()
) -> dict[str, Any]:
    """A canonical record from a line (read with the encounter's *names* and
    *groups*, as :func:`parse_action`) or a dict built by code; a dict is
    formatted and parsed again, so code cannot slip past a check the GM
    would hit."""
    if isinstance(action, str):
        return parse_action(action, names, groups)
    if isinstance(action, Mapping) and action.get("verb") == BATCH:
        parts = batch_parts(action)
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
    if verb in ("damage", "attack"):
        keys.add("extra")
    if verb == "add":
        keys.add("abilities")
    return keys
