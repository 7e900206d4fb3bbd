"""`run_acp`: serve ACP on stdin/stdout until the client closes stdin, then close every
session (transcripts written, MCP servers and commands stopped) and exit."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from typing import NoReturn

from claude_harness.options import RunOptions


def run_acp(opts: RunOptions) -> NoReturn:
    from acp.agent.connection import AgentSideConnection  # the chosen front end only

    from claude_harness.acp.agent import HarnessAgent
    from claude_harness.acp.transport import StdioTransport
    from claude_harness.bootstrap import preload_sdk

    # The API client's import takes a second: warm it while the client initializes.
    threading.Thread(target=preload_sdk, name="sdk-preload", daemon=True).start()
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="claude-harness acp: %(message)s")

    async def serve() -> None:
        agent = HarnessAgent(opts)
        transport = await StdioTransport.open()
        connection = AgentSideConnection(agent, transport, listening=False)
        try:
            await connection.listen()
        finally:
            await agent.close_all()
            await connection.close()

    code = 0
    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        code = 130
    # Everything is closed: skip the interpreter's teardown of a few hundred modules.
    sys.stderr.flush()
    os._exit(code)
