"""A real MCP server for the tests, written with the `mcp` SDK.

    python demo_server.py NAME                 serve over stdio
    python demo_server.py NAME --http PORT     serve streamable HTTP on 127.0.0.1:PORT/mcp
    python demo_server.py NAME --http PORT --sse   the older SSE transport on :PORT/sse

Tools: echo (read-only), danger (destructive, writes a marker file), crash (the process exits in
the middle of the call), fail (returns isError), image (one PNG block), big (long text), whoami
(the Authorization header it received over HTTP), env (an environment variable's value),
pid (the process id), sleep (waits), grow (adds the tool `late`, removes `shrink`, and tells
the client its tool list changed; also adds the prompt `summarize`), shrink, ask (asks the user for a name and an age through
elicitation and echoes the answer).
Resource: memo://notes (text). Prompt: review (arguments: file, required; focus, optional).
"""

from __future__ import annotations

import base64
import os
import sys
from pathlib import Path
from typing import Annotated

from mcp.server.mcpserver import (
    AcceptedElicitation,
    Context,
    Elicit,
    ElicitationResult,
    MCPServer,
    Resolve,
)
from mcp.server.mcpserver.prompts import Prompt
from mcp.types import ToolAnnotations
from pydantic import BaseModel

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


@server.tool()
def shrink() -> str:
    """Removed by grow."""
    return "still here"


@server.tool()
async def grow(ctx: Context) -> str:
    """Add the tool `late` and the prompt `summarize`, remove `shrink`, and send
    tools/list_changed and prompts/list_changed."""

    def late(word: str) -> str:
        """A tool that arrived mid-session."""
        return f"late: {word}"

    def summarize(topic: str) -> str:
        """Summarize a topic (a prompt that arrived mid-session)."""
        return f"Summarize {topic} in one line."

    server.add_tool(late)
    server.remove_tool("shrink")
    server.add_prompt(Prompt.from_function(summarize))
    await ctx.notify_tools_changed()
    await ctx.notify_prompts_changed()
    return "grown"


class Person(BaseModel):
    name: str
    age: int = 30


def who_is_asking() -> Elicit[Person]:
    return Elicit("Who are you?", Person)


@server.tool()
async def ask(answer: Annotated[ElicitationResult[Person], Resolve(who_is_asking)]) -> str:
    """Ask the user who they are (elicitation, in whichever way the protocol version allows)
    and say what came back."""
    if isinstance(answer, AcceptedElicitation):
        return f"accept: {answer.data.name} ({answer.data.age})"
    return answer.action


@server.prompt()
def review(file: str, focus: str = "everything") -> str:
    """Review one file."""
    return f"Please review {file}, focusing on {focus}."


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
