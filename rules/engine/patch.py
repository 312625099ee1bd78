"""Patches: the before/after diffs a journaled ``Step`` carries, JSON-able
dicts holding only what changed, so a step's size never depends on the
fight's.  ``"combatants"`` maps a name to its changed ``to_dict`` fields;
``"present"`` maps a name to its full dict or ``None`` (added, removed, a
rename is both); ``"order"`` lists the names when order or names changed;
the encounter's scalars, ``"delayed"``, ``"ruleset"`` and ``"view"`` (the
players' view settings) appear only when changed; a combatant field its
``to_dict`` leaves out (``visibility`` when visible) is ``None`` in a
patch.  *after* applied to the state before gives the state after, and
*before* the reverse (undo)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.combatant import Combatant
from rules.encounter import Encounter
from rules.rulesets import Ruleset
from rules.text import possessive
from rules.view_settings import ViewSettings

Patch = dict[str, Any]

_SCALARS = ("name", "round", "turn", "started", "rewound")


def diff(old: Encounter, new: Encounter) -> tuple[Patch, Patch]:
    """The (before, after) patches that turn *old* into *new* and back."""
    before: Patch = {}
    after: Patch = {}
    if old is new:
        return before, after
    for key in _SCALARS:
        a, b = getattr(old, key), getattr(new, key)
        if a != b:
            before[key], after[key] = a, b
    if old.delayed != new.delayed:
        before["delayed"], after["delayed"] = list(old.delayed), list(new.delayed)
    if old.ruleset != new.ruleset:
        before["ruleset"], after["ruleset"] = old.ruleset.to_dict(), new.ruleset.to_dict()
    if old.view != new.view:
        before["view"], after["view"] = old.view.to_dict(), new.view.to_dict()
    if old.combatants is new.combatants:
        return before, after
    old_names = [c.name for c in old.combatants]
    new_names = [c.name for c in new.combatants]
    if old_names != new_names:
        before["order"], after["order"] = old_names, new_names
    old_by = {c.name: c for c in old.combatants}
    fields_before: dict[str, Any] = {}
    fields_after: dict[str, Any] = {}
    present_before: dict[str, Any] = {}
    present_after: dict[str, Any] = {}
    seen: set[str] = set()
    for c in new.combatants:
        seen.add(c.name)
        o = old_by.get(c.name)
        if o is c:
            continue
        if o is None:
            present_before[c.name], present_after[c.name] = None, c.to_dict()
        elif o != c:
            a, b = o.to_dict(), c.to_dict()
            keys = [k for k in {**a, **b} if a.get(k) != b.get(k)]
            fields_before[c.name] = {k: a.get(k) for k in keys}
            fields_after[c.name] = {k: b.get(k) for k in keys}
    for name, o in old_by.items():
        if name not in seen:
            present_before[name], present_after[name] = o.to_dict(), None
    if fields_after:
        before["combatants"], after["combatants"] = fields_before, fields_after
    if present_after:
        before["present"], after["present"] = present_before, present_after
    return before, after


def apply_patch(enc: Encounter, patch: Mapping[str, Any]) -> Encounter:
    """*enc* with *patch* applied (the patch is assumed to fit: see
    :func:`mismatch`)."""
    if not patch:
        return enc
    changes: dict[str, Any] = {}
    for key in _SCALARS:
        if key in patch:
            changes[key] = patch[key]
    if "delayed" in patch:
        changes["delayed"] = tuple(patch["delayed"])
    if "ruleset" in patch:
        changes["ruleset"] = Ruleset.from_dict(patch["ruleset"])
    if "view" in patch:
        changes["view"] = ViewSettings.from_dict(patch["view"])
    if "combatants" in patch or "present" in patch or "order" in patch:
        by = {c.name: c for c in enc.combatants}
        for name, fields in dict(patch.get("combatants", {})).items():
            data = by[name].to_dict()
            data.update(fields)
            by[name] = Combatant.from_dict(data)
        for name, data in dict(patch.get("present", {})).items():
            if data is None:
                by.pop(name, None)
            else:
                by[name] = Combatant.from_dict(data)
        names = patch["order"] if "order" in patch else [c.name for c in enc.combatants]
        changes["combatants"] = tuple(by[n] for n in names)
    return replace(enc, **changes)


def mismatch(enc: Encounter, patch: Mapping[str, Any]) -> str | None:
    """Why *enc* is not the state *patch* describes, or None: checked before
    replaying a step, so a journal that does not fit its snapshot is reported
    instead of silently producing a wrong fight."""
    for key in _SCALARS:
        if key in patch and getattr(enc, key) != patch[key]:
            return f"{key} is {getattr(enc, key)!r}, the journal expects {patch[key]!r}"
    if "delayed" in patch and list(enc.delayed) != list(patch["delayed"]):
        return "the delayed combatants differ"
    if "ruleset" in patch and enc.ruleset.to_dict() != dict(patch["ruleset"]):
        return "the ruleset differs"
    if "view" in patch and enc.view.to_dict() != dict(patch["view"]):
        return "the players' view settings differ"
    if "order" in patch and [c.name for c in enc.combatants] != list(patch["order"]):
        return "the initiative order differs"
    combatants = patch.get("combatants")
    present = patch.get("present")
    if combatants or present:
        by = {c.name: c for c in enc.combatants}
        for name, fields in dict(combatants or {}).items():
            current = by.get(name)
            if current is None:
                return f"{name} is missing"
            data = current.to_dict()
            for key, value in dict(fields).items():
                if data.get(key) != value:
                    return f"{possessive(name)} {key} differs from the journal"
        for name, data in dict(present or {}).items():
            current = by.get(name)
            if data is None:
                if current is not None:
                    return f"{name} exists, the journal expects it absent"
            elif current is None:
                return f"{name} is missing"
            elif current.to_dict() != data:
                return f"{name} differs from the journal"
    return None
