"""Writing the action language: :func:`format_action` turns a canonical
record back into a line (``parse_action(format_action(a)) == a``,
property-tested)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.abilities import ABILITIES
from rules.engine.damage_parts import format_free
from rules.engine.grammar import BATCH, SPECS, VERBS, _Kind, batch_parts, fail
from rules.engine.shell import quote_word as _quote
from rules.errors import ActionError


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
    if kind in ("tags", "targets"):
        if not isinstance(value, list | tuple) or not all(isinstance(t, str) for t in value):
            what = "tags" if kind == "tags" else "names"
            raise ActionError(f"{key} must be a list of {what}, not {value!r}")
        return _quote(",".join(value))
    if kind == "resist":
        if not isinstance(value, Mapping):
            raise ActionError(f"resistances must be a table tag → value, not {value!r}")
        return _quote(",".join(f"{k}={v}" for k, v in value.items()))
    if not isinstance(value, str):
        raise ActionError(f"{key} must be text, not {value!r}")
    return _quote(value)


def format_action(action: Mapping[str, Any]) -> str:
    """Write a canonical record (or a batch, joined with ``"; "``) as a line;
    one that cannot be written raises :class:`ActionError`."""
    if not isinstance(action, Mapping):
        raise ActionError(f"an action is a table of fields, not {type(action).__name__}")
    verb = action.get("verb")
    if verb == BATCH:
        return "; ".join(format_action(part) for part in batch_parts(action))
    if not isinstance(verb, str) or verb.lower() not in SPECS:
        raise ActionError(f"unknown verb {verb!r}; verbs: {', '.join(VERBS)}")
    verb = verb.lower()
    spec = SPECS[verb]
    parts = [verb]
    for key, kind in spec.positional:
        if key not in action:
            raise fail(verb, f"missing {key}")
        value = action[key]
        if kind in ("targets", "target"):
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list | tuple) or not all(isinstance(n, str) for n in value):
                raise fail(verb, f"targets must be a list of names, not {value!r}")
            parts.append(_quote(",".join(value)))
        elif kind == "dice":
            parts.append(_quote(_fmt_dice(value, key)))
        else:
            parts.append(_fmt_value("int" if kind == "int" else "text", value, key))
    free = format_free(verb, action, spec.free, _quote) if spec.free else []
    if verb == "damage":  # the parts right after the amount: damage T 1d8 cold + 2d6 fire
        parts += free
        free = []
    by_key = {key: (word, kind) for word, (key, kind) in spec.options.items()}
    for key, (word, kind) in by_key.items():
        if kind == "ability":
            continue
        value = action.get(key)
        if value is None or (kind in ("tags", "resist", "targets") and not value):
            continue  # absent, or an empty list / table: nothing to say
        if kind == "flag" or (kind == "flag-or-text" and value is True):
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
            raise fail(verb, f"abilities must be a table of scores, not {abilities!r}")
        for name, score in abilities.items():
            if name not in ABILITIES:
                raise fail(verb, f"unknown ability {name!r} (known: {', '.join(ABILITIES)})")
            parts += [name, _fmt_value("int", score, name)]
    parts += free
    faces = action.get("faces")
    if faces:
        if not isinstance(faces, list | tuple) or not all(
            isinstance(f, int) and not isinstance(f, bool) for f in faces
        ):
            raise fail(verb, f"faces must be a list of whole numbers, not {faces!r}")
        parts += ["faces", ",".join(str(f) for f in faces)]
    return " ".join(parts)


def _fmt_dice(value: Any, key: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise ActionError(f"{key} must be a number or dice expression, not {value!r}")
    return value
