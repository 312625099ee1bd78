"""Keys of the resume picker, the dialogs and the one-line prompts (data:
see :class:`tracker.keys.Key`)."""

from __future__ import annotations

from tracker.keys import Key

#: The resume picker's keys.
PICKER_KEYS: tuple[Key, ...] = (
    Key(
        "picker.resume",
        "enter",
        "resume",
        "Resume",
        "picker: resume",
        "resume the highlighted encounter",
    ),
    Key(
        "picker.down",
        "j",
        "cursor_down",
        "Down",
        "picker: move down",
        "highlight the next encounter (also the down arrow)",
        show=False,
    ),
    Key(
        "picker.up",
        "k",
        "cursor_up",
        "Up",
        "picker: move up",
        "highlight the previous encounter (also the up arrow)",
        show=False,
    ),
    Key(
        "picker.top",
        "g",
        "cursor_top",
        "Top",
        "picker: newest",
        "highlight the newest encounter (the first row; also Home)",
        show=False,
    ),
    Key(
        "picker.bottom",
        "G",
        "cursor_bottom",
        "Bottom",
        "picker: oldest",
        "highlight the oldest encounter (the last row; also End)",
        show=False,
    ),
    Key(
        "picker.new",
        "n",
        "new",
        "New",
        "picker: new encounter…",
        "start a new encounter (name and ruleset: core, forge or cinematic)",
    ),
    Key(
        "picker.restore",
        "r",
        "restore",
        "Restore",
        "picker: restore a save point…",
        "a save point of the highlighted encounter becomes a new encounter "
        "(the original is untouched)",
    ),
    Key(
        "picker.delete",
        "delete",
        "delete",
        "Delete",
        "picker: delete…",
        "delete the highlighted encounter (asks first)",
    ),
    Key("picker.help", "question_mark,f1", "help", "Help", "help: keys", "this list of keys"),
    Key("picker.quit", "q,escape", "app.quit", "Quit", "app: quit", "quit"),
)

#: The help screen's keys (``?`` on the encounter screen and the picker):
#: its list of keys is longer than the screen, so it scrolls as lists do;
#: the notices shown at start-up (repairs, recovery) scroll with the same.
HELP_KEYS: tuple[Key, ...] = (
    *(
        Key(
            f"help.{way}",
            keys,
            f"scroll_keys({lines})",
            way.capitalize(),
            f"help: scroll {way}",
            f"in the help screen and the notices: scroll {way} a line",
            show=False,
            priority=True,  # before the scroll's own arrows, which drop keys typed in a burst
        )
        for way, keys, lines in (("down", "j,down", 1), ("up", "k,up", -1))
    ),
    Key(
        "help.close",
        "escape,q,question_mark,f1",
        "close",
        "Close",
        "help: close",
        "close the help screen",
    ),
)

#: The movement dialog's keys (``m``): the check is rolled once and kept
#: (cancel and reopen shows the same roll) until applied or re-rolled.
MOVEMENT_KEYS: tuple[Key, ...] = (
    Key("movement.dash", "d", "choose('dash')", "Dash", "movement: dash", "dash (DL 14)"),
    Key("movement.run", "r", "choose('run')", "Run", "movement: run", "run (DL 18)"),
    Key("movement.sprint", "s", "choose('sprint')", "Sprint", "movement: sprint", "sprint (DL 22)"),
    Key(
        "movement.spend",
        "y",
        "confirm(True)",
        "Spend",
        "movement: spend endurance",
        "spend the endurance points the check fell short by, and move",
        show=False,
    ),
    Key(
        "movement.dont_spend",
        "n",
        "confirm(False)",
        "Don't spend",
        "movement: don't spend",
        "keep the points: the movement fails",
        show=False,
    ),
    Key(
        "movement.apply",
        "enter",
        "apply",
        "Apply",
        "movement: apply",
        "apply the check as shown",
        show=False,
    ),
    Key(
        "movement.reroll",
        "ctrl+r",
        "reroll",
        "Re-roll",
        "movement: re-roll the check",
        "roll the endurance check again (the shown roll is otherwise kept until applied)",
    ),
    Key(
        "movement.cancel", "escape", "cancel", "Cancel", "movement: cancel", "close, nothing spent"
    ),
)


