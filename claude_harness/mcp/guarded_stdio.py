"""The stdio transport for MCP servers, with the server started under the process guardian.

The SDK's `stdio_client` starts the server itself, as our child: killed with `kill -9`, the
harness would leave it (and whatever it started: `npx` and its node, a Docker client...)
running. Started by the guardian (guardian/), it dies with the harness like every Bash command.
The rest is what the SDK's transport does: newline-delimited JSON-RPC over the server's stdin
and stdout, its stderr into `errlog`, and at the end, the spec's shutdown (close stdin, a grace
period, then the whole process group is killed), shielded so a cancelled caller leaks nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import anyio
import mcp_types
from mcp.shared.message import SessionMessage

from claude_harness.guardian.spawn import exit_future, kill_group, spawn_piped

EXIT_GRACE_SECONDS = 2.0  # for the server to leave on its own once its stdin is closed
READ_CHUNK = 65_536


def _parse(line: bytes) -> SessionMessage | Exception:
    """One stdout line; a malformed one reaches the session as an error value."""
    try:
        return SessionMessage(mcp_types.jsonrpc_message_adapter.validate_json(line,
                                                                             by_name=False))
    except ValueError as exc:
        return exc


def _executable(command: str, env: Mapping[str, str]) -> str:
    """The guardian starts programs by absolute path: look the command up as a shell would."""
    found = shutil.which(command, path=env.get("PATH"))
    if found is None:
        raise FileNotFoundError(f"{command}: command not found")
    return os.path.abspath(found)


@contextlib.asynccontextmanager
async def guarded_stdio_client(command: str, args: Sequence[str], *, env: Mapping[str, str],
                               cwd: Path, errlog: IO[str]) -> AsyncIterator[tuple[Any, Any]]:
    """Start the server and yield the (read, write) streams `mcp.client.Client` takes."""
    loop = asyncio.get_running_loop()
    process = spawn_piped([_executable(command, env), *args], cwd, env, stdin=True,
                          stderr_fd=errlog.fileno())
    child = process.child
    assert process.stdin is not None
    exited = exit_future(child, loop)
    reader = asyncio.StreamReader(limit=READ_CHUNK)
    out, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                          os.fdopen(process.stdout, "rb", buffering=0))
    into, protocol = await loop.connect_write_pipe(lambda: asyncio.StreamReaderProtocol(
        asyncio.StreamReader()), os.fdopen(process.stdin, "wb", buffering=0))
    stdin = asyncio.StreamWriter(into, protocol, None, loop)
    read_send, read_recv = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_recv = anyio.create_memory_object_stream[SessionMessage](0)

    async def from_server() -> None:
        buffer = b""
        async with read_send:
            while chunk := await reader.read(READ_CHUNK):
                *lines, buffer = (buffer + chunk).split(b"\n")
                for line in lines:
                    if line.strip():
                        await read_send.send(_parse(line))

    async def to_server() -> None:
        async with write_recv:
            async for message in write_recv:
                data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                stdin.write(data.encode() + b"\n")
                await stdin.drain()

    async def pump(work: Any) -> None:
        with contextlib.suppress(OSError, anyio.ClosedResourceError, anyio.BrokenResourceError):
            await work()
        await read_send.aclose()  # the session sees the connection end, never a hang

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(pump, from_server)
        tasks.start_soon(pump, to_server)
        try:
            yield read_recv, write_send
        finally:
            with anyio.CancelScope(shield=True):
                await _stop(child.pid, into, exited)
                out.close()
            tasks.cancel_scope.cancel()


async def _stop(pid: int, stdin: asyncio.BaseTransport, exited: asyncio.Future[int]) -> None:
    """The spec's shutdown: close stdin, let the server leave, then kill its whole group (what
    it started too); the guardian reaps it."""
    stdin.close()
    await asyncio.wait([exited], timeout=EXIT_GRACE_SECONDS)
    kill_group(pid)
    await asyncio.wait([exited], timeout=EXIT_GRACE_SECONDS)
