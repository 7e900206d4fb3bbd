"""`claude-harness mcp ...`: manage MCP servers from the command line, as `claude mcp` does and
in the same files (config_edit.py), so each program sees the other's changes.

    claude-harness mcp add [-s local|project|user] [-t stdio|http|sse] [-e KEY=VALUE]...
                           [-H 'Name: value']... [--client-id ID [--client-secret]]
                           [--callback-port PORT] NAME COMMAND_OR_URL [ARGS...]
                           (`NAME -- COMMAND ARGS...` when the command's own arguments start
                           with a dash)
    claude-harness mcp add-json [-s SCOPE] NAME JSON
    claude-harness mcp get NAME
    claude-harness mcp remove [-s SCOPE] NAME
    claude-harness mcp list
    claude-harness mcp reset-project-choices
    claude-harness mcp approve NAME... | reject NAME...   (project servers, see status.py)
    claude-harness mcp serve [--permission-mode M] [--allowedTools RULE...]   (mcp_serve.py)

`list` and `get` connect to the servers that may start, all at once and each with a short
deadline, and report how they answered as Claude Code does (health.py); a project server that
waits for approval is not contacted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from claude_harness.mcp.client_secrets import forget_secret, store_secret, stored_secret
from claude_harness.mcp.config import parse_server
from claude_harness.mcp.config_edit import (
    SCOPE_NAMES,
    SCOPES,
    McpEditError,
    Stored,
    add_server,
    not_found_message,
    remove_server,
    reset_project_choices,
    stored_servers,
    where,
)
from claude_harness.mcp.oauth_flags import oauth_entry, oauth_secret, warn_oauth_ignored

PROG = "claude-harness mcp"
_SECRET_HEADERS = ("authorization", "proxy-authorization", "cookie", "x-api-key")


def run_mcp(args: list[str], cwd: Path) -> int:
    """Dispatch one `mcp` subcommand; output on stdout, problems on stderr."""
    if not args or args[0] in ("-h", "--help", "help"):
        print((__doc__ or "").split("\n\n")[1])
        return 0
    verb, rest = args[0], args[1:]
    handlers = {"add": _add, "add-json": _add_json, "get": _get, "remove": _remove,
                "list": _list, "reset-project-choices": _reset}
    if verb in ("approve", "reject"):
        from claude_harness.mcp.status import run_mcp_command

        return run_mcp_command(args, cwd)

    handler = handlers.get(verb)
    if handler is None:
        sys.stderr.write(f"{PROG}: unknown command {verb!r} (see `{PROG} --help`)\n")
        return 2
    try:
        return handler(rest, cwd)
    except McpEditError as exc:
        sys.stderr.write(f"{exc}\n")
        return 1
    except (ValueError, OSError) as exc:  # a config file that is not JSON, a read-only disk
        sys.stderr.write(f"{PROG} {verb}: {exc}\n")
        return 1


def _parser(verb: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"{PROG} {verb}", exit_on_error=False)
    parser.add_argument("-s", "--scope", choices=SCOPES, default=None)
    return parser


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    try:
        return parser.parse_intermixed_args(argv)
    except argparse.ArgumentError as exc:
        raise McpEditError(f"{parser.prog}: {exc}") from exc


def _add(argv: list[str], cwd: Path) -> int:
    parser = _parser("add")
    parser.add_argument("-t", "--transport", choices=("stdio", "http", "sse"), default="stdio")
    parser.add_argument("-e", "--env", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("-H", "--header", action="append", default=[], metavar="'Name: value'")
    parser.add_argument("--client-id", default=None)
    parser.add_argument("--client-secret", action="store_true")
    parser.add_argument("--callback-port", default=None)
    parser.add_argument("name")
    tail: list[str] = []
    if "--" in argv:  # everything after `--` is the command and its own arguments
        cut = argv.index("--")
        argv, tail = argv[:cut], argv[cut + 1:]
    else:
        parser.add_argument("target", metavar="COMMAND_OR_URL")
        parser.add_argument("args", nargs="*")
    opts = _parse(parser, argv)
    target, extra = (tail[0], tail[1:]) if tail else (getattr(opts, "target", ""),
                                                       getattr(opts, "args", []))
    if not target:
        raise McpEditError(f"{PROG} add: a command (stdio) or a URL (http, sse) is needed")
    entry = _entry(opts, target, extra)
    _check(opts.name, entry)
    secret = oauth_secret(opts) if "oauth" in entry else None
    stored = add_server(opts.name, entry, opts.scope or "local", cwd)
    if secret:
        store_secret(opts.name, entry, secret)
    kind = {"stdio": "stdio", "http": "HTTP", "sse": "SSE"}[opts.transport]
    what = (f"with command: {' '.join([target, *extra])}" if opts.transport == "stdio"
            else f"with URL: {target}")
    print(f"Added {kind} MCP server {opts.name} {what} to {stored.scope} config")
    if entry.get("headers"):
        print("Headers: " + json.dumps(_shown_headers(entry["headers"]), indent=2))
    print(f"File modified: {where(stored, cwd)}")
    return 0


def _entry(opts: argparse.Namespace, target: str, extra: list[str]) -> dict[str, Any]:
    """The entry exactly as Claude Code writes it for the same flags."""
    if opts.transport == "stdio":
        warn_oauth_ignored(opts)
        return {"type": "stdio", "command": target, "args": list(extra),
                "env": dict(_pair(e, "=", "-e") for e in opts.env)}
    if extra:
        raise McpEditError(f"{PROG} add: an {opts.transport} server takes a URL only, "
                           f"not {' '.join(extra)!r}")
    entry: dict[str, Any] = {"type": opts.transport, "url": target}
    if opts.header:
        entry["headers"] = dict(_pair(h, ":", "-H") for h in opts.header)
    oauth = oauth_entry(opts)
    if oauth:
        entry["oauth"] = oauth
    return entry


def _pair(text: str, separator: str, flag: str) -> tuple[str, str]:
    key, found, value = text.partition(separator)
    if not found or not key.strip():
        shape = "KEY=VALUE" if separator == "=" else "'Name: value'"
        raise McpEditError(f"{PROG} add: {flag} {text!r} is not of the form {shape}")
    return key.strip(), value.strip() if separator == ":" else value


def _check(name: str, entry: Any) -> None:
    """Refuse what no session could start (the loader's own checks, variables left as
    written: they are expanded when a session starts)."""
    if not name or any(c.isspace() for c in name):
        raise McpEditError(f"{PROG}: {name!r} is not a server name")
    parsed = parse_server(name, entry, scope="user", source="the new entry",
                          env={"__keep__": ""})
    if parsed.error and "missing environment variable" not in parsed.error:
        raise McpEditError(parsed.error)


def _add_json(argv: list[str], cwd: Path) -> int:
    parser = _parser("add-json")
    parser.add_argument("name")
    parser.add_argument("json")
    opts = _parse(parser, argv)
    text = sys.stdin.read() if opts.json == "-" else opts.json
    try:
        entry = json.loads(text)
    except ValueError as exc:
        raise McpEditError(f"{PROG} add-json: invalid JSON: {exc}") from exc
    if not isinstance(entry, dict):
        raise McpEditError(f"{PROG} add-json: the server must be a JSON object")
    _check(opts.name, entry)
    stored = add_server(opts.name, entry, opts.scope or "local", cwd)
    kind = entry.get("type", "http" if "url" in entry else "stdio")
    print(f"Added {kind} MCP server {opts.name} to {stored.scope} config")
    print(f"File modified: {where(stored, cwd)}")
    return 0


def _get(argv: list[str], cwd: Path) -> int:
    parser = argparse.ArgumentParser(prog=f"{PROG} get", exit_on_error=False)
    parser.add_argument("name")
    opts = _parse(parser, argv)
    found = [s for s in stored_servers(cwd) if s.name == opts.name]
    if not found:
        raise McpEditError(not_found_message(opts.name, cwd))
    stored = found[0]  # local, then project, then user: the one a session uses
    for line in _details(stored, cwd):
        print(line)
    print(f"\nTo remove this server, run: {PROG} remove {stored.name} -s {stored.scope}")
    return 0


def _details(stored: Stored, cwd: Path) -> list[str]:
    entry = stored.entry
    kind = str(entry.get("type", "http" if "url" in entry else "stdio"))
    health = _health(stored, cwd)
    lines = [f"{stored.name}:", f"  Scope: {SCOPE_NAMES[stored.scope]}",
             f"  Status: {health.status}"]
    if health.issue:
        lines.append(f"  Issue: {health.issue}")
    lines.append(f"  Type: {kind}")
    if kind == "stdio":
        lines.append(f"  Command: {entry.get('command', '')}")
        lines.append(f"  Args: {' '.join(str(a) for a in entry.get('args') or [])}")
        if isinstance(entry.get("env"), dict):  # Claude Code shows the heading for env: {}
            env = entry["env"]
            lines += ["  Environment:", *(f"    {k}={v}" for k, v in env.items())]
    else:
        lines.append(f"  URL: {entry.get('url', '')}")
        headers = entry.get("headers") or {}
        if headers:
            lines += ["  Headers:", *(f"    {k}: {v}" for k, v in headers.items())]
        oauth = _oauth_line(stored)
        if oauth:
            lines.append(f"  OAuth: {oauth}")
    return lines


def _oauth_line(stored: Stored) -> str:
    """What is configured for the login, as Claude Code shows it (never the secret)."""
    oauth = stored.entry.get("oauth")
    oauth = oauth if isinstance(oauth, dict) else {}
    parts = ["client_id configured"] if oauth.get("clientId") else []
    if stored_secret(stored.name, stored.entry):
        parts.append("client_secret configured")
    if oauth.get("callbackPort"):
        parts.append(f"callback_port {oauth['callbackPort']}")
    return ", ".join(parts)


def _health(stored: Stored, cwd: Path) -> Any:
    """The server's Health (health.py), connecting to it when it may start."""
    from claude_harness.mcp.health import Health
    from claude_harness.mcp.status import _policy, server_states

    for row in server_states(cwd, _policy(cwd)):
        if row[0].name == stored.name and row[0].scope == stored.scope:
            return _healths([row], cwd)[0]
    return Health("overridden by a server of the same name in a narrower scope")


