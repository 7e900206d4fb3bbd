"""Auto-mode classifier against the scripted Messages API server (real HTTP, real SDK)."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_harness.api.client import ApiClient, ApiSettings
from claude_harness.permissions.classifier import classify
from claude_harness.protocol.context import (
    AbortSignal,
    FileStateCache,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.testing.mock_api import MockApiServer
from claude_harness.tools.bash import TOOL as BASH
from tests.permissions.perm_helpers import context


def make_ctx(server: MockApiServer | None, proj: Path, **kw) -> ToolUseContext:
    api = None
    if server is not None:
        api = ApiClient(ApiSettings(api_key="test-key", auth_token=None, base_url=server.url,
                                    max_retries=0))
    return ToolUseContext(
        options=ToolUseOptions(api=api, model="claude-sonnet-5-5"),
        permission=context(proj, mode=kw.pop("mode", "auto"), **kw), abort=AbortSignal(),
        read_file_state=FileStateCache(), shell=ShellState(proj),
        messages=({"role": "user", "content": "run the tests, but never push anything"},),
    )


def bash(command: str):
    return BASH.input_model.model_validate({"command": command})


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    return tmp_path.resolve()


async def test_fast_stage_allows(proj: Path) -> None:
    with MockApiServer(["ALLOW"]) as server:
        d = await classify(BASH, bash("npm test"), make_ctx(server, proj))
        assert d.behavior == "allow" and d.decided_by == "classifier"
        body = server.requests[0]
        assert body["model"] == "claude-haiku-4-5" and "thinking" not in body
        prompt = str(body["messages"])
        assert "npm test" in prompt and "never push anything" in prompt


async def test_unsure_goes_to_the_careful_stage(proj: Path) -> None:
    script = ["UNSURE", {"content": [{"type": "thinking", "thinking": "pushing was forbidden"},
                                     "VERDICT: BLOCK the user said never to push"]}]
    with MockApiServer(script) as server:
        d = await classify(BASH, bash("git push origin main"), make_ctx(server, proj))
        assert d.behavior == "deny" and "never to push" in d.reason
        assert len(server.requests) == 2
        assert server.requests[1]["thinking"]["type"] == "enabled"
        assert server.requests[1]["model"] == "claude-sonnet-5-5"


async def test_unclear_answers_and_errors_fall_back_to_the_prompt(proj: Path) -> None:
    with MockApiServer(["hmm", "no idea"]) as server:
        d = await classify(BASH, bash("make deploy"), make_ctx(server, proj))
        assert d.behavior == "passthrough"
    with MockApiServer([{"content": ["x"], "fault": {"status": 500}}] * 2) as server:
        d = await classify(BASH, bash("make deploy"), make_ctx(server, proj))
        assert d.behavior == "passthrough"


async def test_never_decides_ask_rules_safety_or_other_modes(proj: Path) -> None:
    with MockApiServer(["ALLOW"] * 4) as server:
        ask_rule = make_ctx(server, proj, ask=("Bash(npm publish *)",))
        assert (await classify(BASH, bash("npm publish"), ask_rule)).behavior == "passthrough"
        safety = make_ctx(server, proj)
        assert (await classify(BASH, bash("rm -rf ~"), safety)).behavior == "passthrough"
        default = make_ctx(server, proj, mode="default")
        assert (await classify(BASH, bash("npm test"), default)).behavior == "passthrough"
        read_only = make_ctx(server, proj)
        assert (await classify(BASH, bash("ls"), read_only)).behavior == "passthrough"
        assert server.requests == []
    assert (await classify(BASH, bash("npm test"), make_ctx(None, proj))).behavior == "passthrough"
