"""Where settings and data live on disk (Claude Code compatible locations).

Why one module: tests and users override these locations with environment variables, and every
reader must honour the same override.

  managed policy  $CLAUDE_HARNESS_MANAGED_SETTINGS, else /etc/claude-harness/managed-settings.json
                  and Claude Code's /etc/claude-code/managed-settings.json (both read), each
                  with the managed-settings.d/*.json drop-ins beside it
  user settings   $CLAUDE_CONFIG_DIR/settings.json or ~/.claude/settings.json
  project         <cwd>/.claude/settings.json and <cwd>/.claude/settings.local.json
  data            $CLAUDE_HARNESS_DATA_DIR or platformdirs.user_data_dir("claude-harness")
  transcripts     $CLAUDE_HARNESS_TRANSCRIPTS_DIR/projects/<key>/<id>.jsonl, else Claude Code's
                  own $CLAUDE_CONFIG_DIR/projects/... or ~/.claude/projects/... (one history
                  for both programs); <data>/projects/... (where they were before) is still read
"""

from __future__ import annotations

import os
from pathlib import Path

MANAGED_SETTINGS_DEFAULT = Path("/etc/claude-harness/managed-settings.json")
CLAUDE_CODE_MANAGED_SETTINGS = Path("/etc/claude-code/managed-settings.json")


def managed_settings_path() -> Path:
    override = os.environ.get("CLAUDE_HARNESS_MANAGED_SETTINGS")
    return Path(override).expanduser() if override else MANAGED_SETTINGS_DEFAULT


def managed_settings_paths() -> list[Path]:
    """Every managed policy file, highest first: ours, then Claude Code's (an organisation that
    deployed Claude Code's policy gets it applied here too). The override names the only one.
    Each comes with its `managed-settings.d/*.json` drop-ins beside it, as Claude Code reads
    them: merged over the file in name order, so the last name wins (listed first here)."""
    if os.environ.get("CLAUDE_HARNESS_MANAGED_SETTINGS"):
        return _with_drop_ins(managed_settings_path())
    return [*_with_drop_ins(MANAGED_SETTINGS_DEFAULT),
            *_with_drop_ins(CLAUDE_CODE_MANAGED_SETTINGS)]


def _with_drop_ins(base: Path) -> list[Path]:
    folder = base.parent / "managed-settings.d"
    try:
        names = sorted(p for p in folder.glob("*.json") if not p.name.startswith("."))
    except OSError:
        names = []
    return [*reversed(names), base]


def user_config_dir() -> Path:
    override = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(override).expanduser() if override else Path.home() / ".claude"


def user_settings_path() -> Path:
    return user_config_dir() / "settings.json"


def project_settings_path(cwd: Path) -> Path:
    return Path(cwd) / ".claude" / "settings.json"


def local_settings_path(cwd: Path) -> Path:
    return Path(cwd) / ".claude" / "settings.local.json"


def data_dir() -> Path:
    """The harness's own data (sessions, history): never inside a project."""
    override = os.environ.get("CLAUDE_HARNESS_DATA_DIR")
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("claude-harness"))


def transcripts_root() -> Path:
    """The folder whose `projects/<folder key>/<session id>.jsonl` hold the transcripts written
    from now on. Claude Code's config folder by default, so `-c`/`-r` of either program find the
    other's sessions; CLAUDE_HARNESS_TRANSCRIPTS_DIR keeps ours apart for whoever wants that."""
    override = os.environ.get("CLAUDE_HARNESS_TRANSCRIPTS_DIR")
    return Path(override).expanduser() if override else user_config_dir()


def project_roots(cwd: Path) -> list[Path]:
    """cwd and its parents up to the repository root (nearest first); only cwd outside a repo."""
    cwd = Path(cwd)
    chain = [cwd, *cwd.parents]
    for index, folder in enumerate(chain):
        if (folder / ".git").exists():
            return chain[: index + 1]
    return [cwd]


def project_relative(path: str | Path, cwd: Path | None) -> str:
    """`path` as a person reads it in a list: relative to the project when inside it (what
    Claude Code shows), absolute otherwise."""
    if cwd is None:
        return str(path)
    try:
        return str(Path(path).relative_to(cwd))
    except ValueError:
        return str(path)
