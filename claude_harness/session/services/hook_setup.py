"""The session's HookRunner: the hooks of every settings file and plugin, the folder where
SessionStart and Setup hooks write CLAUDE_ENV_FILE exports, and the model calls `prompt` and
`agent` hooks need (a small-model side request; a read-only sub-agent).

Both evaluators run beside the conversation and are counted in the session's totals; the
sub-agent of an `agent` hook may only read (Read, Grep, Glob) and runs no hooks itself, so a
hook cannot start itself again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.agent.side_query import side_query
from claude_harness.api.client import ApiClient
from claude_harness.api.models import small_fast_model
from claude_harness.api.request_params import side_request_params
from claude_harness.hooks.config import HookConfig
from claude_harness.hooks.env_file import session_env_dir
from claude_harness.hooks.kinds import MODEL_HOOK_SYSTEM_PROMPT
from claude_harness.hooks.runner import HookRunner
from claude_harness.protocol.context import SubAgentSpec, ToolUseContext

if TYPE_CHECKING:
    from claude_harness.session.session_config import SessionConfig
    from claude_harness.session.state import SessionState

READ_ONLY_TOOLS = ("Read", "Grep", "Glob")
AGENT_HOOK_MAX_TURNS = 10


def prompt_request(prompt: str, model: str | None) -> dict[str, Any]:
    """The side request a `prompt` hook makes (the small fast model unless it names one)."""
    chosen = model or small_fast_model()
    params = side_request_params(chosen)
    return {"model": chosen, "max_tokens": params.pop("max_tokens"),
            "system": [{"type": "text", "text": MODEL_HOOK_SYSTEM_PROMPT}],
            "messages": [{"role": "user", "content": [{"type": "text", "text": prompt}]}],
            **params}


def prompt_evaluator(api: ApiClient) -> Callable[[str, str | None, float], Awaitable[str]]:
    async def evaluate(prompt: str, model: str | None, _timeout: float) -> str:
        result = await side_query(api, prompt_request(prompt, model), purpose="hook")
        return result.text

    return evaluate


AgentRunner = Callable[[SubAgentSpec, ToolUseContext], Awaitable[Any]]


def agent_evaluator(context: Callable[[], ToolUseContext],
                    run: AgentRunner) -> Callable[[str, str | None, float], Awaitable[str]]:
    """An `agent` hook's question, answered by a read-only sub-agent of the session."""
    async def evaluate(prompt: str, model: str | None, _timeout: float) -> str:
        parent = replace(context(), hooks=None)
        tools = tuple(t for t in parent.options.tools if t.name in READ_ONLY_TOOLS)
        spec = SubAgentSpec(prompt, MODEL_HOOK_SYSTEM_PROMPT, tools,
                            model or small_fast_model(), "hook-agent",
                            max_turns=AGENT_HOOK_MAX_TURNS, description="agent hook")
        report = await run(spec, parent)
        return report.final_text

    return evaluate


class HookedSession(Protocol):
    """What the runner reads of its session (the Session has it)."""

    @property
    def config(self) -> SessionConfig: ...
    @property
    def state(self) -> SessionState:
        """Where the session id lives (the Session's `session_id` is a view of it, which a
        Protocol cannot name)."""
        ...
    @property
    def api(self) -> ApiClient: ...
    @property
    def transcript_path(self) -> str: ...
    @property
    def mode(self) -> str: ...


def build_hook_runner(config: HookConfig, session: HookedSession, *, always: bool = False,
                      context: Callable[[], ToolUseContext],
                      run_agent: AgentRunner) -> HookRunner | None:
    """The runner for `session` (None when nothing is configured and `always` is False: an
    agent definition with hooks needs a runner to add them to)."""
    if not (config.entries or config.skipped or always):
        return None
    session_id = session.state.session_id
    return HookRunner(config, project_dir=session.config.cwd, session_id=session_id,
                      transcript_path=session.transcript_path,
                      get_permission_mode=lambda: session.mode,
                      env_dir=session_env_dir(session.config.data_dir, session_id),
                      prompt_evaluator=prompt_evaluator(session.api),
                      agent_evaluator=agent_evaluator(context, run_agent))
