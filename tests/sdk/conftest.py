"""Fixtures for the Agent SDK programs: which CLI the SDK drives, an isolated home, a project
folder, the scripted API server, and (on request) a record of the pipe traffic.

Every test runs against our binary (`claude-harness` beside this venv's python). Set
`CLAUDE_HARNESS_REFERENCE_CLI=/opt/cc/node_modules/.bin/claude` to run the same programs
against Claude Code too, as the reference column. Set `CLAUDE_HARNESS_SDK_TRAFFIC=DIR` to keep
each run's argv, stdin and stdout under DIR/<test>/ (how `/work/ref/sdk/PROTOCOL.md` was made).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.testing.mock_api import MockApiServer
from tests.sdk.sdk_helpers import Cli, our_cli

REFERENCE_ENV = "CLAUDE_HARNESS_REFERENCE_CLI"
TRAFFIC_ENV = "CLAUDE_HARNESS_SDK_TRAFFIC"

pytest.importorskip("claude_agent_sdk", reason="the test extra installs claude-agent-sdk")


def _recording(path: str, folder: Path) -> str:
    """A wrapper script that tees the CLI's stdin and stdout into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    shim = folder / "cli.sh"
    shim.write_text(
        "#!/bin/bash\n"
        f'printf "%s\\n" "$*" >> "{folder}/argv"\n'
        f'tee -a "{folder}/stdin" | "{path}" "$@" | tee -a "{folder}/stdout"\n'
        "exit ${PIPESTATUS[1]}\n")
    shim.chmod(0o755)
    return str(shim)


@pytest.fixture(params=["ours", "claude-code"])
def cli(request: pytest.FixtureRequest) -> Cli:
    """The CLI the SDK starts: ours, or Claude Code when CLAUDE_HARNESS_REFERENCE_CLI is set."""
    if request.param == "ours":
        path = our_cli()
    else:
        path = os.environ.get(REFERENCE_ENV, "")
        if not path:
            pytest.skip(f"reference column: set {REFERENCE_ENV} to Claude Code's binary")
    traffic = os.environ.get(TRAFFIC_ENV)
    if traffic:
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
        path = _recording(path, Path(traffic) / name)
    return Cli(request.param, path)


@pytest.fixture
def project(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project folder; the SDK's subprocess gets a clean environment for both CLIs."""
    proj = tmp_path / "proj"
    proj.mkdir()
    monkeypatch.setenv("IS_SANDBOX", "1")  # Claude Code: root may use bypassPermissions
    monkeypatch.setenv("DISABLE_AUTOUPDATER", "1")
    monkeypatch.setenv("CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK", "1")
    for var in ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_HARNESS_PARALLEL_AGENTS"):
        monkeypatch.delenv(var, raising=False)
    return proj


@pytest.fixture
def scripted(tmp_path: Path, home: Path,
             monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., MockApiServer]]:
    """`server = scripted(turns, side=[...])`: requests offering no tools (Claude Code's
    session titles) answer from `side`, so one script drives both CLIs."""
    servers: list[MockApiServer] = []

    def start(turns: list[Any], side: list[Any] | None = None) -> MockApiServer:
        server = MockApiServer({"turns": turns, "side": side or []},
                               log_path=tmp_path / f"api{len(servers)}.jsonl")
        servers.append(server)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        return server

    yield start
    for server in servers:
        server.close()
