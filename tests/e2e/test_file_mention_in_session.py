"""A prompt with a file `@` mention, sent through a real Session without MCP servers: the
file is attached and the turn answers. After the session split `TurnServices` read
`self.session.mcp_wiring` (an attribute it does not have) for every prompt with an `@`, so
such a prompt ended in "Error: AttributeError" instead of an answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from claude_harness.api.client import ApiSettings
from claude_harness.protocol.events import Notice
from claude_harness.protocol.permission_data import PermissionContext
from claude_harness.session.core import Session, SessionConfig
from claude_harness.tools.registry import assemble_tool_pool
from tests.e2e.support import run_prompt


@pytest.mark.parametrize("interactive", [True, False])
async def test_a_file_mention_is_attached_and_answered(api: Any, project: Path,
                                                       interactive: bool) -> None:
    server = api(["Read it."])
    (project / "notes.txt").write_text("the secret word is heliotrope\n")
    perm = PermissionContext(mode="default", cwd=project, interactive=interactive)
    session = Session(SessionConfig(
        cwd=project, model="claude-sonnet-5-5", permission=perm,
        tools=assemble_tool_pool(perm), system_prompt="You are a test assistant.",
        api=ApiSettings(api_key="test", auth_token=None, base_url=server.url,
                        retry_base_delay=0.05, max_retries=1),
        data_dir=project.parent / "home" / "data"))
    events = await run_prompt(session, "what does @notes.txt say?")
    errors = [e.text for e in events if isinstance(e, Notice) and e.text.startswith("Error")]
    assert errors == []
    assert len(server.requests) == 1
    sent = json.dumps(server.requests[0]["messages"])
    assert "heliotrope" in sent and "what does @notes.txt say?" in sent
