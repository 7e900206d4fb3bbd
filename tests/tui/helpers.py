"""Small helpers for driving the app with a Pilot."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any


async def wait_for(pilot: Any, condition: Callable[[], Any], timeout: float = 30.0,
                   what: str = "condition") -> Any:
    """Let the app run until `condition()` is truthy; fail with `what` after `timeout` (long:
    it returns as soon as the state is there, and a loaded machine may take a while)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        await pilot.pause(0.02)
        await asyncio.sleep(0)
    raise AssertionError(f"timed out waiting for {what}")


def events_applied(app: Any) -> bool:
    """Whether the app has applied every event its session emitted so far: the session's event
    queue is empty and the app's pump is waiting on it (not inside an event's handler)."""
    link = getattr(app, "link", None)
    if link is None or link.session.pending_events is None:
        return False
    queue = link.session.pending_events
    waiting = [f for f in getattr(queue, "_getters", ()) if not f.done()]
    return queue.empty() and bool(waiting)


async def settle(pilot: Any, app: Any, timeout: float = 20.0) -> None:
    """Wait for the state, not a while: every pending session event applied (a later totals
    or controls event repaints the footer otherwise), then Textual's own pending messages."""
    await wait_for(pilot, lambda: events_applied(app), timeout, what="every event applied")
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()


async def type_text(pilot: Any, text: str) -> None:
    """Type into the focused widget character by character, like a user."""
    keys = ["space" if c == " " else c for c in text]
    await pilot.press(*keys)


async def send(pilot: Any, text: str) -> None:
    """Put `text` in the prompt (as a paste would) and press Enter; typing itself is covered
    by the tests that type key by key."""
    pilot.app.prompt.insert(text)
    await pilot.press("enter")


def screen_text(app: Any) -> str:
    """Everything the conversation shows, as plain text (across all widgets)."""
    from textual.widgets import Markdown, Static

    parts: list[str] = []
    for widget in app.query("*"):
        if isinstance(getattr(widget, "text", None), str) and isinstance(widget, (Markdown, Static)):
            parts.append(widget.text)  # answers: their Markdown source
        elif isinstance(widget, Static):
            parts.append(str(widget.render()))
    return "\n".join(parts)


def sent_texts(message: dict[str, Any]) -> list[str]:
    """The text blocks of a message the app sent (the engine may add reminder blocks)."""
    content = message["content"]
    if isinstance(content, str):
        return [content]
    return [b.get("text", "") for b in content if b.get("type") == "text"]


def panel_text(panel: Any) -> str:
    """What a panel screen (frontends/tui/panels) shows: its texts and the rows of its option list."""
    from textual.widgets import OptionList

    parts = [str(w.render()) for w in panel.query("Static")]
    for options in panel.query(OptionList):
        parts += [str(options.get_option_at_index(i).prompt)
                  for i in range(options.option_count)]
    return "\n".join(parts)


async def choose(pilot: Any, panel: Any, label: str) -> None:
    """Highlight the first row of the panel's option list holding `label`; press Enter."""
    from textual.widgets import OptionList

    options = panel.query_one(OptionList)
    index = next(i for i in range(options.option_count)
                 if label in str(options.get_option_at_index(i).prompt))
    options.highlighted = index
    await pilot.press("enter")
