"""Completing a line of the action language as it is typed: the first word
of each action to a verb, a target (also after a comma, ``half`` or
``none``) to a combatant's or a group's name (or, where several are taken,
a side such as ``monsters``), and every later word to what the verb takes
there (:data:`rules.engine.grammar.SPECS`): its keywords, a keyword's
choices, conditions, damage tags, groups, view settings.  Case-insensitive;
a completion is quoted as a name is, so it is always one word (``Imp;next``
is a name, never a second action).  A prompt completes its text as the tail
of its whole line (:func:`tail_completions`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rules.bonuses import STACKING
from rules.checks import DIFFICULTY_LEVELS
from rules.conditions import KNOWN_CONDITIONS
from rules.damage import COMMON_TAGS, defense_tags
from rules.engine.damage_parts import PART_VERBS
from rules.engine.grammar import SET_ALIASES, SET_FIELDS, SPECS, VERBS, verb_of
from rules.engine.shell import quote_word, split_shell
from rules.engine.targets import SIDES, group_names, resolve_targets
from rules.engine.words import split_batch, take_dice
from rules.errors import ActionError
from rules.text import first_unsafe
from rules.view_settings import SETTINGS as VIEW_SETTINGS
from rules.view_settings import choices_of

if TYPE_CHECKING:
    from rules.encounter import Encounter
    from rules.engine.grammar import _Spec


def current_word(value: str) -> tuple[str, str]:
    """Split *value* into (everything before the word being typed, the word)."""
    opened = _open_double_quote(value)
    if opened is not None:
        return value[:opened], value[opened:]
    i = max(value.rfind(" "), value.rfind(","))
    return value[: i + 1], value[i + 1 :]


#: how :func:`_open_double_quote` reads a line: bare text, an escaped
#: character, a single-quoted run (closed or not), a closed double-quoted
#: run, or (captured) one that the end of the line leaves open
_QUOTED_RUNS = re.compile(
    r"""[^'"\\]+|\\.|\\$|'[^']*'?"""
    r"""|"[^"\\]*(?:\\.[^"\\]*)*"|("[^"\\]*(?:\\.[^"\\]*)*\\?$)""",
    re.DOTALL,
)


def _open_double_quote(value: str) -> int | None:
    """Where the double quote left open at the end of *value* is, read as
    shlex reads the line (None: none is open).  A double quote inside
    single quotes opens nothing: a prompt's line starts with its target
    quoted so (``damage 'Ogre"s Pet' ``)."""
    last = None
    for run in _QUOTED_RUNS.finditer(value):
        last = run
    return last.start() if last is not None and last.group(1) is not None else None


#: what makes a name more than one bare word of the action language: white
#: space and quotes (shlex), backslashes, ``;`` (between actions of a batch)
#: and ``,`` (between targets).
_NEEDS_QUOTES = re.compile(r"[\s'\"\\;,]")


def quoted(name: str) -> str:
    """*name* as one word of the action language: in double quotes as a GM
    types them when it must be, or as ``quote_word`` writes it when it holds a
    double quote or a backslash."""
    if not _NEEDS_QUOTES.search(name):
        return name
    return quote_word(name) if ('"' in name or "\\" in name) else f'"{name}"'


@dataclass(frozen=True)
class Known:
    """What the fight offers completion besides the verbs and keywords (the
    common tags and conditions are always offered too)."""

    names: Sequence[str] = ()
    tags: Sequence[str] = ()
    conditions: Sequence[str] = ()
    groups: Sequence[str] = ()
    #: the full names typed target words mean ([] when they mean nobody);
    #: None: no fight to ask, so ``half`` / ``none`` offer every name
    resolve: Callable[[Sequence[str]], list[str]] | None = None


def known_in(enc: Encounter) -> Known:
    """What *enc* offers completion: names in the order of play, the tags
    of defenses and persistent damage, conditions, groups, and what a
    target word means in it."""
    cs = enc.combatants
    tags = defense_tags(cs) | {tag for c in cs for p in c.persistent for tag in p.tags}
    conditions = {cond.name for c in cs for cond in c.conditions}
    names = [c.name for c in cs]

    def resolve(words: Sequence[str]) -> list[str]:
        try:
            return resolve_targets(cs, words)
        except ActionError:
            return []

    return Known(names, sorted(tags), sorted(conditions), group_names(cs), resolve)


#: words a ``word`` or ``text`` slot takes, by (verb, record key), beyond names
_WORD_SLOTS = {
    ("set", "field"): "fields",
    ("unpersist", "tag"): "tags",
    ("bonus", "type"): "bonus types",
    ("unbonus", "type"): "bonus types",
    ("cond", "name"): "conditions",
    ("uncond", "name"): "conditions",
    ("roll", "dl"): "difficulty levels",
    ("temp", "of"): "names",
    ("persist", "of"): "names",
    ("cond", "of"): "names",
    ("bonus", "of"): "names",
    ("group", "name"): "groups",
    ("add", "group"): "groups",
    ("view", "setting"): "view settings",
}

#: option words whose value is a list of the line's own targets (who saved)
_TARGET_OPTIONS = frozenset({("damage", "half"), ("damage", "none")})


#: the candidates of each slot :data:`_WORD_SLOTS` names (or ``names``)
_SLOT_WORDS: dict[str, Callable[[Known], list[str]]] = {
    "names": lambda known: list(known.names),
    "groups": lambda known: list(known.groups),
    "tags": lambda known: list(dict.fromkeys([*known.tags, *COMMON_TAGS])),
    "conditions": lambda known: list(dict.fromkeys([*known.conditions, *KNOWN_CONDITIONS])),
    "fields": lambda _: [*SET_FIELDS, *SET_ALIASES],
    "bonus types": lambda _: list(STACKING),
    "difficulty levels": lambda _: [n.lower() for n in DIFFICULTY_LEVELS],
    "view settings": lambda _: list(VIEW_SETTINGS),
}


def _dice_end(rest: Sequence[str], i: int, plus: bool = False) -> int:
    """Where the dice expression starting at ``rest[i]`` ends (the parser's
    joining of ``2d6 + 3``, and of ``2d6 plus 3`` with *plus*);
    ``len(rest) + 1`` when it goes on into the word being typed."""
    expr, i = take_dice(rest, i, plus)
    return len(rest) + 1 if i == len(rest) and expr.endswith(("+", "-")) else i


def _slot(verb: str, spec: _Spec, rest: Sequence[str]) -> tuple[str, list[str]] | None:
    """What the word after *rest* (the earlier words after *verb*) is: (its
    kind, the keywords that may stand there), or None when nothing is
    completed there (a number, a dice expression, free text)."""
    i = 0
    for key, kind in spec.positional:
        if i == len(rest):
            if isinstance(kind, tuple):
                return "choice", list(kind)
            if kind in ("targets", "target"):
                return ("targets" if kind == "targets" else "names"), []
            if verb == "view" and key == "value":  # the values of the setting typed
                setting = rest[0].lower() if rest else ""
                return "choice", list(choices_of(setting)) if setting in VIEW_SETTINGS else []
            return _WORD_SLOTS.get((verb, key), ""), []
        if kind == "rest":
            return None
        i = _dice_end(rest, i, verb in PART_VERBS) if kind == "dice" else i + 1
        if i > len(rest):
            return None
    seen: set[str] = set()
    while i < len(rest):
        word = rest[i].lower()
        option = spec.options.get(word)
        if option is None:
            i += 1
            continue
        seen.add(word)
        key, kind = option
        if kind == "flag-or-text" and i + 1 < len(rest) and rest[i + 1].lower() in spec.options:
            kind = "flag"  # ``add Imp group count 3``: no name given
        if kind == "flag":
            i += 1
            continue
        if i + 1 == len(rest):  # the word typed is this keyword's value
            if isinstance(kind, tuple):
                return "choice", list(kind)
            if (verb, word) in _TARGET_OPTIONS:
                return "saving", []
            return _WORD_SLOTS.get((verb, word), ""), []
        i = _dice_end(rest, i + 1, verb in PART_VERBS) if kind in ("dice", "hp") else i + 2
        if i > len(rest):
            return None
    keywords = [k for k in spec.options if k not in seen]
    tags = spec.free is not None and (verb != "attack" or "damage" in seen)
    return ("tags" if tags else ""), keywords


def _matching(typed: str, candidates: Sequence[str]) -> list[str]:
    """The candidates *typed* begins, case-insensitively, each once; what is
    typed in full is not a completion, nor a word no GM could type (a
    control character in a hand-edited name: the line holds it spelt out)."""
    typed = typed.lower()
    out: dict[str, None] = {}
    for word in candidates:
        low = word.lower()
        if low.startswith(typed) and low != typed and first_unsafe(word) < 0:
            out.setdefault(word, None)
    return list(out)


def _pieces(words: str) -> list[str]:
    """The targets of a comma list, as typed."""
    return [piece for piece in words.split(",") if piece.strip()]


def _saving(words: list[str], rest: Sequence[str], listed: str, known: Known) -> list[str]:
    """Which of *words* (names, groups, sides) ``half`` or ``none`` may name
    in the ``damage`` line whose words after the verb are *rest*, with
    *listed* typed before them in the list being completed: those meaning
    only targets of the line that no ``half`` or ``none`` names yet (any
    other is refused: :func:`rules.engine.damage_parts.check_subsets`).
    Without a fight to ask, or targets meaning nobody, every one of *words*."""
    resolve = known.resolve
    struck = set(resolve(_pieces(rest[0]))) if resolve is not None and rest else set()
    if resolve is None or not struck:
        return words
    saved = _pieces(listed) + [
        piece
        for i in range(1, len(rest))
        if rest[i - 1].lower() in ("half", "none")
        for piece in _pieces(rest[i])
    ]
    for piece in saved:
        struck -= set(resolve([piece]))
    names = set(known.names)

    def only_struck(word: str) -> bool:
        if word in names:
            return word in struck
        meant = resolve([word])
        return bool(meant) and struck.issuperset(meant)

    return [word for word in words if only_struck(word)]


def completions(
    value: str,
    names: Sequence[str] = (),
    verbs: Sequence[str] = VERBS,
    known: Known | None = None,
) -> list[str]:
    """Every completed line for *value*, in order (empty when nothing
    fits); *known* adds the fight's own words (*names* serve when it has
    none).  Everything before the word being typed is kept as it is.  With
    nothing typed of the word, only a keyword's choices are offered
    (``cover`` then a space: ``half``, ``three-quarters``, ``total``)."""
    if first_unsafe(value) >= 0:  # not typed: a line never holds one
        return []
    return _completed(value, names, verbs, known)


def _completed(
    value: str, names: Sequence[str], verbs: Sequence[str], known: Known | None
) -> list[str]:
    """:func:`completions` of *value*, whatever it holds before the word typed."""
    known = known or Known(names)
    if not known.names:
        known = replace(known, names=names)
    head, word = current_word(value)
    segment = split_batch(head)[-1]
    if not segment.strip():
        return [head + verb for verb in _matching(word, verbs)] if word else []
    try:
        tokens = split_shell(segment)
    except ValueError:  # an open single quote: nothing is sure
        return []
    verb = verb_of(tokens[0])
    spec = SPECS.get(verb)
    if spec is None or not (segment[-1].isspace() or segment.endswith(",")):
        return []
    rest = tokens[1:]
    joined = segment.endswith(",")  # the word continues the last one: a list
    found = _slot(verb, spec, rest[:-1] if joined else rest)
    if found is None:
        return []
    kind, keywords = found
    if not word and kind != "choice":  # a whole list would be a surprise
        return []
    in_quotes = word.startswith('"')
    if kind in ("names", "targets", "saving"):
        # a group's name is a target too; ungroup is mostly given one
        targets = (
            [*known.groups, *known.names] if verb == "ungroup" else [*known.names, *known.groups]
        )
        if kind != "names":  # where several may be meant: the sides too
            taken = {n.lower() for n in targets}
            targets += [s for s in SIDES if s not in taken]
        before, _, typed = word[1:].rpartition(",") if in_quotes else ("", "", word)
        if kind == "saving":
            targets = _saving(targets, rest, before, known)
        # a name the list holds already is not offered again: Tab after
        # ``"Goblin 3",Gob`` is the next goblin, not Goblin 3 a second time
        listed = _pieces(before) + (_pieces(rest[-1]) if joined and rest else [])
        if listed:
            taken = {piece.strip().lower() for piece in listed}
            targets = [t for t in targets if t.lower() not in taken]
        lead = before + "," if before else ""
        return [head + quoted(lead + n) for n in _matching(typed, targets)]
    if joined:  # only targets are lists
        return []
    typed = word[1:] if in_quotes else word
    candidates = list(keywords)
    if kind == "choice":
        candidates = keywords
    elif kind:
        candidates += _SLOT_WORDS.get(kind, lambda _: [])(known)
    return [head + quoted(w) for w in _matching(typed, candidates)]


def complete(
    value: str,
    names: Sequence[str] = (),
    verbs: Sequence[str] = VERBS,
    known: Known | None = None,
) -> str | None:
    """The first completed line for *value*, or None when nothing fits
    (see :func:`completions`)."""
    found = completions(value, names, verbs, known)
    return found[0] if found else None


def tail_completes(head: str) -> bool:
    """Whether a prompt's text after *head* may ever complete: the verb
    takes a keyword, a tag or a word after its targets (``heal T 2d6`` and
    ``init T 15`` take only a number or dice, so their prompts offer no Tab)."""
    words = head.split(maxsplit=1)
    spec = SPECS.get(verb_of(words[0])) if words else None
    if spec is None:
        return False
    after = [kind for _key, kind in spec.positional if kind not in ("targets", "target")]
    return bool(spec.options or spec.free or any(k not in ("int", "dice") for k in after))


def tail_completions(head: str, tail: str, known: Known | None = None) -> list[str]:
    """Every completed *tail* of an action line that begins *head*: a
    prompt's own start (``damage 'Goblin 1' ``, the verb and the targets
    its key fixed), the prompt holding *tail*.  These are
    :func:`completions` of the whole line with *head* taken off again;
    none changes *head*, and a *tail* that starts a second action (``;``)
    completes to nothing: the prompt's line is one action on its targets.
    Only *tail* is typed: a name in *head* that a hand edit gave a control
    character does not stop it completing."""
    line = head + tail
    if first_unsafe(tail) >= 0 or len(split_batch(line)) != 1:
        return []
    done = _completed(line, (), VERBS, known)
    return [d[len(head) :] for d in done if d.startswith(head)]
