"""/sandbox: what the Bash sandbox does in this session, and switching it on or off.

Without any `sandbox` setting no runtime is configured at start-up (it costs nothing); the
first /sandbox makes one from the defaults, so the status can say whether the sandbox could run
here at all, and `/sandbox on` has something to switch on.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_harness.config.sandbox_choice import save_sandbox_enabled
from claude_harness.protocol.events import Notice, Report
from claude_harness.sandbox.current import active, configure

if TYPE_CHECKING:
    from claude_harness.sandbox.runtime import SandboxRuntime


def current_runtime() -> SandboxRuntime:
    runtime = active()
    if runtime is None:
        # the sandbox machinery (~30 ms of imports) loads only when /sandbox is used
        from claude_harness.sandbox.runtime import SandboxRuntime
        from claude_harness.sandbox.settings import SandboxSettings
        from claude_harness.sandbox.tempdir import session_temp_dir

        runtime = SandboxRuntime(SandboxSettings(), session_temp_dir())
        configure(runtime)
    return runtime


def sandbox_status(permission: Any) -> list[str]:
    """The /sandbox lines: on or off, why it cannot run here, what is writable, the network."""
    return current_runtime().status(permission).lines()


def switch_sandbox(enabled: bool, cwd: Path, permission: Any) -> Report | Notice:
    """Switch the sandbox for the rest of the session and save the choice for the project."""
    current_runtime().set_enabled(enabled)
    try:
        path = save_sandbox_enabled(cwd, enabled)
    except (OSError, ValueError) as exc:
        return Notice(f"The sandbox is {'on' if enabled else 'off'} for this session, but the "
                      f"choice could not be saved: {exc}", "error")
    return Report("sandbox", (*sandbox_status(permission), f"Saved in {path}."))
