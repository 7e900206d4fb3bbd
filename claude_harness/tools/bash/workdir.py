"""The one persistent working directory across Bash calls, and the script that reports it.

Every call runs in a fresh `/bin/bash`, so a `cd` would be lost with the process. The command is
run from the remembered directory, and an EXIT trap writes the shell's final `pwd -P` to a temp
file, which becomes the directory of the next call.

Why a trap placed *before* the command, and nothing after it: anything appended after the user's
text can be swallowed by it (a trailing `# comment`, an unterminated here-document, a dangling
`\\`), and an `exit` inside the command would skip it. The trap runs on every way out of the
shell (end of script, `exit`, `set -e`), and keeps the command's exit status.
"""

from __future__ import annotations

import os
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path

from claude_harness.sandbox.tempdir import session_temp_dir
from claude_harness.tools.bash.session_env import env_prelude


def build_script(command: str, cwd_file: Path) -> str:
    """The text handed to `bash -c`: the pwd-reporting trap, what hooks exported for the
    session (session_env.py), then the command untouched."""
    report = f"pwd -P >| {shlex.quote(str(cwd_file))} 2>/dev/null"
    return f"trap {shlex.quote(report)} EXIT\n{env_prelude()}{command}"


def new_cwd_file() -> Path:
    """An empty temp file for the trap to write to; the caller removes it. It lives in the
    harness's temp folder, which stays writable inside the sandbox."""
    fd, name = tempfile.mkstemp(prefix="cwd-", dir=session_temp_dir())
    os.close(fd)
    return Path(name)


@dataclass(frozen=True)
class StartDir:
    """Where a command starts, and a note when that is not where the last one ended."""

    path: Path
    note: str = ""


def resolve_start_dir(remembered: Path, project_dir: Path) -> StartDir:
    """The remembered cwd, or the project dir when the remembered one has since vanished."""
    if remembered.is_dir():
        return StartDir(remembered)
    if project_dir.is_dir():
        return StartDir(
            project_dir,
            f"The working directory {remembered} no longer exists; "
            f"the shell's cwd was reset to {project_dir}.",
        )
    raise FileNotFoundError(
        f"Neither the shell's working directory {remembered} nor the project directory "
        f"{project_dir} exists."
    )


def read_final_dir(cwd_file: Path, previous: Path) -> StartDir:
    """The directory the command ended in; the previous one (with a note) if it is gone."""
    try:
        text = cwd_file.read_text(encoding="utf-8", errors="surrogateescape").strip("\n")
    except OSError:
        text = ""
    if not text:  # the trap did not run (exec, kill) or pwd failed: keep what we had
        return StartDir(previous)
    final = Path(text)
    if final.is_dir():
        return StartDir(final)
    return StartDir(
        previous,
        f"The command ended in {final}, which no longer exists; the shell stays in {previous}.",
    )
