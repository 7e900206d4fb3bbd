"""TodoWrite: schema, per-agent state, result data and text, permission stance."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from claude_harness.tools.todo_write import TOOL, get_todos
from claude_harness.tools.todo_write.state import clear_todos


@pytest.fixture(autouse=True)
def _fresh_state():
    for agent in (None, "agent-1"):
        clear_todos(agent)
    yield
    for agent in (None, "agent-1"):
        clear_todos(agent)


def todo(content: str, status: str) -> dict[str, Any]:
    return {"content": content, "status": status, "activeForm": f"Doing {content}"}


async def write(ctx, todos: list[dict[str, Any]]):
    inp = TOOL.input_model.model_validate({"todos": todos})
    return await TOOL.call(inp, ctx, lambda _: None)


async def test_write_replaces_list_and_reports_old_one(ctx):
    first = [todo("a", "in_progress"), todo("b", "pending")]
    result = await write(ctx, first)
    assert result.data == {"todos": first, "old_todos": []}
    assert get_todos() == first
    second = [todo("a", "completed"), todo("b", "in_progress")]
    result = await write(ctx, second)
    assert result.data["old_todos"] == first
    assert result.data["todos"] == second
    assert get_todos() == second
    assert get_todos("main") == second


async def test_rendered_text_confirms_update(ctx):
    result = await write(ctx, [todo("a", "in_progress")])
    text = TOOL.render_result(result.data)
    assert text.startswith("Todo list updated")
    done = await write(ctx, [todo("a", "completed")])
    assert "every task is completed" in TOOL.render_result(done.data)


async def test_each_agent_has_its_own_list(ctx):
    await write(ctx, [todo("main task", "pending")])
    sub = replace(ctx, agent_id="agent-1")
    await write(sub, [todo("sub task", "in_progress")])
    assert [t["content"] for t in get_todos()] == ["main task"]
    assert [t["content"] for t in get_todos("agent-1")] == ["sub task"]


async def test_get_todos_returns_a_copy(ctx):
    await write(ctx, [todo("a", "pending")])
    got = get_todos()
    got[0]["status"] = "completed"
    assert get_todos()[0]["status"] == "pending"


@pytest.mark.parametrize(
    "bad",
    [
        [{"content": "a", "status": "done", "activeForm": "A"}],  # unknown status
        [{"content": "a", "status": "pending"}],  # activeForm missing
        [{"content": "", "status": "pending", "activeForm": "A"}],  # empty content
        [{"content": "a", "status": "pending", "activeForm": "A", "priority": "high"}],
    ],
)
async def test_bad_items_are_refused_and_change_nothing(ctx, bad):
    await write(ctx, [todo("keep", "pending")])
    with pytest.raises(ValueError):
        TOOL.input_model.model_validate({"todos": bad})
    assert [t["content"] for t in get_todos()] == ["keep"]


async def test_schema_and_permission_stance(ctx):
    schema = TOOL.input_schema()
    assert schema["required"] == ["todos"] and schema["additionalProperties"] is False
    item = schema["$defs"]["TodoItem"]
    assert set(item["properties"]) == {"content", "status", "activeForm"}
    assert item["properties"]["status"]["enum"] == ["pending", "in_progress", "completed"]
    inp = TOOL.input_model.model_validate({"todos": []})
    assert not TOOL.is_concurrency_safe(inp)
    decision = await TOOL.check_permissions(inp, ctx)
    assert decision.behavior == "allow"
