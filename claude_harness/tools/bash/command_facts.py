"""What the Bash tool needs to know about a command's text, beyond permissions.

- `exit_meaning`: `grep` finding nothing exits 1, `diff` on different files exits 1, `test`
  that is false exits 1. None of these is a failure the model should treat as an error, so when
  the command's last program is one of them, the exit code is 1 and nothing went to stderr, the
  result is not an error (Claude Code reports the same "returnCodeInterpretation").
- `changes_directory`: a command with `cd`, `pushd` or `popd` moves the session's shell; it must
  never run in parallel with other commands, whose start directory it would race.
- `write_targets`: files a command will write through a redirection or `tee`, known before it
  runs, so their content can be checkpointed first.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_harness.permissions.paths import expand

if TYPE_CHECKING:
    from claude_harness.permissions.bash.parse import SimpleCommand

_NO_ERROR_ON_ONE = {
    "grep": "No matches found",
    "egrep": "No matches found",
    "fgrep": "No matches found",
    "rg": "No matches found",
    "diff": "Files differ",
    "cmp": "Files differ",
    "test": "Condition is false",
    "[": "Condition is false",
    "[[": "Condition is false",
}
_DIRECTORY_BUILTINS = {"cd", "pushd", "popd", "chdir"}
_WRAPPERS = {"builtin", "command", "exec", "nice", "time", "env", "sudo", "nohup"}
_UNKNOWN_WORD = re.compile(r"[$`*?\[{~]")


def _parse(command: str, cwd: Path) -> Any:
    # deferred: the parser pulls in bashlex, which the tool pool should not pay for at start
    from claude_harness.permissions.bash.parse import parse_script

    return parse_script(command, cwd)


def _words(command: SimpleCommand) -> list[str]:
    """The command's words as written (quotes removed where the word is plain text)."""
    return [w.literal if w.literal is not None else w.raw for w in command.words]


def _program(words: list[str]) -> str:
    """The program a simple command runs, past wrappers such as `command` or `env X=1`."""
    index = 0
    while index < len(words):
        word = words[index]
        if word in _WRAPPERS or ("=" in word and not word.startswith("-")):
            index += 1
            continue
        if word.startswith("-") and index > 0 and words[index - 1] in _WRAPPERS:
            index += 1
            continue
        return Path(word).name if "/" in word else word
    return ""


def _top_level_programs(command: str, cwd: Path) -> list[str]:
    parsed = _parse(command, cwd)
    return [_program(_words(c)) for c in parsed.commands if not c.nested]


def exit_meaning(command: str, exit_code: int | None, stderr: str, cwd: Path) -> str | None:
    """Why a non-zero exit is not an error (e.g. "No matches found"), or None when it is one."""
    if exit_code != 1 or stderr.strip():
        return None
    programs = _top_level_programs(command, cwd)
    return _NO_ERROR_ON_ONE.get(programs[-1]) if programs else None


def changes_directory(command: str, cwd: Path) -> bool:
    """True when any part of the command (nested ones too) changes directory, or when the
    command cannot be read well enough to tell."""
    parsed = _parse(command, cwd)
    if parsed.fatal:
        return True
    return any(_program(_words(c)) in _DIRECTORY_BUILTINS for c in parsed.commands)


def write_targets(command: str, cwd: Path) -> list[Path]:
    """Files the command writes through `>`, `>>`, `&>` or `tee FILE` (only words whose value
    is known before it runs: nothing with `$`, globs or `~`)."""
    parsed = _parse(command, cwd)
    targets: list[Path] = []
    for cmd in parsed.commands:
        if cmd.cwd is None:
            continue  # after a `cd` to somewhere unknown: no path can be placed
        words = [r.target.literal or "" for r in cmd.redirects if r.writes and r.target]
        argv = _words(cmd)
        if _program(argv) == "tee":
            words += [w for w in argv[1:] if not w.startswith("-")]
        for word in words:
            if word and not _UNKNOWN_WORD.search(word) and not word.startswith("/dev/"):
                targets.append(expand(word, cmd.cwd))
    return list(dict.fromkeys(targets))
