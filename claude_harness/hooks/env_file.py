"""CLAUDE_ENV_FILE: SessionStart and Setup hooks export variables for later Bash commands.

A hook writes shell lines such as `export NODE_ENV=production` to the file named by
CLAUDE_ENV_FILE. Each hook run gets its own file under the session's env folder, so parallel
hooks never interleave. Before each Bash command the session sources them, in order:

    prelude = bash_prelude(env_dir)          # ". '/…/sessionstart-hook-0.sh'; " or ""
    command_to_run = prelude + command

(the Bash wiring is the session's; `read_exports()` gives the same variables as a mapping for
callers that set a process environment instead of running a shell prelude).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

_EXPORT = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")


def session_env_dir(data_dir: Path, session_id: str) -> Path:
    """Where one session's env files live (inside the harness's data folder)."""
    return Path(data_dir) / "session-env" / session_id


def env_file_path(env_dir: Path, event: str, index: int) -> Path:
    """A fresh, empty file for one hook run; the folder is created private to the user."""
    env_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = env_dir / f"{event.lower()}-hook-{index}.sh"
    path.write_text("", encoding="utf-8")
    return path


def env_files(env_dir: Path | None) -> list[Path]:
    """The files hooks wrote, in the order they ran."""
    if env_dir is None or not env_dir.is_dir():
        return []

    def order(path: Path) -> tuple[int, str]:
        number = path.stem.rsplit("-", 1)[-1]
        return (int(number) if number.isdigit() else 0, path.name)

    return sorted((p for p in env_dir.glob("*-hook-*.sh") if p.stat().st_size > 0), key=order)


def bash_prelude(env_dir: Path | None) -> str:
    """Shell text that sources every env file, to put before a Bash command ("" if none)."""
    return "".join(f". {shlex.quote(str(p))}; " for p in env_files(env_dir))


def read_exports(env_dir: Path | None) -> dict[str, str]:
    """`NAME=value` / `export NAME=value` lines of every env file (later files win); values
    in quotes are unquoted as the shell would. Lines that are not plain assignments are
    skipped: only the shell prelude runs them."""
    found: dict[str, str] = {}
    for path in env_files(env_dir):
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for line in lines:
            match = _EXPORT.match(line)
            if match is None:
                continue
            try:
                words = shlex.split(match.group(2)) or [""]
            except ValueError:
                continue
            found[match.group(1)] = words[0]
    return found
