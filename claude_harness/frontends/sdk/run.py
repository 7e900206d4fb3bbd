"""`run_sdk`: the Agent SDK front end's entry (stream-json in and out, see bridge.py)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from typing import NoReturn

from claude_harness.frontends.sdk.bridge import SdkBridge
from claude_harness.frontends.sdk.wire import LineWriter, StdinLines
from claude_harness.frontends.shared.shutdown import ShutdownSignals, exit_code_for, stop_reason
from claude_harness.session.options import RunOptions

SIGNAL_GRACE_SECONDS = 5.0  # after a signal, the most the running turn may take to report


def _stop_on_signals(bridge: SdkBridge) -> ShutdownSignals:
    """SIGTERM, SIGHUP, SIGINT: every command dies at once (shutdown.py), the running turn ends
    with the signal as its error (its result line says so), and the process exits 143/129/130
    as soon as the turn has reported, or after SIGNAL_GRACE_SECONDS."""
    from claude_harness.protocol import ops  # only when a signal comes

    loop = asyncio.get_running_loop()

    def leave(code: int) -> NoReturn:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)

    async def report_then_leave(code: int) -> None:
        deadline = loop.time() + SIGNAL_GRACE_SECONDS
        while bridge.turn is not None and loop.time() < deadline:
            await asyncio.sleep(0.02)
        leave(code)

    def stop(sig: signal.Signals) -> None:
        code = exit_code_for(sig)
        if bridge.session is None:
            leave(code)
        bridge.session.submit(ops.Interrupt(stop_reason(sig)))
        loop.create_task(report_then_leave(code))

    signals = ShutdownSignals(stop)
    signals.install(loop)
    return signals


def run_sdk(opts: RunOptions) -> NoReturn:
    from claude_harness.session.bootstrap import (
        preload_transport,  # the chosen front end's needs only
    )

    # Load the HTTP client while initialize is handled.
    threading.Thread(target=preload_transport, name="transport-preload", daemon=True).start()

    async def serve() -> int:
        bridge = SdkBridge(opts, StdinLines(sys.stdin.buffer), LineWriter(sys.stdout),
                           sys.stderr)
        signals = _stop_on_signals(bridge)
        try:
            return await bridge.run()
        finally:
            signals.uninstall()

    try:
        code = asyncio.run(serve())
    except KeyboardInterrupt:
        code = 130
    # Everything is closed (transcript, servers, API client): skip the interpreter's teardown
    # of a few hundred modules, a second the program waiting on our exit would lose.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
