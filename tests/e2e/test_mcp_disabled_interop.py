"""A server disabled here is disabled in Claude Code: `/mcp disable srv` in the REPL writes
the project's `disabledMcpServers` in `.claude.json`, and Claude Code 2.1.332 then reports the
server as disabled in its own init line (the file both programs read); ours does too."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from tests.cc_reference import needs_claude_code, run_claude_code
from tests.e2e.support import ndjson, run_cli

DEMO = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "demo_server.py"


@needs_claude_code
def test_a_server_disabled_here_is_disabled_in_claude_code(project: Path, api: Any) -> None:
    server = api(["one", "two"])
    config = Path(os.environ["CLAUDE_CONFIG_DIR"]) / ".claude.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    key = str(project.resolve())
    config.write_text(json.dumps({"projects": {key: {"mcpServers": {"srv": {
        "type": "stdio", "command": sys.executable, "args": [str(DEMO), "srv"]}}}}}))
    done = run_cli(["--plain", "--trust-workspace"], project, stdin="/mcp disable srv\n")
    assert done.returncode == 0, done.stderr
    assert "Disabled srv in this project." in done.stdout
    assert json.loads(config.read_text())["projects"][key]["disabledMcpServers"] == ["srv"]

    theirs = run_claude_code(["-p", "hi", "--output-format", "stream-json", "--verbose"],
                             project, base_url=server.url)
    init = ndjson(theirs.stdout)[0]
    assert {"name": "srv", "status": "disabled"}.items() <= init["mcp_servers"][0].items()
    ours = run_cli(["-p", "hi", "--output-format", "stream-json", "--verbose"], project)
    assert ndjson(ours.stdout)[0]["mcp_servers"] == [{"name": "srv", "status": "disabled"}]
