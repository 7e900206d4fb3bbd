"""Zed's Claude Code adapter (`@zed-industries/claude-agent-acp`, which drives Claude Code
through the TypeScript Agent SDK), pointed at our binary as its Claude Code executable
(CLAUDE_CODE_EXECUTABLE), driven by the ACP Python client: we are an Agent SDK drop-in, so the
adapter's prompts reach our session and its answers come back as ACP updates."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.acp.acp_client import RecordingClient, agent, our_cli

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]
ADAPTER_ENV = "CLAUDE_HARNESS_ZED_ACP"
ENTRY = Path("node_modules/@zed-industries/claude-agent-acp/dist/index.js")


def adapter_entry() -> Path | None:
    """$CLAUDE_HARNESS_ZED_ACP, or the copy .ci/run installs in .acp-npm/."""
    candidates = [Path(os.environ[ADAPTER_ENV])] if os.environ.get(ADAPTER_ENV) else []
    candidates.append(REPO / ".acp-npm" / ENTRY)
    return next((c for c in candidates if c.is_file()), None)


@pytest.fixture
def adapter(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    node, entry = shutil.which("node"), adapter_entry()
    if node is None or entry is None:
        pytest.skip("needs node and @zed-industries/claude-agent-acp (.ci/run installs it into "
                    ".acp-npm/ where npm exists)")
    monkeypatch.setenv("CLAUDE_CODE_EXECUTABLE", our_cli())
    monkeypatch.setenv("CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK", "1")
    monkeypatch.setenv("DISABLE_AUTOUPDATER", "1")
    for var in ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT"):
        monkeypatch.delenv(var, raising=False)
    return [node, str(entry)]


async def test_a_prompt_through_zeds_adapter_is_answered_by_us(
        adapter: list[str], project: Path, api: Any, tmp_path: Path) -> None:
    server = api(["Answered by claude-harness behind Zed's adapter."] * 3)
    client = RecordingClient()
    log = tmp_path / "adapter.log"
    async with agent(client, command=adapter, stderr=log) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        result = await conn.prompt(session_id=new.session_id,
                                   prompt=[{"type": "text", "text": "who answers?"}])
    assert result.stop_reason == "end_turn", log.read_text()[-3000:]
    assert "Answered by claude-harness behind Zed's adapter." in client.text()
    prompts = [b for b in server.requests if isinstance(b, dict) and b.get("tools")]
    assert "who answers?" in str(prompts[0]["messages"])
