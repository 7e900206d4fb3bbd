"""`@` mentions: the files, folders, line ranges and images a person names in a prompt, attached
the way Claude Code attaches them, as if the model had already called Read (or listed the folder):

    <system-reminder>Called the Read tool with the following input: {"file_path": ...}</...>
    <system-reminder>Result of calling the Read tool:\\n1\\tfirst line ...</...>

before the prompt's own text. Forms: `@src/app.py`, `@"docs/my notes.md"` or `@docs/my\\ notes.md`
(spaces), `@src/app.py#L10-20` or `#L10` (a range), `@src/` (a listing), `@logo.png` (the image
itself). A mention that names nothing is left as plain text, as is an e-mail address.

`attach_mentions` is pure: it reads the files (with Read's own reader, so the text is exactly what
Read would show) and returns the blocks plus the files to mark as read; the session records those
in its read-file cache, so Edit may change a mentioned file without another Read. A file a deny
rule protects is not attached.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.permission_data import PermissionContext
from claude_harness.protocol.tool import ToolError
from claude_harness.tools.file_common import record_state
from claude_harness.tools.read.tool import ReadInput, SeenFile, read_sync

MAX_LISTED = 1000
_MENTION = re.compile(
    r'(?<![^\s(\[{,;])@(?:"(?P<quoted>[^"\n]+)"|(?P<bare>(?:\\.|[^\s"#\\])+))'
    r"(?:#L(?P<first>\d+)(?:-L?(?P<last>\d+))?)?"
)
_TRAILING = ".,;:!?)]}'"


@dataclass(frozen=True)
class Mention:
    text: str  # as typed
    path: Path  # absolute
    first_line: int | None = None
    last_line: int | None = None

    @property
    def read_input(self) -> dict[str, Any]:
        inp: dict[str, Any] = {"file_path": str(self.path)}
        if self.first_line is not None:
            last = self.last_line if self.last_line is not None else self.first_line
            inp["offset"] = self.first_line
            inp["limit"] = max(1, last - self.first_line + 1)
        return inp


@dataclass
class Attachments:
    blocks: list[dict[str, Any]] = field(default_factory=list)
    read_files: list[SeenFile] = field(default_factory=list)  # to record as read
    mentions: list[Mention] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # mentions that could not be attached

    def prompt_content(self, text: str) -> list[dict[str, Any]]:
        """The user message's content: the attachments, then the prompt as typed."""
        return [*self.blocks, {"type": "text", "text": text}]

    def mark_read(self, ctx: ToolUseContext) -> None:
        """Record the attached files as read (Read's own rule: a range is a partial read)."""
        for seen in self.read_files:
            record_state(ctx, seen.key, seen.content, seen.mtime_ns, seen.partial)


def _resolve(word: str, cwd: Path) -> Path | None:
    path = Path(os.path.expanduser(word))
    path = path if path.is_absolute() else cwd / path
    return Path(os.path.abspath(path)) if path.exists() else None


def find_mentions(text: str, cwd: Path) -> list[Mention]:
    """Every `@` mention in `text` that names an existing file or folder, in order, once."""
    found: dict[tuple[Path, int | None, int | None], Mention] = {}
    for match in _MENTION.finditer(text):
        word = match["quoted"] or re.sub(r"\\(.)", r"\1", match["bare"])
        path = _resolve(word, cwd)
        typed = match.group(0)
        if path is None and match["bare"] and not match["first"]:
            stripped = word.rstrip(_TRAILING)  # "see @app.py." ends a sentence
            path = _resolve(stripped, cwd) if stripped and stripped != word else None
            typed = typed.rstrip(_TRAILING)
        if path is None:
            continue
        first = int(match["first"]) if match["first"] else None
        last = int(match["last"]) if match["last"] else None
        if first is not None and last is not None and last < first:
            first, last = last, first
        found.setdefault((path, first, last), Mention(typed, path, first, last))
    return list(found.values())


def _reminder(text: str) -> dict[str, Any]:
    return {"type": "text", "text": f"<system-reminder>\n{text}\n</system-reminder>"}


def _called(tool: str, inp: dict[str, Any]) -> dict[str, Any]:
    args = json.dumps(inp, ensure_ascii=False, separators=(",", ":"))
    return _reminder(f"Called the {tool} tool with the following input: {args}")


def _listing(path: Path) -> str:
    """What `ls` prints for the folder: visible entries, one per line, sorted."""
    names = sorted((e.name for e in os.scandir(path) if not e.name.startswith(".")),
                   key=lambda n: (n.casefold(), n))
    shown = names[:MAX_LISTED]
    if len(names) > len(shown):
        shown.append(f"... and {len(names) - len(shown)} more")
    return "\n".join(shown)


def _attach_folder(mention: Mention, out: Attachments) -> None:
    command = {"command": f"ls {shlex.quote(str(mention.path))}",
               "description": f"Lists files in {mention.path}"}
    out.blocks += [_called("Bash", command),
                   _reminder(f"Result of calling the Bash tool:\n{_listing(mention.path)}")]


def _attach_file(mention: Mention, out: Attachments) -> None:
    inp = mention.read_input
    seen: list[SeenFile] = []
    data = read_sync(ReadInput.model_validate(inp), seen)
    out.blocks.append(_called("Read", inp))
    if isinstance(data, str):
        out.blocks.append(_reminder(f"Result of calling the Read tool:\n{data}"))
    else:
        out.blocks += data  # an image (or the blocks a reader returned) as itself
    out.read_files += seen


def attach_mentions(text: str, cwd: Path,
                    permission: PermissionContext | None = None) -> Attachments:
    """Blocks for every mention in `text` (blocking I/O: call it from a worker thread)."""
    out = Attachments()
    for mention in find_mentions(text, cwd):
        if permission is not None and _denied(mention.path, permission):
            out.problems.append(f"{mention.text}: a deny rule protects {mention.path}")
            continue
        try:
            if mention.path.is_dir():
                _attach_folder(mention, out)
            else:
                _attach_file(mention, out)
        except (ToolError, OSError) as exc:
            reason = exc.message if isinstance(exc, ToolError) else (exc.strerror or str(exc))
            out.problems.append(f"{mention.text}: {reason}")
            continue
        out.mentions.append(mention)
    return out


def _denied(path: Path, permission: PermissionContext) -> bool:
    from claude_harness.permissions.resolver import is_read_denied  # the rule engine is heavy

    return is_read_denied(str(path), permission)
