"""What every run computes the same way before its first request and at its first tool calls,
computed once in the warm process (warm/) so that each forked run finds it in its caches.

Each cache is the one the cold path fills on first use, keyed so that a run never gets a value
its own inputs would not give: tool schemas per input model class, the ripgrep verdict per
(path, mtime, size), SSL contexts per certificate source and file state, and where the SDK
is the transport (Bedrock, Vertex), its event validator and its content blocks' serializers. Nothing here starts a thread or leaves a file open (the warm process forks).
"""

from __future__ import annotations

import sys
from pathlib import Path

from claude_harness.api.sdk_warmup import (
    build_content_block_serializers,
    build_stream_event_validator,
    share_ssl_contexts,
)
from claude_harness.tools.grep.rg_check import check_rg
from claude_harness.tools.registry import get_all_base_tools


def fill_run_caches() -> None:
    """Fill them all; a cache that cannot be filled here is filled by the first run as before."""
    for tool in get_all_base_tools():
        tool.input_schema()
    _check_bundled_rg()
    _rehearse_bash_checks()
    if "anthropic" in sys.modules:  # the SDK's provider (Bedrock, Vertex); else never loaded
        build_stream_event_validator()
        build_content_block_serializers()
    share_ssl_contexts()


# Shapes every session meets (a pipeline, a `cd`, a redirect, a few everyday programs): their
# first check in a run paid ~5 ms of one-time work (the checker's regexes and option tables).
_REHEARSED_COMMANDS = (
    "ls src | wc -l",
    "cd src && git status --short | grep -v x > /dev/null; cat a.txt | head -n 3",
)


def _rehearse_bash_checks() -> None:
    """Check a few commands as a run's first Bash call does (scheduling hint, write targets,
    cd), from "/" (caches kept per folder never meet a project's). The checks only read."""
    from claude_harness.permissions.bash.decision import is_read_only_command
    from claude_harness.tools.bash.command_facts import changes_directory, write_targets

    root = Path("/")
    for command in _REHEARSED_COMMANDS:
        try:
            is_read_only_command(command, root)
            changes_directory(command, root)
            write_targets(command, root)
        except Exception:  # the run checks it again, and reports a checker fault there
            pass


def _check_bundled_rg() -> None:
    """The bundled ripgrep's check (`rg --version` and a hash of its ~6 MB): the first Grep or
    Glob of every run paid it. An rg found on PATH is left to the run (its PATH decides)."""
    bundled = Path(sys.executable).parent / "rg"
    if bundled.is_file():
        check_rg(bundled)
