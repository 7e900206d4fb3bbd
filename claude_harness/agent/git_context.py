"""The git snapshot the model gets at the start of a session, in Claude Code's shape.

Claude Code 2.1.332 tells the model the current branch, the main branch, the git user, the
short status (cut at 2,000 characters) and the last five commits, once, as a snapshot. We do the
same, under two constraints of our own:

- Nothing the repository configures runs. A status refreshes the index and may start the
  repository's fsmonitor program, its hooks, its clean/smudge filters or submodule commands; the
  queries run with the `-c` overrides and the inert environment of the permission checker's
  git queries (permissions/bash/git_worktree.py), every filter driver the config names switched
  off, submodules ignored, and no optional locks. The snapshot then says, as Claude Code does,
  that the filters were off.
- It never slows start-up: `start_snapshot()` runs the queries in a thread while the rest of
  the session loads, and `GitSnapshot.text()` waits at most what is left of SNAPSHOT_TIMEOUT_S,
  then goes without (a huge repository gets no snapshot rather than a stalled first request).
  Its queries run side by side once the filter drivers are known.

`includeGitInstructions: false` (or CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS) switches the snapshot
and the git instructions off (`git_instructions_enabled`).
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

SNAPSHOT_TIMEOUT_S = 2.0  # the whole snapshot; past it the session starts without one
STATUS_LIMIT = 2_000  # characters of `git status --short`, as Claude Code cuts it
RECENT_COMMITS = 5
TRUNCATED_NOTE = ("\n... (truncated because it exceeds 2k characters. If you need more "
                  "information, run \"git status\" using Bash)")
FILTERS_OFF_NOTE = ("This status was taken with the repository's own git filters off, so a "
                    "file it lists may be unchanged.")
DISABLE_ENV = "CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS"

# The checker's overrides (they outrank every config file), plus what a status would start.
_SAFE = (
    "--no-pager", "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false",
    "-c", "core.hooksPath=/dev/null", "-c", "diff.external=", "-c", "core.pager=cat",
    "-c", "protocol.allow=never", "-c", "credential.helper=",
    "-c", "core.alternateRefsCommand=", "-c", "gc.auto=0", "-c", "maintenance.auto=false",
    "-c", "status.submoduleSummary=false", "-c", "diff.ignoreSubmodules=all",
    "-c", "log.showSignature=false", "-c", "gpg.program=/bin/false",
)


def git_instructions_enabled(setting: Any, env: dict[str, str] | None = None) -> bool:
    """Claude Code's switch: `includeGitInstructions: false` in the settings, or a truthy
    CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS, turns the git snapshot and instructions off."""
    env = dict(os.environ) if env is None else env
    if env.get(DISABLE_ENV, "").strip().lower() in ("1", "true", "yes", "on"):
        return False
    return setting is not False


def _environment() -> dict[str, str]:
    """No GIT_* of the caller (they redirect the repository, inject config, name programs);
    no system config (it may name programs) and no optional locks (no index write)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update({"GIT_CONFIG_NOSYSTEM": "1", "GIT_ATTR_NOSYSTEM": "1",
                "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0",
                "GIT_NO_LAZY_FETCH": "1", "GIT_PROTOCOL_FROM_USER": "0"})
    return env


