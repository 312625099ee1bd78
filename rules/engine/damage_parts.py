"""The words after a damage amount (README, "The action language"): its
tags, then more typed parts, each ``+ DICE TAG…`` (``damage Ogre 1d8+4
slashing + 2d6 fire``, or ``plus``/``and`` for ``+``), every part through
the target's defenses by its own tags (RULES.md §5).  A ``+`` starts a new
part only after a tag: before one it continues the dice (``1d8 + 4``), so
untyped dice are one part.  A tag is never a number or dice.  The record
keeps the first part in ``amount``/``tags`` and the others, in order, in
``extra`` as ``{"amount": DICE, "tags": [TAG, …]}``."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from rules.combatant import Combatant
from rules.damage import (
    COMMON_TAGS,
    DEFENSE_KINDS,
    defense_naming,
    defense_tags,
    normalize_tags,
    unknown_tag_warnings,
)
from rules.engine.grammar import SPECS, fail
from rules.engine.groups import name_runs
from rules.engine.values import MAX_PARTS, check_dice, check_tags
from rules.engine.words import PLUS_WORDS, take_dice
from rules.errors import ActionError
from rules.text import alike, closest, most_alike, shorten

#: verbs whose free words are damage tags and ``+`` parts.
PART_VERBS = frozenset({"damage", "attack"})


#: what a tag must not look like: dice (``2d6``, ``d8``, ``3d6+1``).
_DICE = re.compile(r"[+-]?[0-9]*d[0-9]+([+-][0-9]*(d[0-9]+)?)*")


def _tag(verb: str, token: str) -> str:
    tag = token.strip().lower()
    if not tag or "," in tag:
        raise fail(verb, f"bad damage tag {shorten(token)!r}")
    digits = tag[1:] if tag[:1] in "+-" else tag
    if digits.isascii() and digits.isdigit():
        raise fail(
            verb, f"damage tag {shorten(token)!r} is a number (an amount goes before the tags)"
        )
    if _DICE.fullmatch(tag):
        more = "; another part goes after + or plus: + 2d6 fire" if verb in PART_VERBS else ""
        raise fail(
            verb, f"damage tag {shorten(token)!r} is dice (an amount goes before the tags{more})"
        )
    if tag in PLUS_WORDS:
        raise fail(
            verb, f"{shorten(token)!r} is not a damage tag (list the tags with spaces: fire cold)"
        )
    return tag


def misspelled_keyword(verb: str, tag: str) -> str | None:
    """The keyword of *verb* that the word *tag*, read as a damage tag, most
    likely misspells: ``damage Ogre 5 crtl`` taken as a tag would deal a
    plain hit where the GM typed a critical one.  Stricter than a refused
    word's did-you-mean, as any other word is a good tag: no common tag,
    four letters or more, three quarters alike a keyword that starts with
    the same letter (``bone`` is no ``none``, ``av`` no ``adv``)."""
    if len(tag) < 4 or tag in COMMON_TAGS:
        return None
    keywords = [k for k in SPECS[verb].options if k[:1] == tag[:1]]
    return closest(tag, keywords, cutoff=0.75)


def judge_tags(
    verb: str,
    action: Mapping[str, Any],
    amount_key: str,
    targets: Sequence[Combatant],
    fight: Sequence[Combatant],
) -> list[str]:
    """The one ruling on the damage tags *action* types, made when it
    applies, as only the fight knows its tags (docs/rules.md §5, "An
    unknown tag").  A tag some combatant of the *fight* defends against, or
    a common one, is taken as typed.  Any other is refused when it most
    likely misspells a keyword of *verb* (:func:`misspelled_keyword`) or a
    tag one of the *targets* defends against (``slahsing`` where the target
    resists slashing would bypass the resistance); else it is taken, and
    the warnings to log about it are returned.  A missed attack is judged
    too: the line is the same whatever the d20 shows."""
    if not action.get(amount_key):
        return []
    known = defense_tags(fight) - {"all"}
    typed = [t for _, tags in parts_of(action, amount_key) for t in tags]
    unknown = [t for t in dict.fromkeys(normalize_tags(typed)) if t not in known | set(COMMON_TAGS)]
    for tag in unknown:
        keyword = misspelled_keyword(verb, tag)
        if keyword is not None:
            raise fail(verb, f"unexpected {shorten(tag)!r}; did you mean {keyword}?")
        _refuse_near_defense(verb, tag, targets)
    return unknown_tag_warnings(unknown, fight)


#: about the longest a refusal's list of who defends against what gets
WHY_LIMIT = 240

#: how one and how several targets defend, by ``rules.damage.DEFENSE_KINDS``
_DEFENDS: dict[str, tuple[str, str]] = {
    "immune": ("is immune to", "are immune to"),
    "weak": ("is weak to", "are weak to"),
    "susceptible": ("is susceptible to", "are susceptible to"),
    "resist": ("resists", "resist"),
}


def _refuse_near_defense(verb: str, tag: str, targets: Sequence[Combatant]) -> None:
    """Refuse *tag*, which no target defends against, when it is close
    (``rules.text.closest``) to a tag one of *targets* does: ``damage:
    'slahsing' is no tag Grukk defends against; did you mean slashing?
    (Grukk resists slashing)``.  Two equally close are both named."""
    defended = sorted(defense_tags(targets) - {"all"})
    # a fullwidth or mathematical letter is the letter to a reader (NFKC):
    # ``ｓｌａｓｈｉｎｇ`` looks like slashing and must not slip past it
    folded = unicodedata.normalize("NFKC", tag)
    ranked = alike(folded, defended)  # one pass: a horde defends against thousands
    if not ranked:
        return
    best = most_alike(ranked)
    meant = [best] if best is not None else sorted(t for _, t in ranked)[:3]
    who = shorten(targets[0].name) if len(targets) == 1 else f"any of the {len(targets)} targets"
    why: list[str] = []
    for m in meant:
        for kind in DEFENSE_KINDS:
            names = [c.name for c in targets if defense_naming(c, m) == kind]
            if names:
                one, many = _DEFENDS[kind]
                why.append(f"{name_runs(names)} {one if len(names) == 1 else many} {m}")
    # who defends, cut short: three long tags times four defenses times six
    # long names would make a refusal of thousands of characters
    raise ActionError(
        f"{verb}: {shorten(tag)!r} is no tag {who} defends against; "
        f"did you mean {' or '.join(shorten(m) for m in meant)}? "
        f"({shorten('; '.join(why), WHY_LIMIT)})"
    )


class FreeWords:
    """Collects the free words of one action: the first part's tags, then
    each ``+`` part with its own tags."""

    def __init__(self, verb: str) -> None:
        self.verb = verb
        self.tags: list[str] = []
        self.extra: list[dict[str, Any]] = []
        #: each part's tags so far, to take each once
        self._seen: list[set[str]] = [set()]
        self._count = 0  # tags over every part (at most MAX_TAGS)

    def _current(self) -> list[str]:
        tags: list[str] = self.extra[-1]["tags"] if self.extra else self.tags
        return tags

    def take(self, rest: Sequence[str], i: int) -> int:
        """Read the free word at ``rest[i]`` (and, for a part, its dice);
        return the index after it."""
        token = rest[i]
        sign = "+" if token.startswith("+") else token.lower()
        if self.verb in PART_VERBS and sign in ("+", *PLUS_WORDS) and self._current():
            if len(self.extra) + 2 > MAX_PARTS:
                raise fail(self.verb, f"at most {MAX_PARTS} damage parts in one hit")
            if token == "+" or sign in PLUS_WORDS:
                if i + 1 >= len(rest):
                    raise fail(self.verb, f"{sign} needs a damage part after it ({sign} 2d6 fire)")
                i += 1
                first = rest[i]
            else:
                first = token[1:]
            expr, i = take_dice(rest, i, plus=True, first=first)
            try:
                check_dice(expr, f"{self.verb} {sign} {shorten(expr, 40)}", amount=True)
            except ActionError:
                if not first.isalpha():
                    raise
                raise fail(  # ``fire and cold``: one part's tags
                    self.verb,
                    f"{sign} starts another damage part, dice then tags ({sign} 2d6 fire), "
                    f"not {shorten(first)!r}; one part's tags are listed with spaces (fire cold)",
                ) from None
            self.extra.append({"amount": expr, "tags": []})
            self._seen.append(set())
            return i
        tag = _tag(self.verb, token)
        current = self._current()
        if tag not in self._seen[len(self.extra)]:
            self._seen[len(self.extra)].add(tag)
            current.append(tag)
            self._count += 1
            check_tags(f"{self.verb} tags", self._count)
        return i + 1

    def store(self, action: dict[str, Any], key: str) -> None:
        if self.extra and not self.extra[-1]["tags"]:
            raise fail(self.verb, "a damage part after + needs a tag (e.g. + 2d6 fire)")
        if self.extra:
            self._check_total(action.get("amount" if self.verb == "damage" else "damage"))
        if self.tags:
            action[key] = self.tags
        if self.extra:
            action["extra"] = self.extra

    def _check_total(self, first: object) -> None:
        """The parts are one amount: their highest possible total and their
        dice are held to the bounds one amount has (README, "The action
        language")."""
        from rules.dice import MAX_DICE, maximum, parse
        from rules.engine.values import MAX_NUMBER

        if first is None:
            return
        amounts = [str(first), *(str(p["amount"]) for p in self.extra)]
        parts = len(amounts)
        highest = sum(maximum(a) for a in amounts)
        if highest > MAX_NUMBER:
            raise ActionError(
                f"{self.verb}: the {parts} damage parts can total {highest:,} "
                f"(amounts are at most {MAX_NUMBER:,})"
            )
        dice = sum(parse(a).dice_count for a in amounts)
        if dice > MAX_DICE:
            raise ActionError(
                f"{self.verb}: the {parts} damage parts roll {dice:,} dice "
                f"(an amount rolls at most {MAX_DICE:,})"
            )


def format_free(verb: str, action: Mapping[str, Any], key: str, quote: Any) -> list[str]:
    """The free words of *action* as :class:`FreeWords` reads them back."""
    words: list[str] = []
    tags = action.get(key) or []
    if not isinstance(tags, list | tuple) or not all(isinstance(t, str) for t in tags):
        raise fail(verb, f"tags must be a list of words, not {tags!r}")
    words += [quote(t) for t in tags]
    extra = action.get("extra")
    if not extra:
        return words
    if verb not in PART_VERBS or not isinstance(extra, list | tuple):
        raise fail(verb, f"extra must be a list of damage parts, not {extra!r}")
    if not tags:
        raise fail(verb, "the first damage part needs a tag when more parts follow")
    for part in extra:
        if not isinstance(part, Mapping) or set(part) != {"amount", "tags"}:
            raise fail(verb, f"a damage part is {{amount, tags}}, not {part!r}")
        amount, part_tags = part["amount"], part["tags"]
        if isinstance(amount, int) and not isinstance(amount, bool):
            amount = str(amount)
        if not isinstance(amount, str) or not isinstance(part_tags, list | tuple):
            raise fail(verb, f"a damage part is {{amount, tags}}, not {part!r}")
        if not part_tags or not all(isinstance(t, str) for t in part_tags):
            raise fail(verb, "a damage part after + needs a tag (e.g. + 2d6 fire)")
        words += ["+", quote(amount), *(quote(t) for t in part_tags)]
    return words


def parts_of(action: Mapping[str, Any], amount_key: str) -> list[tuple[str, list[str]]]:
    """Every ``(dice, tags)`` part of a damage record, the first first."""
    first = (str(action[amount_key]), list(action.get("tags", ())))
    return [first, *((str(p["amount"]), list(p["tags"])) for p in action.get("extra", ()))]


def check_subsets(
    verb: str, targets: Sequence[str], half: Sequence[str], none: Sequence[str]
) -> None:
    """``half`` and ``none`` name targets of the action, none in both."""
    for key, names in (("half", half), ("none", none)):
        outside = [n for n in names if n not in targets]
        if outside:
            raise ActionError(
                f"{verb}: {key} names {outside[0]}, who is not a target of this damage"
            )
    both = [n for n in half if n in none]
    if both:
        raise ActionError(f"{verb}: {both[0]} is under both half and none")
