"""Project MCP servers from the command line: why a server waits, and approving it.

    claude-harness mcp list                 every configured server and whether it may start
    claude-harness mcp approve NAME [...]   approve project (.mcp.json) servers for this folder
    claude-harness mcp reject NAME [...]

Uses only the MCP package's public approval API (mcp/approvals.py); `waiting_reason()` is the
sentence `-p` prints for a project server it will not start.
"""

from __future__ import annotations

import sys
from pathlib import Path

from claude_harness.mcp.approvals import (
    ProjectPolicy,
    approval_project,
    approval_state,
    record_approval,
)
from claude_harness.mcp.config import McpServerConfig, load_mcp_configs


def waiting_reason(server: McpServerConfig, state: bool | None) -> str | None:
    """Why a server will not start (None when it may)."""
    if server.error:
        return f"{server.name}: cannot start ({server.error})"
    if state is True:
        return None
    if state is False:
        return (f"{server.name}: rejected for this folder (run `claude-harness mcp approve "
                f"{server.name}` to allow it)")
    return (f"{server.name}: project server from {server.source} is waiting for approval "
            f"(run `claude-harness mcp approve {server.name}`, or set "
            "enableAllProjectMcpServers in your own settings)")


def server_states(cwd: Path, policy: ProjectPolicy | None = None,
                  ) -> list[tuple[McpServerConfig, bool | None, str | None]]:
    """(server, may start?, reason it waits) for every configured server."""
    result = load_mcp_configs(cwd)
    rows = []
    for server in result.servers:
        state = approval_state(server, cwd, policy)
        rows.append((server, state, waiting_reason(server, state)))
    return rows


def _policy(cwd: Path) -> ProjectPolicy:
    """The settings' approval keys for this folder, as a session here would apply them (none
    that enable before the folder is trusted)."""
    from claude_harness.config.paths import data_dir
    from claude_harness.config.settings import load_settings
    from claude_harness.config.trust import is_trusted

    trusted = is_trusted(data_dir(), Path(cwd).resolve())
    return ProjectPolicy.from_settings(load_settings(cwd, trusted=trusted), trusted=trusted)


def run_mcp_command(args: list[str], cwd: Path) -> int:
    """`claude-harness mcp ...`; prints to stdout, problems to stderr; exit 0 on success."""
    if not args or args[0] in ("-h", "--help"):
        print((__doc__ or "").split("\n\n")[1])
        return 0
    verb, names = args[0], args[1:]
    rows = server_states(cwd, _policy(cwd))
    if verb == "list":
        for server, state, reason in rows:
            status = "ready" if state is True and reason is None else "waiting"
            print(f"{server.name}\t{server.scope}\t{status}\t{reason or server.source}")
        return 0
    if verb not in ("approve", "reject") or not names:
        sys.stderr.write("Usage: claude-harness mcp list | approve NAME... | reject NAME...\n")
        return 2
    known = {server.name: server for server, _, _ in rows}
    code = 0
    for name in names:
        server = known.get(name)
        if server is None:
            sys.stderr.write(f"No MCP server named {name!r} is configured here.\n")
            code = 1
            continue
        if server.scope != "project":
            print(f"{name}: a {server.scope} server needs no approval")
            continue
        record_approval(approval_project(server, cwd), name, verb == "approve")
        print(f"{name}: {'approved' if verb == 'approve' else 'rejected'} for "
              f"{approval_project(server, cwd)}")
    return code