def _list(argv: list[str], cwd: Path) -> int:
    """Every server with its health, each connected to at once (health.py), in Claude Code's
    order (user, project, local) and shape."""
    from claude_harness.mcp.status import _policy, server_states

    if argv:
        raise McpEditError(f"{PROG} list takes no arguments")
    rows = sorted(server_states(cwd, _policy(cwd)), key=lambda row: _LIST_ORDER.get(
        row[0].scope, len(_LIST_ORDER)))
    if not rows:
        print(f"No MCP servers configured. Use `{PROG} add` to add a server.")
        return 0
    print("Checking MCP server health…\n", flush=True)
    for (server, _, _), health in zip(rows, _healths(rows, cwd), strict=True):
        if server.transport == "stdio":
            target = f"{server.command} {' '.join(server.args)}"
        else:
            target = f"{server.url} ({server.transport.upper()})"
        issue = f" — {health.issue}" if health.issue else ""
        print(f"{server.name}: {target} - {health.status}{issue}")
    return 0


_LIST_ORDER = {"user": 0, "project": 1, "local": 2}


def _healths(rows: list[Any], cwd: Path) -> list[Any]:
    """Each row's Health: the servers that may start are connected to, all at once."""
    from claude_harness.mcp.health import check_health, not_started

    known = [not_started(server, state) for server, state, _ in rows]
    startable = [row[0] for row, health in zip(rows, known, strict=True) if health is None]
    checked = iter(check_health(startable, cwd))
    return [health if health is not None else next(checked) for health in known]


def _remove(argv: list[str], cwd: Path) -> int:
    parser = _parser("remove")
    parser.add_argument("name")
    opts = _parse(parser, argv)
    removed = remove_server(opts.name, opts.scope, cwd)
    if removed.entry.get("url"):
        forget_secret(removed.name, removed.entry)  # as Claude Code does
    print(f"Removed MCP server {removed.name} from {removed.scope} config")
    print(f"File modified: {where(removed, cwd)}")
    return 0


def _reset(argv: list[str], cwd: Path) -> int:
    if argv:
        raise McpEditError(f"{PROG} reset-project-choices takes no arguments")
    reset_project_choices(cwd)
    print("Project-scoped (.mcp.json) server approvals and rejections stored for this project "
          "have been reset.")
    return 0


def _shown_headers(headers: dict[str, str]) -> dict[str, str]:
    return {k: "[REDACTED]" if k.lower() in _SECRET_HEADERS else v for k, v in headers.items()}
