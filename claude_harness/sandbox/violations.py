"""Tell the model when a command probably failed because of the sandbox, and what it can do.

A sandboxed command that writes outside the writable paths gets EROFS ("Read-only file system"),
one that reads a hidden path finds nothing, one that reaches a host off the list gets the
proxy's 403 or no network at all. The error text alone does not say "sandbox", so a model would
guess; the note names the cause and the way out: `dangerouslyDisableSandbox: true` (the user is
asked) where unsandboxed commands are allowed, else asking the user to change the settings.
"""

from __future__ import annotations

import re

# Only the sandbox produces these: worth a note even when the command's exit status hid them.
_SANDBOX_ONLY = re.compile(r"Read-only file system|Blocked by the claude-harness sandbox")
_SIGNS = re.compile(
    r"Read-only file system|Operation not permitted|Permission denied|"
    r"Could not resolve host|Temporary failure in name resolution|Name or service not known|"
    r"Network is unreachable|Connection refused|Blocked by the claude-harness sandbox|"
    r"CONNECT tunnel failed|403 Forbidden|getaddrinfo|No address associated",
    re.IGNORECASE,
)


def sandbox_failure_note(exit_code: int | None, output: str, *, writable: list[str],
                         allowed_domains: list[str], allow_unsandboxed: bool) -> str:
    """The note to add to a failed sandboxed command's result, or "" when nothing in its
    output points at the sandbox."""
    if not (_SANDBOX_ONLY.search(output) or (exit_code and _SIGNS.search(output))):
        return ""
    limits = (f"it may only write to {', '.join(writable) or 'nothing'} and reach "
              f"{', '.join(allowed_domains) or 'no network host'}")
    remedy = ("If the command must do this, run it again with dangerouslyDisableSandbox: true "
              "(the user will be asked to approve)." if allow_unsandboxed else
              "Commands cannot run outside the sandbox here; ask the user to widen the sandbox "
              "settings (sandbox.filesystem.allowWrite, sandbox.network.allowedDomains).")
    return f"This command ran in the sandbox and may have failed because of it: {limits}. {remedy}"
