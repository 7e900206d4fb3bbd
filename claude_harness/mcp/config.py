"""Which MCP servers to start: `.mcp.json`, the user's `~/.claude.json`, and `--mcp-config`.

Sources, highest precedence first (a server name found in several takes the whole entry from the
highest one, no merging, as Claude Code does):

  cli      each `--mcp-config FILE|JSON` value, later values over earlier ones
  local    `projects["<repository root, or cwd>"].mcpServers` in the user config file
           (private to this project; Claude Code's key)
  project  `.mcp.json` in the cwd or the nearest parent that has one (committed, shared: each
           server needs the user's one-time approval, see approvals.py)
  user     top-level `mcpServers` in the user config file

The user config file is Claude Code's own: `$CLAUDE_CONFIG_DIR/.claude.json` when that variable
is set, else `~/.claude.json`, so servers a user already added with `claude mcp add` just work.

`${VAR}` and `${VAR:-default}` are expanded in command, args, env, url and headers. A variable
that is unset and has no default makes that one server unusable (it is reported failed with the
variable's name), never the whole configuration.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from claude_harness.mcp.names import sanitize
from claude_harness.permissions.tool_names import server_name_problem

Transport = Literal["stdio", "http", "sse", "sdk"]
Scope = Literal["cli", "local", "project", "user"]
# "sdk": a server the program on the Agent SDK pipe hosts in its own process (its messages
# travel as mcp_message control requests; see sdk_transport.py)
TRANSPORTS: tuple[str, ...] = ("stdio", "http", "sse", "sdk")

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


@dataclass(frozen=True)
class McpServerConfig:
    """One server as configured, after variable expansion.

    `error` is set when the entry cannot be used (unknown type, missing command, unset variable);
    the manager reports such a server as failed without trying to start it.
    """

    name: str
    transport: Transport = "stdio"
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    scope: Scope = "user"
    source: str = ""  # the file (or "--mcp-config") the entry came from
    error: str | None = None
    # A pre-registered OAuth client (`mcp add --client-id/--callback-port`): {"clientId",
    # "callbackPort"}; its secret is kept apart (client_secrets.py).
    oauth: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class McpConfigResult:
    servers: list[McpServerConfig] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def get(self, name: str) -> McpServerConfig | None:
        return next((s for s in self.servers if s.name == name), None)


def expand_vars(text: str, env: Mapping[str, str], missing: list[str]) -> str:
    """Replace `${VAR}` / `${VAR:-default}`; names of unset variables without a default are
    appended to `missing` (and the placeholder is left as written)."""

    def sub(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        value = env.get(name)
        if value is not None and (value != "" or default is None):
            return value
        if default is not None:
            return default
        missing.append(name)
        return match.group(0)

    return _VAR.sub(sub, text)


def user_config_file() -> Path:
    """Claude Code's user config: `$CLAUDE_CONFIG_DIR/.claude.json` or `~/.claude.json`."""
    override = os.environ.get("CLAUDE_CONFIG_DIR")
    if override:
        return Path(override).expanduser() / ".claude.json"
    return Path.home() / ".claude.json"


def local_project_key(cwd: Path) -> str:
    """The `projects` key of the user config that holds this folder's local servers, as
    Claude Code files them: the git repository's root, or the folder outside a repository."""
    from claude_harness.config.paths import project_roots

    return str(project_roots(Path(cwd).resolve())[-1])


def find_project_file(cwd: Path) -> Path | None:
    """`.mcp.json` in cwd or the nearest parent directory that has one."""
    for folder in (cwd, *cwd.parents):
        candidate = folder / ".mcp.json"
        if candidate.is_file():
            return candidate
    return None


def parse_server(
    name: str, raw: Any, *, scope: Scope, source: str, env: Mapping[str, str]
) -> McpServerConfig:
    """One `mcpServers` entry -> McpServerConfig (with `error` set when it is unusable)."""
    base = McpServerConfig(name=name, scope=scope, source=source)
    alias = server_name_problem(sanitize(name))
    if alias is not None:  # `docs__admin` would read as server `docs` in rules: refused
        return _broken(base, f"server {name!r} is not started: {alias}; rename it")
    if not isinstance(raw, dict):
        return _broken(base, "the entry is not a JSON object")
    kind = raw.get("type", "http" if "url" in raw and "command" not in raw else "stdio")
    if kind == "streamable-http":
        kind = "http"
    if kind not in TRANSPORTS:
        return _broken(base, f"type {kind!r} is not supported (use stdio, http, sse or sdk)")
    missing: list[str] = []
    try:
        cfg = _expanded(base, kind, raw, env, missing)
    except (TypeError, ValueError) as exc:
        return _broken(base, str(exc))
    if missing:
        names = ", ".join(sorted(set(missing)))
        return _broken(cfg, f"missing environment variable(s): {names}")
    if kind == "stdio" and not cfg.command:
        return _broken(cfg, "a stdio server needs a `command`")
    if kind in ("http", "sse") and not cfg.url:
        return _broken(cfg, f"an {kind} server needs a `url`")
    return cfg


