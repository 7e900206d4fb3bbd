"""What a Bash call produced, and how it reads for the model.

`BashRun` is the tool's typed output (ToolResult.data); `render_bash_run` turns it into
tool_result content: the exit code first when it is a failure (so it is the first thing read),
then (when the output did not fit) the file that holds all of it, then stdout, then stderr, then
notes. Output longer than the inline limit is shown as its start and its end: nothing is lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from claude_harness.tools.bash.image import image_block
from claude_harness.tools.elapsed import format_elapsed

MAX_OUTPUT_CHARS = 30_000
# Streams arrive already fitted to the inline limit with their own notes; the final guard only
# catches what those notes and the status lines add, so it leaves this much room.
RENDER_SLACK_CHARS = 2_000
NO_OUTPUT = "(no output)"


@dataclass
class BashRun:
    stdout: str = ""
    stderr: str = ""
    exit_code: int | None = None
    exit_meaning: str | None = None  # why a non-zero exit is not an error ("No matches found")
    timed_out_after_ms: int | None = None  # the timeout was reached (moved to background or killed)
    interrupted: bool = False
    image: bytes | None = None
    image_media_type: str = ""
    notes: list[str] = field(default_factory=list)
    background_id: str | None = None
    backgrounded_by_user: bool = False
    started_in_background: bool = False
    lifetime_ms: int | None = None  # a background shell is stopped after this long
    output_path: str | None = None  # every byte of output, when it did not all fit inline
    output_bytes: int = 0
    max_output_chars: int = MAX_OUTPUT_CHARS

    @property
    def failed(self) -> bool:
        if self.background_id is not None:
            return False
        if self.exit_code and not self.exit_meaning:
            return True
        return self.timed_out_after_ms is not None or self.interrupted


def cut_middle(text: str, limit: int = MAX_OUTPUT_CHARS) -> str:
    """Keep the start and the end of `text`, with a note of how much of the middle went."""
    if len(text) <= limit:
        return text
    half = limit // 2
    cut = len(text) - 2 * half
    return f"{text[:half]}\n[... {cut:,} characters cut from the middle of the output ...]\n{text[-half:]}"


def _duration(ms: int) -> str:
    return format_elapsed(ms / 1000)


def _status_line(run: BashRun) -> str:
    if run.background_id is not None:
        return ""
    if run.timed_out_after_ms is not None:
        return f"Command timed out after {_duration(run.timed_out_after_ms)} and was killed."
    if run.interrupted:
        return "Command was interrupted and killed."
    if run.exit_code and not run.exit_meaning:
        return f"Exit code {run.exit_code}"
    return ""


def _background_lines(run: BashRun) -> list[str]:
    """What the model must know about a shell now running in the background."""
    if run.background_id is None:
        return []
    shell = run.background_id
    if run.started_in_background:
        head = f"Command running in background with ID: {shell}."
    elif run.backgrounded_by_user:
        head = f"The user moved the command to the background (ID: {shell}); it keeps running."
    else:
        timeout = _duration(run.timed_out_after_ms or 0)
        head = (f"Command did not complete within its {timeout} timeout and was moved to the "
                f"background (ID: {shell}). It is running now: do not start a second copy.")
    lines = [head, "You will be notified when it ends (a <task-notification> message)."]
    if run.output_path:
        lines.append(f"Output is being written to: {run.output_path}. To check interim output, "
                     f"use Read on that file path, or TaskOutput with task_id {shell!r}.")
    if run.lifetime_ms:
        lines.append(f"If it is still running after {_duration(run.lifetime_ms)} in the "
                     "background, it will be stopped.")
    lines.append(f"If it is no longer needed, stop it with TaskStop (task_id {shell!r}).")
    return lines


def _spill_note(run: BashRun) -> str:
    if not run.output_path or run.background_id is not None:
        return ""
    return (f"[The output was {run.output_bytes:,} bytes, more than the {run.max_output_chars:,} "
            f"characters shown here. All of it is saved to: {run.output_path} (stdout and stderr "
            "in the order printed); Read it with offset/limit for the parts you need.]")


def render_text(run: BashRun) -> str:
    parts = [p.rstrip("\n") for p in (run.stdout, run.stderr) if p.strip()]
    body = cut_middle("\n".join(parts), run.max_output_chars + RENDER_SLACK_CHARS) if parts else ""
    if not body and run.exit_meaning and run.exit_code:
        body = f"{run.exit_meaning} (exit code {run.exit_code})"
    lines = [line for line in (_status_line(run), _spill_note(run), body, *run.notes,
                               *_background_lines(run)) if line]
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
