"""The TypeScript Agent SDK from npm drives the CLI too: `query()` with a `canUseTool`
callback that allows a Write with a rewritten input (a node program, run by this test)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.sdk.sdk_helpers import Cli, main_requests, tool_results, tool_use

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SDK_ENV = "CLAUDE_HARNESS_TS_SDK"
PACKAGE = Path("node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs")


def ts_sdk_module() -> Path | None:
    """The SDK's entry module: $CLAUDE_HARNESS_TS_SDK, the copy .ci/run installs in .sdk-npm/,
    or a global install under /opt/cc."""
    candidates = [Path(os.environ[SDK_ENV])] if os.environ.get(SDK_ENV) else []
    candidates += [REPO / ".sdk-npm" / PACKAGE, Path("/opt/cc") / PACKAGE]
    return next((c for c in candidates if c.is_file()), None)


async def test_typescript_query_with_can_use_tool(cli: Cli, project: Path,
                                                  scripted: Any) -> None:
    node, module = shutil.which("node"), ts_sdk_module()
    if node is None or module is None:
        pytest.skip("needs node and @anthropic-ai/claude-agent-sdk (.ci/run installs them "
                    "into .sdk-npm/ where node exists)")
    note = project / "note.txt"
    server = scripted([tool_use("Write", {"file_path": str(note), "content": "from the model\n"},
                                "toolu_ts_1"), "Saved from node."])

    done = subprocess.run([node, str(HERE / "ts" / "can_use_tool.mjs"), module.as_uri(),
                           cli.path, str(project), str(note)],
                          capture_output=True, text=True, timeout=90, env=dict(os.environ))

    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert [(a["toolName"], a["input"]["content"], a["toolUseID"]) for a in report["asked"]] == [
        ("Write", "from the model\n", "toolu_ts_1")]
    assert note.read_text() == "from node\n"
    kinds = [m["type"] for m in report["messages"]]
    assert kinds[0] == "system" and kinds[-1] == "result"
    result = report["messages"][-1]
    assert (result["subtype"], result["result"]) == ("success", "Saved from node.")
    [outcome] = tool_results(main_requests(server)[-1])
    assert not outcome.get("is_error")
