from pathlib import Path
from typing import Any

from tests.acp.acp_client import RecordingClient, agent


async def test_text_answer_streams(project: Path, api: Any, tmp_path: Path) -> None:
    api(["Hello from the scripted model, streamed in chunks."])
    client = RecordingClient()
    async with agent(client, stderr=tmp_path / "err.log") as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        result = await conn.prompt(session_id=new.session_id,
                                   prompt=[{"type": "text", "text": "hi"}])
    print((tmp_path / "err.log").read_text())
    assert result.stop_reason == "end_turn"
    assert client.text() == "Hello from the scripted model, streamed in chunks."
