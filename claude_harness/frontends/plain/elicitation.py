"""An MCP server's question in the line-mode REPL: one prompt per field.

    MCP server github asks: Which repository?
      Enter keeps [the default] · "-" leaves an optional field empty · ":decline" · Esc cancels
    owner *: octo
    visibility [public] (1. Public  2. Private):
    archived [no] (yes/no): y

Choices are picked by number, value or label (several at once with commas). A value that does
not fit its field is explained and asked again; nothing is sent until every field fits. URL mode
prints the link and waits for Enter once the user has opened it.

`PlainElicitationHandler` is the REPL's `ElicitationHandler`; it reads lines through a
`LineReader` (prompt-toolkit's by default) so tests and other callers can supply their own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from claude_harness.mcp.elicitation import (
    ElicitationAnswer,
    ElicitationRequest,
    FormField,
    parse_value,
)

# prompt text -> the line typed, or None for Esc / Ctrl+C / end of input (= cancel).
LineReader = Callable[[str], Awaitable[str | None]]
Writer = Callable[[str], None]

DECLINE = ":decline"
SKIP = "-"


def _default_text(item: FormField) -> str:
    if not item.has_default:
        return ""
    if item.kind == "boolean":
        return "yes" if item.default else "no"
    if item.kind == "choice":
        return item.label_of(str(item.default))
    if item.kind == "multi_choice":
        return ", ".join(item.label_of(str(v)) for v in item.default)
    return str(item.default)


def field_prompt(item: FormField) -> str:
    """`title * [default] (choices): `"""
    text = item.title + (" *" if item.required else "")
    default = _default_text(item)
    if default:
        text += f" [{default}]"
    if item.kind in ("choice", "multi_choice"):
        numbered = "  ".join(f"{i}. {label}" for i, label in enumerate(item.labels, 1))
        text += f" ({numbered})"
    elif item.kind == "boolean":
        text += " (yes/no)"
    return text + ": "


class PlainElicitationHandler:
    def __init__(self, read: LineReader | None = None, write: Writer = print) -> None:
        self._read = read or prompt_toolkit_reader()
        self._write = write

    async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer:
        self._write(f"MCP server {request.server} asks: {request.message}")
        if request.mode == "url":
            return await self._url(request)
        self._write(f'  Enter keeps [the default] · "{SKIP}" leaves an optional field empty · '
                    f'"{DECLINE}" declines · Esc cancels')
        values: dict[str, Any] = {}
        for item in request.fields():
            if item.description:
                self._write(f"  {item.description}")
            answer = await self._ask(item)
            if isinstance(answer, ElicitationAnswer):
                return answer
            if answer is not None:
                values[item.name] = answer
        return ElicitationAnswer.accept(values)

    async def _ask(self, item: FormField) -> Any:
        """The field's value (None: left to its default or empty), or an ElicitationAnswer
        when the user declined or cancelled instead."""
        while True:
            line = await self._read(field_prompt(item))
            if line is None:
                return ElicitationAnswer.cancel()
            text = line.strip()
            if text.lower() == DECLINE:
                return ElicitationAnswer.decline()
            if text == SKIP and not item.required:
                return None
            try:
                return parse_value(item, text)
            except ValueError as problem:
                self._write(f"  {problem}")

    async def _url(self, request: ElicitationRequest) -> ElicitationAnswer:
        self._write(f"  Open this link in your browser: {request.url}")
        line = await self._read(f'Press Enter once done ("{DECLINE}" declines, Esc cancels): ')
        if line is None:
            return ElicitationAnswer.cancel()
        if line.strip().lower() == DECLINE:
            return ElicitationAnswer.decline()
        return ElicitationAnswer.accept()


def prompt_toolkit_reader(style: Any = None) -> LineReader:
    """Lines from prompt-toolkit; Esc, Ctrl+C and Ctrl+D all mean "cancel"."""

    async def read(prompt: str) -> str | None:
        bindings = KeyBindings()

        @bindings.add("escape", eager=True)
        def _cancel(event: KeyPressEvent) -> None:
            event.app.exit(exception=KeyboardInterrupt)

        session: PromptSession[str] = PromptSession(key_bindings=bindings, style=style)
        try:
            return await session.prompt_async(prompt)
        except (KeyboardInterrupt, EOFError):
            return None

    return read
