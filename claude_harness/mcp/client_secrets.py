"""OAuth client secrets of remote MCP servers (`mcp add --client-id ID --client-secret`), kept
where Claude Code keeps them on Linux, so that each program sees the other's:

    $CLAUDE_CONFIG_DIR/.credentials.json (or ~/.claude/.credentials.json), mode 0600
    {"mcpOAuthClientConfig": {"<name>|<key>": {"clientSecret": "..."}}, ...other entries...}

`<key>` is the first 16 hex digits of the SHA-256 of the server's `{"type", "url", "headers"}`
as compact JSON (checked against Claude Code 2.1.332's own writes), so a secret belongs to one
server at one address: changing the URL or the headers leaves it behind. The secret never goes
into `.claude.json` or `.mcp.json`, which are shared or read by more programs; the client id
and callback port do (`"oauth": {"clientId", "callbackPort"}` in the server's entry).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from claude_harness.fsutil import atomic_write_text, exclusive_lock

SECTION = "mcpOAuthClientConfig"
SECRET_ENV = "MCP_CLIENT_SECRET"
LOCK_SECONDS = 30.0


def credentials_file() -> Path:
    override = os.environ.get("CLAUDE_CONFIG_DIR")
    folder = Path(override).expanduser() if override else Path.home() / ".claude"
    return folder / ".credentials.json"


def secret_key(name: str, entry: dict[str, Any]) -> str:
    """`<name>|<hash>` for a server entry (type, url and headers, in Claude Code's order)."""
    identity = {"type": entry.get("type", "http"), "url": entry.get("url", ""),
                "headers": entry.get("headers") or {}}
    digest = hashlib.sha256(json.dumps(identity, separators=(",", ":"),
                                       ensure_ascii=False).encode()).hexdigest()
    return f"{name}|{digest[:16]}"


def stored_secret(name: str, entry: dict[str, Any]) -> str | None:
    section = _read().get(SECTION)
    found = section.get(secret_key(name, entry)) if isinstance(section, dict) else None
    secret = found.get("clientSecret") if isinstance(found, dict) else None
    return secret if isinstance(secret, str) else None


def store_secret(name: str, entry: dict[str, Any], secret: str) -> None:
    def change(data: dict[str, Any]) -> None:
        section = data.setdefault(SECTION, {})
        if not isinstance(section, dict):
            raise ValueError(f"`{SECTION}` in {credentials_file()} is not a JSON object")
        section[secret_key(name, entry)] = {"clientSecret": secret}

    _update(change)


def forget_secret(name: str, entry: dict[str, Any]) -> None:
    """Drop the server's secret (it was removed); nothing to do when none is stored."""
    if stored_secret(name, entry) is None:
        return

    def change(data: dict[str, Any]) -> None:
        section = data.get(SECTION)
        if isinstance(section, dict):
            section.pop(secret_key(name, entry), None)

    _update(change)


def _read() -> dict[str, Any]:
    try:
        data = json.loads(credentials_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _update(change: Any) -> None:
    """Read, change and write back under the lock, owner-only; a file that is not a JSON
    object is never overwritten (it may hold the user's login)."""
    path = credentials_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    with exclusive_lock(path.parent / f".{path.name}.lock", LOCK_SECONDS):
        data: Any = {}
        with contextlib.suppress(FileNotFoundError):
            text = path.read_text(encoding="utf-8")
            data = json.loads(text) if text.strip() else {}
        if not isinstance(data, dict):
            raise ValueError(f"{path} does not hold a JSON object; not changing it")
        change(data)
        atomic_write_text(path, json.dumps(data, ensure_ascii=False), mode=0o600)
