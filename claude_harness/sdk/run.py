"""`run_sdk`: the Agent SDK front end's entry (stream-json in and out, see bridge.py)."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from typing import NoReturn

from claude_harness.options import RunOptions
from claude_harness.sdk.bridge import SdkBridge
from claude_harness.sdk.wire import LineWriter, StdinLines


def run_sdk(opts: RunOptions) -> NoReturn:
    from claude_harness.bootstrap import preload_sdk  # the chosen front end's needs only

    # The API client's import takes a second or more: warm it while initialize is handled.
    threading.Thread(target=preload_sdk, name="sdk-preload", daemon=True).start()

    async def serve() -> int:
        bridge = SdkBridge(opts, StdinLines(sys.stdin.buffer), LineWriter(sys.stdout),
                           sys.stderr)
        return await bridge.run()

    try:
        code = asyncio.run(serve())
    except KeyboardInterrupt:
        code = 130
    # Everything is closed (transcript, servers, API client): skip the interpreter's teardown
    # of a few hundred modules, a second the program waiting on our exit would lose.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
