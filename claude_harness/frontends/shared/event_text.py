"""The words both front ends show for thinking, server tools and the effort/thinking controls.

Pure functions over events, so the Textual app and the plain REPL say the same thing and each
only styles it. Everything returned is safe to print: text that came from the model or a web
page has its terminal escape sequences removed (terminal_safety.py).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from claude_harness.protocol.events import RequestControlsChanged, ServerToolUse
from claude_harness.text.terminal_safety import strip_unsafe

THINKING = "✻ Thinking…"
REDACTED_THINKING = "✻ Thinking (redacted: the API keeps its text)"
SHOWN_HOSTS = 3
# Claude Code's footer marks for each effort level.
EFFORT_MARKS = {"low": "○", "medium": "◐", "high": "●", "xhigh": "◉", "max": "◈"}


def thinking_label(seconds: float) -> str:
    """The live title: `✻ Thinking… 3s`."""
    return f"{THINKING} {int(seconds)}s"


def thought_label(seconds: float | None) -> str:
    """The finished title: `✻ Thought for 4s` (no duration for a block from history)."""
    if seconds is None:
        return "✻ Thought"
    return f"✻ Thought for {max(1, round(seconds))}s"


def _host(url: str) -> str:
    try:
        return urlsplit(url).hostname or url
    except ValueError:
        return url


def server_tool_line(event: ServerToolUse) -> str:
    """`web_search: paris weather → a.example, b.example` (hosts of the results, or the error)."""
    line = f"{event.name}: {' '.join(event.summary.split())}" if event.summary else event.name
    if event.error:
        line += f" → error: {event.error}"
    elif event.urls:
        hosts = list(dict.fromkeys(_host(u) for u in event.urls))
        shown = ", ".join(hosts[:SHOWN_HOSTS])
        more = len(hosts) - SHOWN_HOSTS
        line += f" → {shown}" + (f" +{more} more" if more > 0 else "")
    return strip_unsafe(line)


def server_tool_urls(event: ServerToolUse) -> list[str]:
    """Every result URL, for the detailed view."""
    return [strip_unsafe(u) for u in event.urls]


def effort_label(controls: RequestControlsChanged | None) -> str:
    """The status line's mark: `◐ medium`, `thinking off`, or nothing when the model takes
    neither effort nor thinking."""
    if controls is None:
        return ""
    if controls.thinking_available and not controls.thinking:
        return "thinking off"
    if controls.effort_sent is None:
        return ""
    return f"{EFFORT_MARKS.get(controls.effort_sent, '●')} {controls.effort_sent}"


def effort_status(controls: RequestControlsChanged | None) -> list[str]:
    """The /status lines for effort and thinking."""
    if controls is None:
        return []
    if controls.effort_sent is None:
        effort = "none (the model takes no effort level)"
    elif controls.effort is None:
        effort = f"auto ({controls.effort_sent}, the model's default)"
    elif controls.effort != controls.effort_sent:
        effort = f"{controls.effort} ({controls.effort_sent} sent: the nearest level the model takes)"
    else:
        effort = controls.effort
    if not controls.thinking_available:
        thinking = "not used by this model"
    else:
        thinking = "on" if controls.thinking else "off (Alt+T)"
    return [f"Effort: {effort}", f"Thinking: {thinking}"]
