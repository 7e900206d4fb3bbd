"""The client under test for the MCP conformance suite (`@modelcontextprotocol/conformance`).

    conformance client --command "python tests/mcp/conformance_client.py" --scenario NAME

The suite starts a test server for the scenario, appends its URL to the command and names the
scenario in MCP_CONFORMANCE_SCENARIO. This program is our real client end to end: an
`McpManager` with one http server, its tools called through the real tool pipeline, the
elicitation router with a user who submits forms as shown (defaults in place), and, for the
auth scenarios, `McpManager.authenticate` with a stand-in browser that follows the
authorization URL to our own redirect listener (the suite's authorization server approves at
once, as a user clicking "allow" would).
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from claude_harness.mcp import McpManager  # noqa: E402
from claude_harness.mcp.config import McpServerConfig  # noqa: E402
from claude_harness.mcp.elicitation import ElicitationAnswer  # noqa: E402
from claude_harness.tools.registry import assemble_tool_pool  # noqa: E402
from tests.mcp.support import call, make_ctx, permission, text_of  # noqa: E402

ARGUMENTS: dict[str, dict[str, Any]] = {"add_numbers": {"a": 5, "b": 3}}


class SubmitAsShown:
    """The user presses submit without typing: every default stays."""

    async def elicit(self, request: Any) -> ElicitationAnswer:
        return ElicitationAnswer.accept({})


async def browse(url: str) -> None:
    """A browser: open the authorization URL and follow its redirects to our listener."""

    def fetch() -> None:
        with urllib.request.urlopen(url, timeout=20) as response:  # noqa: S310 - test server
            response.read()

    await asyncio.to_thread(fetch)


async def run(url: str, scenario: str) -> int:
    cwd = Path(tempfile.mkdtemp(prefix="mcp-conformance-"))
    os.environ.setdefault("CLAUDE_HARNESS_DATA_DIR", str(cwd / "data"))
    server = McpServerConfig(name="conformance", transport="http", url=url, scope="cli")
    manager = McpManager([server], cwd=cwd, startup_timeout=20)
    manager.elicitation.front_end = SubmitAsShown()
    manager.start()
    try:
        await manager.wait_ready(25)
        status = manager.status()[0]
        if status.state == "needs-auth":
            print(f"needs-auth: {status.error}; logging in", flush=True)
            await manager.authenticate("conformance", browse, timeout=20)
            status = manager.status()[0]
        if status.state != "connected":
            print(f"not connected: {status.state}: {status.error}", file=sys.stderr)
            return 1
        perm = permission(cwd, allow=("mcp__conformance",))
        ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
        for tool in manager.get("conformance").tools:  # type: ignore[union-attr]
            outcome = await call(ctx, f"mcp__conformance__{tool.name}",
                                 ARGUMENTS.get(tool.name, {}))
            print(f"{tool.name}: {'error: ' if outcome.is_error else ''}{text_of(outcome)}",
                  flush=True)
        return 0
    finally:
        await manager.close()


def main() -> int:
    url = sys.argv[-1]
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    return asyncio.run(run(url, scenario))


if __name__ == "__main__":
    sys.exit(main())
