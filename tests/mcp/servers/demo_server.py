"""A real MCP server for the tests, written with the `mcp` SDK.

    python demo_server.py NAME                 serve over stdio
    python demo_server.py NAME --http PORT     serve streamable HTTP on 127.0.0.1:PORT/mcp
    python demo_server.py NAME --http PORT --sse   the older SSE transport on :PORT/sse

Tools: echo (read-only), danger (destructive, writes a marker file), crash (the process exits in
the middle of the call), fail (returns isError), image (one PNG block), big (long text), whoami
(the Authorization header it received over HTTP), env (an environment variable's value),
pid (the process id), sleep (waits).
Resource: memo://notes (text).
"""

from __future__ import annotations

import base64
import os
import sys
from pathlib import Path

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations

# A 1x1 transparent PNG.
PNG = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
    )
).decode()

name = sys.argv[1] if len(sys.argv) > 1 else "demo"
server = MCPServer(name, log_level="ERROR")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def echo(text: str, times: int = 1) -> str:
    """Repeat the text."""
    return f"{name}: " + text * times


@server.tool(annotations=ToolAnnotations(destructiveHint=True))
def danger(path: str) -> str:
    """Write a marker file (stands for any destructive action)."""
    Path(path).write_text("touched", encoding="utf-8")
    return f"wrote {path}"


@server.tool()
def crash() -> str:
    """Exit the whole server process in the middle of the call."""
    sys.stderr.write("demo server: crashing on purpose\n")
    sys.stderr.flush()
    os._exit(3)


@server.tool()
def fail(reason: str) -> str:
    """Always fails with the given reason."""
    raise ValueError(reason)


@server.tool()
def image() -> list:
    """Return a tiny PNG and a caption."""
    from mcp.types import ImageContent, TextContent

    return [TextContent(type="text", text="a pixel"),
            ImageContent(type="image", data=PNG, mime_type="image/png")]


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def big(chars: int) -> str:
    """Return `chars` characters of text."""
    return "x" * chars


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def whoami(ctx: Context) -> str:
    """The Authorization header of this request (HTTP only)."""
    headers = ctx.headers or {}
    return headers.get("authorization", "(none)")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def env(var: str) -> str:
    """The value of an environment variable in the server process."""
    return os.environ.get(var, "(unset)")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def pid() -> str:
    """The server's process id."""
    return str(os.getpid())


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
async def sleep(seconds: float) -> str:
    """Wait, then answer (for interrupt tests)."""
    import anyio

    await anyio.sleep(seconds)
    return "slept"


@server.resource("memo://notes", description="Team notes", mime_type="text/plain")
def notes() -> str:
    return f"notes from {name}"


if __name__ == "__main__":
    if "--http" in sys.argv:
        port = int(sys.argv[sys.argv.index("--http") + 1])
        if "--sse" in sys.argv:
            server.run("sse", host="127.0.0.1", port=port)
        else:
            server.run("streamable-http", host="127.0.0.1", port=port)
    else:
        server.run()
