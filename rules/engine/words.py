"""How a typed action splits into words (like a shell's; ``;`` outside
quotes between the actions of a batch) and how a word is read by its kind
(``rules.engine.grammar``); each problem is an :class:`ActionError` naming
the verb, with its usage."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rules.engine.grammar import fail
from rules.engine.shell import quote_word, split_shell
from rules.engine.values import MAX_COUNT, MAX_FACES, bounded, check_tags, parse_resistances
from rules.errors import ActionError
from rules.limits import MAX_COMBATANTS
from rules.text import shorten


def read_int(verb: str, key: str, token: str) -> int:
    """A whole number within the bounds of *key* (``roll``: a d20 face)."""
    if key == "roll":
        try:
            return bounded("roll", token, 1, 20)
        except ActionError:
            shown = shorten(token.strip(), 40)
            raise fail(verb, f"roll is the d20 face, 1 to 20, not {shown}") from None
    try:
        return bounded(key, token)
    except ActionError as exc:
        raise fail(verb, str(exc)) from None


def read_add_count(rest: Sequence[str], i: int, keywords: Collection[str]) -> int:
    """``add``'s count at ``rest[i]`` (``rest[0]`` is the name).  One above
    MAX_COUNT that the roster could hold is answered with how to add that
    many: several ``add``s of the same name, as each continues the
    numbering (``Zombie 101`` after ``Zombie 100``) and, naming the same
    group, fills that group."""
    token = rest[i].strip()
    try:
        return bounded("count", token)
    except ActionError as exc:
        digits = token.removeprefix("+")
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 6):
            raise fail("add", str(exc)) from None
        n = int(digits)
        if not MAX_COUNT < n <= MAX_COMBATANTS:
            raise fail("add", str(exc)) from None
        bound = str(exc)
    at = next((j for j in range(1, len(rest)) if rest[j].lower() == "group"), None)
    group = ""
    if at is not None:
        named = at + 1 < len(rest) and rest[at + 1].lower() not in keywords
        group = f" group {quote_word(rest[at + 1])}" if named else " group"
    line = f"add {quote_word(rest[0])} count {{}} …{group}"
    times = f", {n // MAX_COUNT} times" if n // MAX_COUNT > 1 else ""
    last = f", then {line.format(n % MAX_COUNT)}" if n % MAX_COUNT else ""
    into = ", in the same group" if group else ""
    raise ActionError(
        f"add: {bound}; {line.format(MAX_COUNT)}{times}{last} "
        f"(each add continues the numbering{into})"
    )


def is_number(token: str) -> bool:
    """Whether *token* is a whole number, signed or not (not dice)."""
    digits = token[1:] if token[:1] in "+-" else token
    return digits.isascii() and digits.isdigit()


#: words a damage amount reads as ``+`` (``1d8+4 slashing plus 2d6 fire``).
PLUS_WORDS = ("plus", "and")


def take_dice(
    tokens: Sequence[str], i: int, plus: bool = False, first: str | None = None
) -> tuple[str, int]:
    """The dice expression starting at ``tokens[i]`` (read as *first* when
    given), re-joining pieces typed with spaces around ``+`` and ``-``; with
    *plus* (a damage amount), the words ``plus`` and ``and`` are read as ``+``."""

    def piece(k: int) -> str:
        token = tokens[k]
        return "+" if plus and k > i and token.lower() in PLUS_WORDS else token

    def joins(k: int) -> bool:
        following = piece(k)
        if following[:1] in ("+", "-"):
            return True
        # after a trailing sign only a dice term (``3``, ``d6``, ``d%``):
        # ``hp 6d10+ al 17`` is dice missing a term, not the dice "6d10+al"
        return expr.endswith(("+", "-")) and starts_term(following)

    expr = tokens[i] if first is None else first
    k = i + 1
    while k < len(tokens) and joins(k):
        expr += piece(k)
        k += 1
    return expr, k


def starts_term(token: str) -> bool:
    """Whether *token* begins a dice term: a number, or ``d`` and its sides."""
    head = token[:2].lower()
    return head[:1].isdigit() or (head[:1] == "d" and (head[1:2].isdigit() or head[1:2] == "%"))


def read_tags(verb: str, key: str, token: str) -> list[str]:
    """A comma list of tags, lower-cased, each once."""
    tags = [t.strip().lower() for t in token.split(",")]
    if not all(tags):
        raise fail(verb, f"{key}: empty tag in {shorten(token)!r}")
    tags = list(dict.fromkeys(tags))
    check_tags(f"{verb} {key}", len(tags))
    return tags


def read_resistances(verb: str, token: str) -> dict[str, int]:
    """A resistance table, ``fire=5,cold``."""
    try:
        return parse_resistances(token)
    except ActionError as exc:
        raise fail(verb, str(exc)) from None


def read_targets(verb: str, token: str, single: bool) -> list[str]:
    """A comma list of names as typed (``rules.engine.targets`` resolves
    them), each once; exactly one when *single*."""
    names = [n.strip() for n in token.split(",")]
    if not all(names):
        raise fail(verb, f"empty combatant name in {shorten(token)!r}")
    names = list(dict.fromkeys(names))
    if single and len(names) != 1:
        raise fail(verb, f"takes exactly one combatant, not {len(names)}")
    return names


def read_choice(verb: str, key: str, token: str, allowed: tuple[str, ...]) -> str:
    """One of the *allowed* words, any case."""
    word = token.strip().lower()
    if word not in allowed:
        raise fail(verb, f"{key} is {' or '.join(allowed)}, not {shorten(token)!r}")
    return word


def in_quotes(verb: str, name: str, after: str = "…") -> str:
    """How to type *name*, a name with spaces, as one word of *verb*'s line
    (*after*: what follows it): the hint when its words were read apart."""
    line = f'{verb} "{name}" {after}'.rstrip()
    return f"a name with spaces goes in quotes ({shorten(line, 80)})"


def split_words(line: str) -> list[str]:
    """The words of one action, split with shell quoting."""
    try:
        return split_shell(line)
    except ValueError as exc:
        raise ActionError(f"cannot read the line: {exc} (check the quotes)") from None


def read_faces(token: str) -> list[int]:
    """The die faces of ``faces 12,3,4``."""
    faces = []
    for part in token.split(","):
        part = part.strip()
        if not part.isascii() or not part.isdigit() or len(part) > 4 or int(part) < 1:
            raise ActionError(f"faces: {shorten(part)!r} is not a die face (write faces 12,3,4)")
        faces.append(int(part))
    if len(faces) > MAX_FACES:
        raise ActionError(f"faces: at most {MAX_FACES} faces")
    return faces


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
