"""The process's sandbox runtime, set at start-up and read by the Bash tool.

A module of its own, importing nothing heavy, so the Bash tool can ask "is there a sandbox?"
without loading the sandbox machinery when there is none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from claude_harness.sandbox.runtime import SandboxRuntime

_active: SandboxRuntime | None = None


def configure(runtime: SandboxRuntime | None) -> None:
    """Make `runtime` the one the Bash tool uses (None: no sandbox), closing the previous one."""
    global _active
    previous, _active = _active, runtime
    if previous is not None and previous is not runtime:
        previous.close()


def active() -> SandboxRuntime | None:
    return _active
