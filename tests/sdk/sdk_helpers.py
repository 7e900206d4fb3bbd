"""Helpers shared by the Agent SDK programs (a unique module name: test dirs have no
__init__)."""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MODEL = "claude-sonnet-5-5"


@dataclass(frozen=True)
class Cli:
    """Which program the SDK starts: `ours` or `claude-code`, and its path."""

    name: str
    path: str


def our_cli() -> str:
    """Our binary: `claude-harness` beside this venv's python (or on PATH)."""
    beside = Path(sys.executable).with_name("claude-harness")
    return str(beside) if beside.exists() else (shutil.which("claude-harness") or str(beside))


def options(cli: Cli, project: Path, **kw: Any) -> Any:
    """ClaudeAgentOptions pointed at `cli`, in `project`, with a model both CLIs know."""
    from claude_agent_sdk import ClaudeAgentOptions

    kw.setdefault("model", MODEL)
    return ClaudeAgentOptions(cli_path=cli.path, cwd=str(project), **kw)


def main_requests(server: Any) -> list[dict[str, Any]]:
    """The conversation's requests (those offering tools), in order."""
    return [b for b in server.requests if isinstance(b, dict) and b.get("tools")]


def blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    """Every tool_result block the request carries."""
    return [b for m in request["messages"] if m["role"] == "user" for b in blocks(m)
            if b.get("type") == "tool_result"]


def result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(b.get("text", "") for b in content or [] if isinstance(b, dict))


def conversation_text(request: dict[str, Any]) -> str:
    """All text of the request's messages, for 'the history holds X' checks."""
    return json.dumps(request["messages"], ensure_ascii=False)


def tool_use(name: str, tool_input: dict[str, Any], tool_id: str) -> dict[str, Any]:
    """A scripted turn that calls one tool."""
    return {"content": [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}]}