class _Runner:
    """Runs the snapshot's queries in one folder against one deadline."""

    def __init__(self, cwd: Path, deadline: float) -> None:
        self.cwd = cwd
        self.deadline = deadline
        self.env = _environment()
        self.overrides: tuple[str, ...] = _SAFE

    def git(self, *args: str) -> str | None:
        left = self.deadline - time.monotonic()
        if left <= 0:
            return None
        try:
            done = subprocess.run(["git", *self.overrides, *args], cwd=self.cwd,
                                  capture_output=True, timeout=left, env=self.env,
                                  stdin=subprocess.DEVNULL, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if done.returncode != 0:
            return None
        return done.stdout.decode("utf-8", "replace")

    def disable_filters(self) -> None:
        """Every `filter.<driver>` any config file names gets empty commands: a status never
        runs the repository's clean or process programs."""
        listed = self.git("config", "--name-only", "--get-regexp", r"^filter\.") or ""
        drivers = {name[len("filter."):].rsplit(".", 1)[0]
                   for name in listed.split() if name.count(".") >= 2}
        extra: list[str] = []
        for driver in sorted(drivers):
            for key in ("clean", "smudge", "process"):
                extra += ["-c", f"filter.{driver}.{key}="]
            extra += ["-c", f"filter.{driver}.required=false"]
        self.overrides = (*_SAFE, *extra)


def _main_branch(run: _Runner) -> str:
    """origin's HEAD when it is known, else `main` or `master` if one exists, else `main`."""
    head = run.git("symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD")
    if head and head.strip():
        return head.strip().split("/", 1)[-1]
    for name in ("main", "master"):
        if run.git("rev-parse", "--verify", "--quiet", f"refs/heads/{name}") is not None:
            return name
    return "main"


def _status(raw: str) -> str:
    text = raw.rstrip("\n")
    if not text:
        return "(clean)"
    if len(text) > STATUS_LIMIT:
        return text[:STATUS_LIMIT] + TRUNCATED_NOTE
    return text


def gather(cwd: Path, timeout: float = SNAPSHOT_TIMEOUT_S) -> str | None:
    """The snapshot's text, or None outside a work tree or past the deadline."""
    run = _Runner(cwd, time.monotonic() + timeout)
    inside = run.git("rev-parse", "--is-inside-work-tree")
    if inside is None or inside.strip() != "true":
        return None
    run.disable_filters()
    with ThreadPoolExecutor(max_workers=5, thread_name_prefix="git-snapshot") as pool:
        queries = {
            "branch": pool.submit(run.git, "rev-parse", "--abbrev-ref", "HEAD"),
            "status": pool.submit(run.git, "status", "--short", "--ignore-submodules=all"),
            "log": pool.submit(run.git, "log", "--oneline", "--no-decorate", "-n",
                               str(RECENT_COMMITS)),
            "user": pool.submit(run.git, "config", "--get", "user.name"),
            "main": pool.submit(_main_branch, run),
        }
        found = {name: future.result() for name, future in queries.items()}
    branch, status = found["branch"], found["status"]
    if branch is None or status is None:
        return None
    log, user = found["log"] or "", (found["user"] or "").strip()
    parts = [
        "This is the git status at the start of the conversation. Note that this status is a "
        "snapshot in time, and will not update during the conversation.",
        f"Current branch: {branch.strip()}",
        f"Main branch (you will usually use this for PRs): {found['main']}",
        *([f"Git user: {user}"] if user else []),
        f"Status:\n{_status(status)}",
        f"Recent commits:\n{log.strip() or '(no commits yet)'}",
    ]
    if run.overrides != _SAFE:
        parts.append(FILTERS_OFF_NOTE)
    return "# gitStatus\n" + "\n\n".join(parts)


class GitSnapshot:
    """A snapshot being gathered in the background; `text()` waits for what is left of the
    deadline and returns None when it was not ready."""

    def __init__(self, cwd: Path, timeout: float = SNAPSHOT_TIMEOUT_S) -> None:
        self._deadline = time.monotonic() + timeout
        self._result: str | None = None
        self._thread = threading.Thread(target=self._run, args=(cwd, timeout),
                                        name="git-snapshot", daemon=True)
        self._thread.start()

    def _run(self, cwd: Path, timeout: float) -> None:
        self._result = gather(cwd, timeout)

    def text(self) -> str | None:
        self._thread.join(max(0.0, self._deadline - time.monotonic()))
        return None if self._thread.is_alive() else self._result


def start_snapshot(cwd: Path, enabled: bool) -> GitSnapshot | None:
    """Start gathering now (start-up goes on meanwhile); None when switched off."""
    return GitSnapshot(cwd) if enabled else None
