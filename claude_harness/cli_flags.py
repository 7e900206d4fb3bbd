"""Claude Code's flags and subcommands beyond the basic ones, applied (stdlib only: `--help`
stays instant).

`-d/--debug [filter]`, `--debug-file`, `--max-thinking-tokens`, `--agent`, `--betas`,
`-n/--name`, and the subcommands Claude Code has and we do not (`update`, `install`, `auth`...):
each answers in one line and exits as Claude Code would, and never reaches the model as a
prompt.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

# Claude Code 2.1.332's `--betas` accepts only these for API-key users; others are warned about.
ALLOWED_BETAS = ("context-1m-2025-08-07",)
RESUME_NEEDS_ID = ("Error: --resume requires a valid session ID or session title when used "
                   "with --print. Usage: claude-harness -p --resume <session-id|title>")

# Subcommands of `claude --help` this program does not have: why, and the exit code.
UNSUPPORTED_SUBCOMMANDS: dict[str, str] = {
    "update": "claude-harness updates through the package manager that installed it "
              "(pip install -U claude-harness)",
    "upgrade": "claude-harness updates through the package manager that installed it "
               "(pip install -U claude-harness)",
    "install": "claude-harness has no native build to install; it runs from its Python package",
    "setup-token": "claude-harness uses ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or apiKeyHelper; "
                   "it cannot create subscription tokens",
    "auth": "claude-harness has no sign-in; set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, or "
            "apiKeyHelper in the settings)",
    "migrate-installer": "claude-harness has no installer to migrate",
    "agents": "claude-harness has no background sessions",
    "attach": "claude-harness has no background sessions",
    "logs": "claude-harness has no background sessions",
    "respawn": "claude-harness has no background sessions",
    "rm": "claude-harness has no background sessions",
    "stop": "claude-harness has no background sessions",
    "kill": "claude-harness has no background sessions",
    "auto-mode": "claude-harness's auto mode has no configuration to inspect",
    "gateway": "claude-harness has no enterprise gateway",
    "import": "claude-harness reads Claude Code's configuration directly; there is nothing to "
              "import",
    "purge": "claude-harness keeps no per-project data to purge besides its transcripts",
    "ultrareview": "claude-harness has no cloud review",
}


def add_cc_flags(p: argparse.ArgumentParser) -> None:
    """The flags this module applies (see the module docstring)."""
    p.add_argument("-d", "--debug", nargs="?", const="", default=None, metavar="FILTER",
                   help="debug log (in the session folder, or --debug-file); FILTER keeps or "
                   "drops categories, e.g. \"api,hooks\" or \"!git\"")
    p.add_argument("--debug-file", metavar="PATH",
                   help="write the debug log to this file (turns --debug on)")
    p.add_argument("--max-thinking-tokens", type=_tokens, metavar="N",
                   help="thinking budget for models that take one (0: no thinking)")
    p.add_argument("--agent", metavar="NAME",
                   help="run the session as this agent (its prompt, tools and model)")
    p.add_argument("--betas", nargs="+", action="extend", metavar="BETA",
                   help="beta headers to send (anthropic-beta); API-key users only")
    p.add_argument("-n", "--name", metavar="NAME", help="the session's title (as /rename)")


def _tokens(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("must be a number") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def split_betas(values: list[str] | None) -> tuple[list[str], list[str]]:
    """(allowed, refused) from `--betas a,b c`."""
    names = [n.strip() for v in values or [] for n in v.replace(",", " ").split() if n.strip()]
    allowed = [n for n in names if n in ALLOWED_BETAS]
    return allowed, [n for n in names if n not in ALLOWED_BETAS]


def cc_options(args: argparse.Namespace) -> dict[str, Any]:
    """RunOptions fields from these flags, with Claude Code's warning for a refused beta."""
    allowed, refused = split_betas(args.betas)
    for name in refused:
        sys.stderr.write(f"Warning: Beta header '{name}' is not allowed. Only the following "
                         f"betas are supported: {', '.join(ALLOWED_BETAS)}\n")
    debug_on = args.debug is not None or args.debug_file is not None
    return {
        "debug": debug_on,
        "debug_filter": args.debug or None,
        "debug_file": args.debug_file,
        "max_thinking_tokens": args.max_thinking_tokens,
        "agent": args.agent,
        "betas": tuple(allowed),
        "name": " ".join(args.name.split()) if args.name else None,
    }


def unsupported_subcommand(word: str) -> int | None:
    """`claude-harness update` and the like: one line on stderr and exit 1; None when `word`
    is not such a subcommand (it is then a prompt or a real subcommand)."""
    why = UNSUPPORTED_SUBCOMMANDS.get(word)
    if why is None:
        return None
    sys.stderr.write(f"claude-harness: `{word}` is not available: {why}.\n")
    return 1
