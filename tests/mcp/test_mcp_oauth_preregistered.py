"""A server whose OAuth client was registered ahead (`mcp add --client-id ID --client-secret
--callback-port PORT`): the login uses that client, its secret and its fixed callback port,
and registers none, against a real OAuth-protected MCP server that knows only that client."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from claude_harness.mcp import McpManager
from claude_harness.mcp.config import load_mcp_configs
from tests.e2e.support import run_cli
from tests.mcp.support import free_port
from tests.mcp.test_mcp_http import _wait_for_port
from tests.mcp.test_mcp_oauth import SERVER, Browser, grants, whoami


async def test_a_preregistered_client_logs_in_without_registering(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    port, callback = free_port(), free_port()
    log = tmp_path / "grants.jsonl"
    log.touch()
    env = {**os.environ, "OAUTH_PREREGISTERED":
           f"cid-1:s3cret:http://127.0.0.1:{callback}/callback"}
    proc = subprocess.Popen([sys.executable, str(SERVER), str(port), str(log)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_port(port, proc)
        url = f"http://127.0.0.1:{port}/mcp"
        monkeypatch.setenv("MCP_CLIENT_SECRET", "s3cret")
        added = run_cli(["mcp", "add", "-t", "http", "secure", url, "--client-id", "cid-1",
                         "--client-secret", "--callback-port", str(callback)], tmp_path)
        assert added.returncode == 0, added.stderr
        monkeypatch.delenv("MCP_CLIENT_SECRET")  # from here on, only the stored copy
        config = load_mcp_configs(tmp_path).get("secure")
        assert config is not None and config.oauth == {"clientId": "cid-1",
                                                       "callbackPort": callback}
        manager = McpManager([config], cwd=tmp_path, startup_timeout=20)
        manager.start()
        try:
            assert await manager.wait_ready(25)
            assert manager.status()[0].state == "needs-auth"
            browser = Browser()
            assert await manager.authenticate("secure", browser, timeout=20) == "connected"
            link = browser.shown[0]
            assert "client_id=cid-1" in link
            assert f"redirect_uri=http%3A%2F%2F127.0.0.1%3A{callback}%2Fcallback" in link
            assert await whoami(manager, tmp_path) == "client cid-1"
        finally:
            await manager.close()
    finally:
        proc.kill()
        proc.wait(5)
    assert [g["event"] for g in grants(log)] == ["authorize", "code"]  # registered none
