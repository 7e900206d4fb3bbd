"""The permission prompt: a small inline prompt-toolkit choice (1/2/3, arrows, Enter, Esc).

The request itself (title, the exact command or diff, the checker's reason) is printed into the
scrollback by the caller before this runs, so it stays visible afterwards; this widget shows
only the options and is erased once answered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.styles import Style

Choice = Literal["yes", "always", "no"]
NO_KEY = "3"  # "No" where three options are shown; kept for No where only two are


def numbered(options: list[tuple[Choice, str]]) -> dict[str, Choice]:
    """The keys that pick each option: its number as shown (1, 2(, 3): no gaps), and 3 for
    "No" even where only two options are shown."""
    keys: dict[str, Choice] = {str(index): choice for index, (choice, _label) in enumerate(options, 1)}
    keys.setdefault(NO_KEY, "no")
    return keys


@dataclass(frozen=True)
class ChoiceResult:
    choice: Choice
    via_escape: bool = False   # Esc: no, without asking for feedback
    interrupted: bool = False  # Ctrl+C: no, and stop the turn


def options_for(suggestion: str | None, always: str | None = None) -> list[tuple[Choice, str]]:
    """The same options, numbered the same way, as the Textual app's prompt; `always` is the
    second option's words where they are not "don't ask again for <rule>" (edit_choice)."""
    options: list[tuple[Choice, str]] = [("yes", "Yes")]
    if suggestion:
        options.append(("always", always or f"Yes, and don't ask again for {suggestion}"))
    options.append(("no", "No, and tell the model what to do instead (esc)"))
    return options


class ChoiceMenu:
    def __init__(self, options: list[tuple[Choice, str]], style: Style) -> None:
        self.options = options
        self.selected = 0
        self.app: Application[ChoiceResult] = Application(
            layout=Layout(HSplit([Window(FormattedTextControl(self._fragments), wrap_lines=True,
                                         dont_extend_height=True)])),
            key_bindings=self._bindings(), style=style, full_screen=False,
            erase_when_done=True, mouse_support=False,
        )

    async def run(self) -> ChoiceResult:
        return await self.app.run_async(handle_sigint=False)

    def _fragments(self) -> StyleAndTextTuples:
        rows: StyleAndTextTuples = [("", "Do you want to proceed?\n")]
        for index, (_choice, label) in enumerate(self.options):
            mark = "❯ " if index == self.selected else "  "
            style = "class:choice.selected" if index == self.selected else ""
            rows.append((style, f"{mark}{index + 1}. {label}\n"))
        return rows

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        for key, choice in numbered(self.options).items():
            kb.add(key)(self._picker(choice))

        @kb.add("up")
        def _up(event: KeyPressEvent) -> None:
            self.selected = (self.selected - 1) % len(self.options)

        @kb.add("down")
        @kb.add("tab")
        def _down(event: KeyPressEvent) -> None:
            self.selected = (self.selected + 1) % len(self.options)

        @kb.add("enter")
        def _enter(event: KeyPressEvent) -> None:
            event.app.exit(result=ChoiceResult(self.options[self.selected][0]))

        @kb.add("escape", eager=True)
        def _esc(event: KeyPressEvent) -> None:
            event.app.exit(result=ChoiceResult("no", via_escape=True))

        @kb.add("c-c")
        def _interrupt(event: KeyPressEvent) -> None:
            event.app.exit(result=ChoiceResult("no", interrupted=True))

        return kb

    @staticmethod
    def _picker(choice: Choice):  # type: ignore[no-untyped-def]
        def pick(event: KeyPressEvent) -> None:
            event.app.exit(result=ChoiceResult(choice))
        return pick


def parse_typed_choice(text: str, options: list[tuple[Choice, str]]) -> Choice | None:
    """Line mode: an option's number or y/yes, a/always, n/no; None when it is none of them."""
    word = text.strip().lower()
    aliases: dict[str, Choice] = {"y": "yes", "yes": "yes", "a": "always", "always": "always",
                                  "n": "no", "no": "no", **numbered(options)}
    choice = aliases.get(word)
    if choice is None or not any(c == choice for c, _ in options):
        return None
    return choice
