"""`mcp add --client-id ID [--client-secret] [--callback-port PORT]`: a remote server whose
OAuth client is registered ahead (no dynamic registration), as Claude Code 2.1.332 takes them:

- the client id and the callback port go into the entry, `"oauth": {"clientId", "callbackPort"}`;
- the secret (only with a client id) comes from MCP_CLIENT_SECRET, else from a prompt on the
  terminal; without either the command fails before anything is written, in Claude Code's
  words; it is stored apart (client_secrets.py);
- on a stdio server the three flags are ignored with a warning.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Any

from claude_harness.mcp.client_secrets import SECRET_ENV
from claude_harness.mcp.config_edit import McpEditError

NO_TTY = ("No TTY available to prompt for client secret. Set MCP_CLIENT_SECRET env var "
          "instead.")


def oauth_entry(opts: argparse.Namespace) -> dict[str, Any]:
    """The entry's `oauth` object for the flags given (empty: none)."""
    oauth: dict[str, Any] = {}
    if opts.client_id:
        oauth["clientId"] = opts.client_id
    if opts.callback_port is not None:
        oauth["callbackPort"] = callback_port(opts.callback_port)
    return oauth


def callback_port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise McpEditError("Error: --callback-port must be a whole number from 1 to 65535")
    return int(text)


def oauth_secret(opts: argparse.Namespace) -> str | None:
    """The client secret to store, or None (not asked for, or no client id to go with it)."""
    if not opts.client_secret or not opts.client_id:
        return None
    secret = os.environ.get(SECRET_ENV)
    if secret:
        return secret
    if not sys.stdin.isatty():
        raise McpEditError(NO_TTY)
    try:
        secret = getpass.getpass("Enter OAuth client secret: ")
    except (EOFError, KeyboardInterrupt) as exc:
        raise McpEditError("No client secret entered; nothing was added.") from exc
    if not secret:
        raise McpEditError("No client secret entered; nothing was added.")
    return secret


def warn_oauth_ignored(opts: argparse.Namespace) -> None:
    if opts.client_id or opts.client_secret or opts.callback_port is not None:
        sys.stderr.write("Warning: --client-id, --client-secret and --callback-port only work "
                         "with HTTP/SSE servers and are ignored for stdio.\n")
