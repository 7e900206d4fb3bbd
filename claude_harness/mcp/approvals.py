"""One-time approval of project MCP servers (`.mcp.json`).

A `.mcp.json` arrives with a cloned repository: starting its commands without asking would let any
repository run programs on this machine. So each project server is started only after the user
said yes once; the answer (yes or no) is remembered per project directory and server name in
`<data dir>/mcp_approvals.json`:

    {"/path/to/project": {"github": true, "evil": false}}

Servers from the user's own config and from `--mcp-config` need no approval: the user wrote them.
Front ends call `pending_approvals()` to learn which servers to ask about and `record_approval()`
with the answer (or `resolve_approvals()` with an `ask` callback that does both).
"""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path

from claude_harness.mcp.config import McpServerConfig

APPROVALS_FILE = "mcp_approvals.json"

Ask = Callable[[McpServerConfig], "bool | Awaitable[bool]"]


def approvals_path() -> Path:
    from claude_harness.config.paths import data_dir

    return data_dir() / APPROVALS_FILE


def _load(path: Path) -> dict[str, dict[str, bool]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): {str(n): bool(a) for n, a in v.items()}
            for k, v in data.items() if isinstance(v, dict)}


def _key(project: Path) -> str:
    return str(Path(project).resolve())


def get_approval(project: Path, server: str) -> bool | None:
    """True (approved), False (rejected) or None (never asked)."""
    return _load(approvals_path()).get(_key(project), {}).get(server)


def record_approval(project: Path, server: str, approved: bool) -> None:
    """Remember the user's answer; written atomically so a crash never leaves half a file."""
    path = approvals_path()
    data = _load(path)
    data.setdefault(_key(project), {})[server] = bool(approved)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True), encoding="utf-8")
    tmp.replace(path)


def needs_approval(server: McpServerConfig) -> bool:
    return server.scope == "project"


def approval_project(server: McpServerConfig, cwd: Path) -> Path:
    """The directory an approval is keyed by: the folder holding the `.mcp.json`."""
    if server.source:
        return Path(server.source).parent
    return cwd


def approval_state(server: McpServerConfig, cwd: Path) -> bool | None:
    if not needs_approval(server):
        return True
    return get_approval(approval_project(server, cwd), server.name)


def pending_approvals(servers: Iterable[McpServerConfig], cwd: Path) -> list[McpServerConfig]:
    """Project servers the user has never been asked about (and that could start)."""
    return [s for s in servers
            if needs_approval(s) and s.error is None and approval_state(s, cwd) is None]


async def resolve_approvals(
    servers: Iterable[McpServerConfig], cwd: Path, ask: Ask
) -> dict[str, bool]:
    """Ask about every pending project server and record each answer; returns name -> answer."""
    answers: dict[str, bool] = {}
    for server in pending_approvals(servers, cwd):
        answer = ask(server)
        if inspect.isawaitable(answer):
            answer = await answer
        record_approval(approval_project(server, cwd), server.name, bool(answer))
        answers[server.name] = bool(answer)
    return answers
