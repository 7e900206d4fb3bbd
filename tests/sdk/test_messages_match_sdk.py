"""Our TypedDicts of the Agent SDK's pipe messages (claude_harness/frontends/sdk/messages.py) against the
Python SDK's own (claude_agent_sdk.types, installed by the test extra): a key we spell otherwise
than the SDK, or one the SDK requires that we do not declare, is a line the program misreads.

pyright checks our code against messages.py; this checks messages.py against the SDK."""

from __future__ import annotations

from typing import Any

import claude_agent_sdk.types as sdk
import pytest
from typing_extensions import is_typeddict

from claude_harness.frontends.sdk import messages

# keys the Python SDK does not type: the TypeScript SDK sends them, or they are Claude Code's
OURS_ONLY = {
    "SDKControlInitializeRequest": {"systemPrompt", "appendSystemPrompt", "jsonSchema",
                                    "sdkMcpServers"},
    "SDKControlRewindFilesRequest": {"dry_run"},
    "ControlErrorResponse": {"error_code"},
}
# keys the SDK's type requires but its code reads with .get (absent reads as None)
NOT_SENT = {"SDKControlPermissionRequest": {"blocked_path"}}

SHARED = sorted(name for name, value in vars(messages).items()
                if is_typeddict(value) and is_typeddict(getattr(sdk, name, None)))


def _keys(typed: Any) -> set[str]:
    return set(typed.__required_keys__) | set(typed.__optional_keys__)


def test_the_control_protocol_is_compared_under_the_sdks_names() -> None:
    assert {"SDKControlRequest", "SDKControlResponse", "ControlResponse", "ControlErrorResponse",
            "SDKControlInitializeRequest", "SDKControlPermissionRequest",
            "SDKHookCallbackRequest", "SDKControlMcpMessageRequest",
            "SDKControlSetPermissionModeRequest", "SDKControlRewindFilesRequest",
            "SDKControlMcpToggleRequest", "SDKControlStopTaskRequest", "McpStatusResponse",
            "McpServerStatus", "ContextUsageResponse"} <= set(SHARED)


@pytest.mark.parametrize("name", SHARED)
def test_every_key_we_declare_is_spelt_as_the_sdk_spells_it(name: str) -> None:
    ours, theirs = getattr(messages, name), getattr(sdk, name)
    assert _keys(ours) - _keys(theirs) == OURS_ONLY.get(name, set())


@pytest.mark.parametrize("name", SHARED)
def test_every_key_the_sdk_requires_is_declared(name: str) -> None:
    ours, theirs = getattr(messages, name), getattr(sdk, name)
    assert set(theirs.__required_keys__) - _keys(ours) == NOT_SENT.get(name, set())