#: Keys of the ``:`` line and of every one-line prompt (damage, heal, …).
LINE_KEYS: tuple[Key, ...] = (
    Key(
        "line.previous",
        "up",
        "history_back",
        "Previous",
        "typing: previous entry",
        "in the : line and the prompts: the previous line typed in that one (kept across restarts)",
        show=False,
    ),
    Key(
        "line.next",
        "down",
        "history_forward",
        "Next",
        "typing: next entry",
        "in the : line and the prompts: the next line typed there, then what you were typing",
        show=False,
    ),
)


#: Keys of area damage: the damage prompt on two targets or more opens the
#: saves form, where each target takes full, half or no damage.
SAVES_KEYS: tuple[Key, ...] = (
    Key(
        "saves.open",
        "ctrl+s",
        "saves",
        "Saves",
        "area damage: saves per target…",
        "in the damage prompt on two targets or more: after the amount, choose full / "
        "half / none per target (one roll, one step)",
        show=False,
    ),
    Key(
        "saves.next",
        "space,right",
        "cycle(1)",
        "Cycle",
        "saves: next choice",
        "in the saves form: full → half → none for the highlighted target",
        show=False,
    ),
    Key(
        "saves.previous",
        "left",
        "cycle(-1)",
        "Back",
        "saves: previous choice",
        "in the saves form: none → half → full for the highlighted target",
        show=False,
    ),
    Key(
        "saves.full",
        "f",
        "choose('full')",
        "Full",
        "saves: full",
        "in the saves form: the highlighted target takes it all, then the next row",
        show=False,
    ),
    Key(
        "saves.half",
        "h",
        "choose('half')",
        "Half",
        "saves: half",
        "in the saves form: the highlighted target saved for half (rounded down), then the next",
        show=False,
    ),
    Key(
        "saves.none",
        "n",
        "choose('none')",
        "None",
        "saves: none",
        "in the saves form: the highlighted target takes nothing, then the next row",
        show=False,
    ),
    Key(
        "saves.all",
        "a",
        "all_alike",
        "All alike",
        "saves: every row as the one just set",
        "in the saves form: every target takes what f / h / n just set (else what the "
        "highlighted one does: full, half or none; then change the few that differ)",
        show=False,
    ),
)


#: Keys of the players' view dialog (``P``: the link, QR code and settings).
SHARE_KEYS: tuple[Key, ...] = (
    Key(
        "share.stop",
        "P",
        "stop",
        "Stop",
        "players: stop sharing",
        "in the players' view dialog: stop sharing (pages say reconnecting…; P shares again)",
    ),
    Key(
        "share.lan",
        "l",
        "lan",
        "LAN",
        "players: local network on/off",
        "in the players' view dialog: let phones and TVs on this network open the page, "
        "or only this computer",
    ),
    Key(
        "share.new_link",
        "N",
        "new_link",
        "New link",
        "players: new link",
        "in the players' view dialog: a new link and QR code; the old one stops working",
    ),
    *(
        Key(
            f"share.{setting}",
            str(number),
            f"cycle('{setting}')",
            label,
            f"players: {label} {choices}",
            f"in the players' view dialog: {label}, the next of {choices} (an action, "
            f"view {setting} …: logged and undoable)",
            show=False,
        )
        for number, (setting, label, choices) in enumerate(
            (
                ("monster_hp", "monster HP", "band/exact/hidden"),
                ("player_hp", "player HP", "band/exact/hidden"),
                ("show_al", "AL", "on/off"),
                ("show_initiative", "initiative", "on/off"),
                ("new_monsters", "new monsters", "visible/masked/hidden"),
                ("reveal_on_turn", "reveal on their turn", "on/off"),
            ),
            1,
        )
    ),
    Key(
        "share.close", "escape,enter", "close", "Close", "players: close", "close (sharing goes on)"
    ),
)
