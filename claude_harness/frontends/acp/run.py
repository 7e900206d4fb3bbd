"""`run_acp`: serve ACP on stdin/stdout until the client closes stdin, then close every
session (transcripts written, MCP servers and commands stopped) and exit."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import threading
from typing import NoReturn

from claude_harness.session.options import RunOptions

SIGNAL_GRACE_SECONDS = 3.0  # after a signal, the most the running turns may take to report


def _stop_on_signals(agent: object) -> object:
    """SIGTERM, SIGHUP, SIGINT (an editor closing): every command dies at once (shutdown.py),
    each running prompt ends as cancelled, and the process exits 143/129/130 once they have
    reported, or after SIGNAL_GRACE_SECONDS."""
    from claude_harness.frontends.shared.shutdown import ShutdownSignals, exit_code_for, stop_reason
    from claude_harness.protocol import ops

    loop = asyncio.get_running_loop()
    sessions = getattr(agent, "sessions", {})

    async def report_then_leave(code: int) -> None:
        deadline = loop.time() + SIGNAL_GRACE_SECONDS
        while any(r.turn is not None for r in sessions.values()) and loop.time() < deadline:
            await asyncio.sleep(0.02)
        sys.stderr.flush()
        os._exit(code)

    def stop(sig: signal.Signals) -> None:
        for runner in sessions.values():
            runner.session.submit(ops.Interrupt(stop_reason(sig)))
        loop.create_task(report_then_leave(exit_code_for(sig)))

    signals = ShutdownSignals(stop)
    signals.install(loop)
    return signals


def run_acp(opts: RunOptions) -> NoReturn:
    from acp.agent.connection import AgentSideConnection  # the chosen front end only

    from claude_harness.frontends.acp.agent import HarnessAgent
    from claude_harness.frontends.acp.transport import StdioTransport
    from claude_harness.session.bootstrap import preload_transport

    # Load the HTTP client while the ACP client initializes.
    threading.Thread(target=preload_transport, name="transport-preload", daemon=True).start()
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="claude-harness acp: %(message)s")

    async def serve() -> None:
        agent = HarnessAgent(opts)
        transport = await StdioTransport.open()
        # acp's `Agent` Protocol lists every method; its router answers the ones an agent
        # lacks (list/fork/resume/close_session, ext_method) with method_not_found
        connection = AgentSideConnection(agent, transport,  # pyright: ignore[reportArgumentType]
                                         listening=False)
        _stop_on_signals(agent)
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
