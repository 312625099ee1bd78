"""The Textual app, thin on purpose: it wires the store, the live encounter
and the screens, which do the work.  An encounter given opens at once, else
the resume picker, else a new encounter.  What the store repaired and
config problems are shown in one dialog the GM closes, never as toasts that
scroll away."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import signal
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App
from textual.screen import Screen

from saves.live import close_live
from tracker.config import Config
from tracker.screens.encounter import EncounterScreen
from tracker.screens.quitting import QuietWhenQuitting, quitting
from tracker.screens.typeahead import LONGEST_HOLD, KeyHold, TakesTyping

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.notifications import SeverityLevel
    from textual.theme import Theme

    from saves.live import LiveEncounter
    from saves.store import Store
    from tracker.screens.picker import PickerScreen
    from tracker.share.sharing import Sharing

FIRST_ENCOUNTER = "First fight"
#: the dialogs' rules, the tail of the app's stylesheet kept apart so the
#: encounter screen's first frame does not parse them (:meth:`load_dialog_css`)
DIALOG_CSS = Path(__file__).parent / "screens" / "dialogs.tcss"
#: seconds from start-up to reading them, when no dialog came first
DIALOG_CSS_DELAY = 0.3


class CombatTrackerApp(QuietWhenQuitting, App[None]):
    """combat-tracker: keyboard-driven initiative for tabletop GMs."""

    CSS_PATH = "app.tcss"
    TITLE = "combat-tracker"

    def __init__(
        self,
        store: Store | None = None,
        live: LiveEncounter | None = None,
        config: Config | None = None,
        rng: random.Random | None = None,
        notices: Sequence[str] = (),
        resume_gc: bool = False,
        lan: bool | None = None,
    ) -> None:
        super().__init__()
        self.store = store
        self.live = live
        self.config = config or Config()
        self.rng = rng
        self._notices = list(notices)
        #: the collector was turned off for start-up (build_app): back on after the first frame
        self._resume_gc = resume_gc
        #: ``--lan``: the players' view listens on the local network (None: as kept)
        self.lan = lan
        self.sharing: Sharing | None = None
        #: keys typed while a dialog or the command line opens
        self.key_hold = KeyHold()
        # theme and keys before anything is styled or composed: set later,
        # each restyles the whole screen or rebuilds the footer
        if self.config.theme:
            if self.config.theme in self.available_themes:
                self.theme = self.config.theme
            else:
                self._notices.append(f"unknown theme {self.config.theme!r}; using the default")
        if self.config.keymap:
            from tracker.bindings import key_tables
            from tracker.config import keymap_problems

            self.set_keymap(self.config.keymap)
            self._notices += keymap_problems(key_tables(), self.config.keymap)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every toast is plain text, made visible: it quotes names (*markup* is ignored)."""
        from rules.text import visible

        super().notify(
            visible(message), title=visible(title), severity=severity, timeout=timeout, markup=False
        )

    def action_help_quit(self) -> None:
        """ctrl+c does not quit: say which key does.  Textual's own hint is
        markup, and every toast here is plain text, so the GM read
        ``Press [b]q[/b] to quit the app``."""
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit"):
                self.notify(
                    f"Press {key} to quit the app (everything is already saved)",
                    title="Do you want to quit?",
                )
                return

    #: set when Textual ended the app on an error outside any handler:
    #: ``App.panic`` leaves the return code at 0, which is not a quit.
    panicked = False
    #: what closing the encounter on the way out could not do (printed after the app)
    close_note: str | None = None
    #: the exception's type name and the functions it passed through.
    panic_error: tuple[str, tuple[str, ...]] | None = None

    def panic(self, *renderables: RenderableType) -> None:
        """Remembered, so the command reports a crash (tracker.commands.tui), not exit 0."""
        from rich.traceback import Traceback

        self.panicked = True
        for renderable in renderables:
            if isinstance(renderable, Traceback) and renderable.trace.stacks:
                stack = renderable.trace.stacks[-1]
                self.panic_error = (stack.exc_type, tuple(f.name for f in stack.frames))
        super().panic(*renderables)

    def exit(
        self, result: None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        """The workers still running are cancelled quietly: their widgets are gone."""
        super().exit(result, return_code, message)
        for worker in self.workers:
            worker.exit_on_error = False
        self.workers.cancel_all()

    async def on_event(self, event: events.Event) -> None:
        """Keys, clicks and pastes that arrive once the app is exiting are
        dropped here, before they reach a screen that is closing.  Keys
        typed while a dialog opens are held for it (tracker.screens.typeahead)."""
        if quitting(self) and isinstance(event, (events.InputEvent, events.Paste)):
            return
        if isinstance(event, events.Key) and not event.is_forwarded:
            if self._opening():  # a dialog pushed by a dialog: hold until it shows
                self.hold_keys()
            if self.take_key(event):
                return
        await super().on_event(event)
        if event is self.key_hold.trigger and not self._opening():
            self.release_keys()  # its action is done and opened no dialog

    def _opening(self) -> bool:
        """Whether the screen on top is a dialog not shown yet."""
        screen = self.screen if self.screen_stack else None
        return isinstance(screen, TakesTyping) and not screen.typing_ready

    def hold_keys(self, trigger: events.Key | None = None) -> None:
        """Hold the keys from now until :meth:`release_keys` (or a moment)."""
        self.key_hold.start(trigger)

    def take_key(self, event: events.Key) -> bool:
        """Hold *event* while keys are held; the first one held arms the hold's timer."""
        if not self.key_hold.take(event):
            return False
        if len(self.key_hold.keys or ()) == 1:
            generation = self.key_hold.generation
            self.set_timer(LONGEST_HOLD, lambda: self.release_keys(generation))
        return True

    def release_keys(self, generation: int | None = None) -> None:
        """Deliver the held keys as if typed now (*generation*: only if still that hold)."""
        if generation is not None and generation != self.key_hold.generation:
            return
        for key in self.key_hold.stop():
            key.set_sender(self)  # from the app, as the terminal's keys come
            self.post_message(key)

    def push_screen(self, screen: Screen[Any] | str, *args: Any, **kwargs: Any) -> Any:
        self.load_dialog_css()
        return super().push_screen(screen, *args, **kwargs)

    def load_dialog_css(self) -> None:
        """Read the dialogs' rules once, after app.tcss's (they style only dialogs)."""
        stylesheet = self.stylesheet
        if not stylesheet.has_source(str(DIALOG_CSS), ""):
            stylesheet.read(DIALOG_CSS)
            stylesheet.parse()  # now, not while the first dialog is styled

    def action_command_palette(self) -> None:
        from tracker.screens.quiet_palette import QuietPalette

        # is_open takes an App[object]; App is invariant in its return type,
        # so Textual's own annotation refuses any App[None] (a typing gap)
        if self.use_command_palette and not QuietPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(QuietPalette(id="--command-palette"))

    def get_default_screen(self) -> Screen[None]:
        """An encounter given is the first screen itself: one screen for the first frame."""
        if self.live is not None:
            return EncounterScreen(self.live, self.config)
        return super().get_default_screen()

    #: the signal that ended the app (SIGTERM, SIGHUP), if one did
    stopped_by: int | None = None

    def _stop_on_signal(self, signum: int) -> None:
        """A ``kill`` or a closed terminal window ends the app as ``q``
        does (the fight compacted, sharing stopped, the terminal given
        back), not mid-frame with the screen left in raw mode."""
        self.stopped_by = signum
        self.exit()

    def on_mount(self) -> None:
        loop = asyncio.get_running_loop()
        stops = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
        for signum in stops:  # Windows has no SIGHUP, nor add_signal_handler
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, self._stop_on_signal, int(signum))
        #: the theme the config file holds (or the default in effect):
        #: a change from the palette is saved, a re-publish of it is not
        self._saved_theme = self.theme
        self._theme_problem_told = False
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        notices = self._notices + self.config.problems
        if self.store is not None:
            notices += self.store.take_notices()
        # an encounter given (open NAME) is the default screen already
        if self.live is None and self.store is not None:
            if self.store.list():
                from tracker.screens.picker import PickerScreen

                self.push_screen(PickerScreen(self.store))
            else:
                self.open_encounter(FIRST_ENCOUNTER, new=True)
        self.show_notices(notices)
        # a moment after the first frame, while the GM reads it
        self.set_timer(DIALOG_CSS_DELAY, self.load_dialog_css)
        if self._resume_gc:
            self.call_after_refresh(self._release_gc)
        if self.live is not None:
            self.call_after_refresh(self.resume_sharing)

    def _theme_changed(self, theme: Theme) -> None:
        """A theme picked (command palette) is saved to the config file, so
        the next start uses it; a file that cannot be written is one notice
        per run and the theme still applies now."""
        from tracker.config import save_setting

        if theme.name == self._saved_theme or self.config.path is None:
            return
        problem = save_setting(self.config.path, "theme", theme.name)
        if problem is None:
            self._saved_theme = self.config.theme = theme.name
        elif not self._theme_problem_told:
            self._theme_problem_told = True
            self.notify(problem, severity="warning", markup=False)

    def _release_gc(self) -> None:
        """Start-up is over: what it built is frozen out of later collections."""
        if self._resume_gc:
            self._resume_gc = False
            gc.freeze()
            gc.enable()

    def show_notices(self, notices: Sequence[str], title: str = "Please read") -> None:
        if notices:
            from tracker.screens.prompt import NoticeScreen

            self.push_screen(NoticeScreen(title, notices, self.config.keymap))

    def open_encounter(self, name: str, new: bool, ruleset: str | None = None) -> None:
        """Create (with *ruleset*) or load *name* and show it (errors: one notice, no change)."""
        from rules.text import visible
        from saves.live import LiveEncounter
        from saves.store import SaveError

        store = self.store
        assert store is not None, "encounters are opened from the database"
        try:
            if new:
                from rules.rulesets import ruleset as make_ruleset

                rules = make_ruleset(ruleset) if ruleset else None
                live = LiveEncounter.create(store, name, rules, rng=self.rng)
            else:
                live = LiveEncounter.open(store, name, rng=self.rng)
        except SaveError as exc:
            self.notify(str(exc), severity="error", markup=False)
            self.show_notices(store.take_notices())
            return
        if self.sharing is not None:  # it showed the encounter closing now
            self.sharing.close()
            self.sharing = None
        if self.live is not None:
            note = close_live(self.live)
            if note:
                self.notify(note, severity="warning", markup=False)
        self.live = live
        from tracker.screens.picker import PickerScreen

        screen = EncounterScreen(live, self.config)
        if isinstance(self.screen, PickerScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        self.show_notices(store.take_notices(), f"Opening {visible(name)}")
        self.call_after_refresh(self.resume_sharing)

    def on_picker_screen_open(self, event: PickerScreen.Open) -> None:
        self.open_encounter(event.name, event.new, event.ruleset)

    def share(self) -> Sharing:
        """The players' view of the open encounter (``tracker.share``)."""
        from tracker.share.sharing import Sharing

        assert self.live is not None, "the players' view shows an open encounter"
        if self.sharing is None or self.sharing.live is not self.live:
            if self.sharing is not None:
                self.sharing.close()
            self.sharing = Sharing(self.live, lan=self.lan)
        return self.sharing

    def resume_sharing(self) -> None:
        """Share again if the encounter was shared when last closed (the pages reconnect)."""
        from tracker.share import UI_KEY, kept_on

        if self.live is None or not kept_on(self.live.ui_state.get(UI_KEY)):
            return
        sharing = self.share()
        problem = sharing.start()
        if problem is None and sharing.note is None:
            self.notify("Sharing the players' view again (P: its link).", timeout=4)
        else:  # it did not start, or the link changed
            self.notify(problem or sharing.note or "", severity="warning", timeout=8)

    def on_unmount(self) -> None:
        self._release_gc()
        if self.sharing is not None:
            self.sharing.close()
        if self.live is not None:
            self.close_note = close_live(self.live)
