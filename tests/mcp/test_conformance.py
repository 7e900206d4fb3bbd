"""The MCP conformance suite's client scenarios, run against our client
(`tests/mcp/conformance_client.py`): the suite starts a test server per scenario, drives our
program against it, and judges every request it saw."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.mcp.npm_servers import CONFORMANCE, conformance_node

CLIENT = Path(__file__).with_name("conformance_client.py")

SCENARIOS = [
    "initialize",
    "tools_call",
    "elicitation-sep1034-client-defaults",
    "sse-retry",
    "auth/metadata-default",
]


def run_scenario(scenario: str, workdir: Path) -> tuple[str, list[dict[str, object]]]:
    """The suite's printed summary and the checks it recorded for one scenario."""
    node = conformance_node()
    command = f"{sys.executable} {CLIENT}"
    proc = subprocess.run(
        [node, str(CONFORMANCE), "client", "--command", command, "--scenario", scenario,
         "--timeout", "60000", "--output-dir", str(workdir / "results")],
        cwd=workdir, capture_output=True, text=True, timeout=120, check=False)
    output = proc.stdout + proc.stderr
    checks_files = sorted(workdir.glob("results/**/checks.json"))
    assert checks_files, f"the suite wrote no results for {scenario}:\n{output[-3000:]}"
    return output, json.loads(checks_files[-1].read_text())


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_client_scenario_passes(scenario: str, tmp_path: Path, home: Path) -> None:
    output, checks = run_scenario(scenario, tmp_path)
    failed = [c for c in checks if c.get("status") == "FAILURE"]
    assert not failed, json.dumps(failed, indent=2)[:3000]
    passed = [c for c in checks if c.get("status") == "SUCCESS"]
    assert passed, output[-3000:]
    assert re.search(r"OVERALL: PASSED", output), output[-3000:]
