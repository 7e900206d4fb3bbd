"""What a Bash call produced, and how it reads for the model.

`BashRun` is the tool's typed output (ToolResult.data); `render_bash_run` turns it into
tool_result content: the exit code first when it is not 0 (so a failure is the first thing read),
then stdout, then stderr, then notes, the whole cut in the middle to about MAX_OUTPUT_CHARS.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from claude_harness.tools.bash.image import image_block

MAX_OUTPUT_CHARS = 30_000
# Streams arrive already fitted to MAX_OUTPUT_CHARS with their own notes; the final guard only
# catches what those notes and the status lines add, so it leaves this much room.
RENDER_SLACK_CHARS = 2_000
NO_OUTPUT = "(no output)"


@dataclass
class BashRun:
    stdout: str = ""
    stderr: str = ""
    exit_code: int | None = None
    timed_out_after_ms: int | None = None
    interrupted: bool = False
    image: bytes | None = None
    image_media_type: str = ""
    notes: list[str] = field(default_factory=list)
    background_id: str | None = None

    @property
    def failed(self) -> bool:
        return bool(self.exit_code) or self.timed_out_after_ms is not None or self.interrupted


def cut_middle(text: str, limit: int = MAX_OUTPUT_CHARS) -> str:
    """Keep the start and the end of `text`, with a note of how much of the middle went."""
    if len(text) <= limit:
        return text
    half = limit // 2
    cut = len(text) - 2 * half
    return f"{text[:half]}\n[... {cut:,} characters cut from the middle of the output ...]\n{text[-half:]}"


def _status_line(run: BashRun) -> str:
    if run.timed_out_after_ms is not None:
        return f"Command timed out after {run.timed_out_after_ms / 1000:g} s and was killed."
    if run.interrupted:
        return "Command was interrupted and killed."
    if run.exit_code:
        return f"Exit code {run.exit_code}"
    return ""


def render_text(run: BashRun) -> str:
    parts = [p.rstrip("\n") for p in (run.stdout, run.stderr) if p.strip()]
    body = cut_middle("\n".join(parts), MAX_OUTPUT_CHARS + RENDER_SLACK_CHARS) if parts else ""
    lines = [line for line in (_status_line(run), body, *run.notes) if line]
    return "\n".join(lines) if lines else NO_OUTPUT


def render_bash_run(run: Any) -> str | list[dict[str, Any]]:
    """tool_result content for a BashRun: an image block when stdout was an image, else text."""
    if not isinstance(run, BashRun):
        return str(run)
    if run.image is None:
        return render_text(run)
    blocks: list[dict[str, Any]] = [image_block(run.image, run.image_media_type)]
    rest = "\n".join(p for p in (run.stderr.strip(), *run.notes) if p)
    if rest:
        blocks.append({"type": "text", "text": rest})
    return blocks