def _expanded(
    base: McpServerConfig, kind: str, raw: dict[str, Any], env: Mapping[str, str],
    missing: list[str],
) -> McpServerConfig:
    def text(key: str) -> str:
        value = raw.get(key, "")
        if not isinstance(value, str):
            raise TypeError(f"`{key}` must be a string")
        return expand_vars(value, env, missing)

    def strings(key: str) -> tuple[str, ...]:
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise TypeError(f"`{key}` must be a list of strings")
        return tuple(expand_vars(v, env, missing) for v in value)

    def mapping(key: str) -> dict[str, str]:
        value = raw.get(key, {})
        if not isinstance(value, dict):
            raise TypeError(f"`{key}` must be an object of strings")
        return {str(k): expand_vars(str(v), env, missing) for k, v in value.items()}

    return McpServerConfig(
        name=base.name, transport=kind, command=text("command"),  # type: ignore[arg-type]
        args=strings("args"), env=mapping("env"), url=text("url"), headers=mapping("headers"),
        scope=base.scope, source=base.source, oauth=_oauth(raw.get("oauth")),
    )


def _oauth(value: Any) -> dict[str, Any]:
    """The entry's `oauth` object, checked (Claude Code's clientId and callbackPort)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise TypeError("`oauth` must be an object")
    client_id, port = value.get("clientId"), value.get("callbackPort")
    if client_id is not None and not isinstance(client_id, str):
        raise TypeError("`oauth.clientId` must be a string")
    if port is not None and (not isinstance(port, int) or not 1 <= port <= 65535):
        raise TypeError("`oauth.callbackPort` must be a port number")
    return {k: v for k, v in (("clientId", client_id), ("callbackPort", port)) if v}


def _broken(cfg: McpServerConfig, why: str) -> McpServerConfig:
    return McpServerConfig(
        name=cfg.name, transport=cfg.transport, command=cfg.command, args=cfg.args,
        env=cfg.env, url=cfg.url, headers=cfg.headers, scope=cfg.scope, source=cfg.source,
        oauth=cfg.oauth, error=f"invalid configuration in {cfg.source or 'config'}: {why}",
    )


def servers_from_document(
    doc: Any, *, scope: Scope, source: str, env: Mapping[str, str], warnings: list[str]
) -> list[McpServerConfig]:
    """The `mcpServers` object of a parsed document (a bare name->entry object is accepted
    for `--mcp-config` too)."""
    if not isinstance(doc, dict):
        warnings.append(f"{source}: expected a JSON object with `mcpServers`")
        return []
    servers = doc.get("mcpServers", doc if scope == "cli" else {})
    if not isinstance(servers, dict):
        warnings.append(f"{source}: `mcpServers` must be an object")
        return []
    return [parse_server(str(n), e, scope=scope, source=source, env=env)
            for n, e in servers.items()]


def _read_json(path: Path, warnings: list[str]) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        warnings.append(f"Could not read MCP config {path}: {exc}")
        return None


def parse_cli_value(value: str, cwd: Path, warnings: list[str]) -> tuple[Any, str]:
    """A `--mcp-config` value: inline JSON when it starts with `{`, else a file path."""
    text = value.strip()
    if text.startswith("{"):
        try:
            return json.loads(text), "--mcp-config"
        except ValueError as exc:
            warnings.append(f"--mcp-config: invalid JSON: {exc}")
            return None, "--mcp-config"
    path = Path(text).expanduser()
    if not path.is_absolute():
        path = cwd / path
    if not path.is_file():
        warnings.append(f"--mcp-config: file not found: {path}")
        return None, str(path)
    return _read_json(path, warnings), str(path)


def load_mcp_configs(
    cwd: Path,
    *,
    cli_values: Iterable[str] = (),
    env: Mapping[str, str] | None = None,
    include_user: bool = True,
    include_project: bool = True,
) -> McpConfigResult:
    """Every configured server, one per name, in name order."""
    env = os.environ if env is None else env
    result = McpConfigResult()
    by_name: dict[str, McpServerConfig] = {}

    def add(servers: list[McpServerConfig]) -> None:  # lowest precedence first
        for server in servers:
            by_name[server.name] = server

    user_doc = _read_json(user_config_file(), result.warnings) if include_user else None
    source = str(user_config_file())
    if isinstance(user_doc, dict) and "mcpServers" in user_doc:
        add(servers_from_document(user_doc, scope="user", source=source, env=env,
                                  warnings=result.warnings))
    if include_project:
        project = find_project_file(cwd)
        if project is not None:
            doc = _read_json(project, result.warnings)
            if doc is not None:
                add(servers_from_document(doc, scope="project", source=str(project), env=env,
                                          warnings=result.warnings))
    if isinstance(user_doc, dict):
        projects = user_doc.get("projects") or {}
        local = projects.get(local_project_key(cwd)) or projects.get(str(cwd))
        if isinstance(local, dict) and "mcpServers" in local:
            add(servers_from_document(local, scope="local", source=source, env=env,
                                      warnings=result.warnings))
    for value in cli_values:
        doc, where = parse_cli_value(value, cwd, result.warnings)
        if doc is not None:
            add(servers_from_document(doc, scope="cli", source=where, env=env,
                                      warnings=result.warnings))
    result.servers = [by_name[n] for n in sorted(by_name)]
    return result
