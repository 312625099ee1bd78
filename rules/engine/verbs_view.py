"""The verbs of the players' view (issue 12; docs/rules.md, "The players'
view"): ``hide T``, ``mask T`` and ``reveal T`` set how the view shows
combatants (absent, "Unknown creature", in full), ``view SETTING VALUE``
changes what it shows.  All are ordinary actions: logged, saved, undoable,
replayable."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.combatant import Combatant
from rules.engine.groups import log_together, members
from rules.engine.work import Work
from rules.errors import ActionError
from rules.text import name_key, shorten
from rules.view_settings import HIDDEN, MASKED, VISIBILITIES, VISIBLE, changed, describe_setting

#: what each verb makes of its targets
TO: dict[str, str] = {"hide": HIDDEN, "mask": MASKED, "reveal": VISIBLE}

#: the log line for a combatant now shown so
SAID: dict[str, str] = {
    HIDDEN: "{} is hidden from the players",
    MASKED: '{} shows to the players as "Unknown creature"',
    VISIBLE: "{} is revealed to the players",
}

#: the log line for several members of one group now shown so, after
#: ``group Horde: Zombie 1–150`` (``rules.engine.groups.log_together``)
SAID_MANY: dict[str, str] = {
    HIDDEN: "are hidden from the players",
    MASKED: 'show to the players as "Unknown creature"',
    VISIBLE: "are revealed to the players",
}

#: how ``add``'s log line says a new combatant is shown
JOINS_SHOWN: dict[str, str] = {
    HIDDEN: "hidden from the players",
    MASKED: 'shown to the players as "Unknown creature"',
}

#: how a combatant already shown so is described
ALREADY: dict[str, str] = {HIDDEN: "hidden", MASKED: "masked", VISIBLE: "visible"}


def _targets(work: Work, words: Sequence[str]) -> list[str]:
    """The names *words* mean: a combatant's name, prefix or selector as
    every verb reads them, and also a group's name (every member), unless a
    combatant is called that."""
    names: list[str] = []
    exact = {name_key(n) for n in work.names}
    for word in words:
        group = [] if name_key(word.strip()) in exact else members(work.enc.combatants, word)
        found = [c.name for c in group] or work.resolve_all([word])
        names.extend(n for n in found if n not in names)
    work.resolved["targets"] = names
    return names


def who_is(names: Sequence[str]) -> str:
    """``Goblin is`` or ``all 3 are``, for a refusal."""
    return f"{shorten(names[0])} is" if len(names) == 1 else f"all {len(names)} are"


def _refuse_players(verb: str, players: Sequence[Combatant]) -> None:
    who = ", ".join(shorten(c.name) for c in players[:4])
    more = f" and {len(players) - 4} more" if len(players) > 4 else ""
    are = "is a player character" if len(players) == 1 else "are player characters"
    raise ActionError(
        f"{verb}: {who}{more} {are}, always visible to the players "
        f"(to {verb} every monster: {verb} monsters)"
    )


def set_visibility(work: Work, a: Mapping[str, Any]) -> None:
    """``hide T`` / ``mask T`` / ``reveal T``: the players' view leaves the
    targets out / shows each as "Unknown creature" / shows them in full.  A
    player character is always visible: hiding or masking one is refused,
    nothing changed.  Targets already shown so are passed over; when all
    are, it is refused.  Several members of one group are one log line
    (``group Horde: Zombie 1–150 are hidden from the players``)."""
    verb = a["verb"]
    to = TO[verb]
    names = _targets(work, a["targets"])
    cs = [work.get(n) for n in names]
    players = [c for c in cs if c.player]
    if players and to != VISIBLE:
        _refuse_players(verb, players)
    changing = [c for c in cs if c.visibility != to]
    if not changing:
        raise ActionError(f"{verb}: {who_is(names)} {ALREADY[to]} already")
    for c in changing:
        work.put(replace(c, visibility=to))
    groups = {c.name: c.group for c in changing}
    log_together(work, list(groups), groups.get, SAID[to].format, lambda _: SAID_MANY[to])


def view(work: Work, a: Mapping[str, Any]) -> None:
    """``view SETTING VALUE``: change what the players' view shows
    (``rules.view_settings``); a setting already so is refused."""
    key, word = a["setting"], a["value"]
    try:
        new = changed(work.enc.view, key, word)
    except ValueError as exc:
        raise ActionError(f"view: {exc}") from None
    if new == work.enc.view:
        raise ActionError(f"view: {key} is {word} already")
    work.enc = replace(work.enc, view=new)
    work.log("GM", f"Players' view: {describe_setting(new, key)}")


def visibility_for_new(work: Work, a: Mapping[str, Any], player: bool) -> str:
    """How ``add`` shows its new combatants: ``visible``, ``masked`` or
    ``hidden`` as the line says, else a player is visible and a non-player
    as the ``new_monsters`` setting says.  A player hidden or masked is
    refused."""
    given = next((w for w in VISIBILITIES if a.get(w)), None)  # add's flags
    if player and given not in (None, VISIBLE):
        raise ActionError(
            f"add: a player character is always visible to the players, never {given}"
        )
    if given is not None:
        return given
    return VISIBLE if player else work.enc.view.new_monsters


def reveal_on_turn(work: Work, name: str) -> None:
    """The ``reveal_on_turn`` setting: when *name*'s turn comes and it is a
    hidden non-player, it becomes visible, in the same step as the turn
    change (so one undo of ``next`` hides it again)."""
    if not work.enc.view.reveal_on_turn:
        return
    c = work.get(name)
    if c.visibility == HIDDEN and not c.player:
        work.put(replace(c, visibility=VISIBLE))
        work.log(name, SAID[VISIBLE].format(name))
