"""Run Claude Code 2.1.332, the reference, beside our program in the same temp HOME.

Both read and write the same files there (`$CLAUDE_CONFIG_DIR/projects/...`,
`$CLAUDE_CONFIG_DIR/.claude.json`, `.mcp.json`), which is what the interop tests check. The
binary is `/opt/cc/node_modules/.bin/claude` unless CLAUDE_HARNESS_REFERENCE_CLI names another;
without it the tests that need it are skipped.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

CC_BINARY = Path(os.environ.get("CLAUDE_HARNESS_REFERENCE_CLI")
                 or "/opt/cc/node_modules/.bin/claude")
needs_claude_code = pytest.mark.skipif(not CC_BINARY.exists(),
                                       reason=f"Claude Code is not installed at {CC_BINARY}")


def cc_env(base_url: str | None = None) -> dict[str, str]:
    """The test's environment (its HOME and config dir) for Claude Code, kept off the network."""
    env = dict(os.environ)
    env.update({"IS_SANDBOX": "1", "DISABLE_AUTOUPDATER": "1",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
                "ANTHROPIC_API_KEY": ""})
    if base_url is not None:  # a key only for model requests: with one, `claude mcp list`
        env["ANTHROPIC_BASE_URL"] = base_url  # also looks for the account's connectors (~17 s)
        env["ANTHROPIC_API_KEY"] = os.environ.get("ANTHROPIC_API_KEY") or "test-key"
    return env


def run_claude_code(args: list[str], cwd: Path, *, base_url: str | None = None,
                    timeout: float = 120, extra_env: dict[str, str] | None = None,
                    ) -> subprocess.CompletedProcess[str]:
    env = {**cc_env(base_url), **(extra_env or {})}
    return subprocess.run([str(CC_BINARY), *args], cwd=cwd, env=env, input="",
                          capture_output=True, text=True, timeout=timeout)
