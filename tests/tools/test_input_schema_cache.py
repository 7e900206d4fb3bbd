"""A tool's input schema is generated once per model class, and each caller gets its own copy:
what one request does to its schema never reaches the next."""

from __future__ import annotations

from pydantic import BaseModel, Field

from claude_harness.protocol.input_schema import model_input_schema
from claude_harness.tools.registry import get_all_base_tools


class _Input(BaseModel):
    path: str = Field(description="where")
    limit: int | None = None


def test_schema_is_the_api_shape_and_a_fresh_copy_each_time() -> None:
    first = model_input_schema(_Input)
    assert first["type"] == "object" and first["additionalProperties"] is False
    assert "title" not in first and "title" not in first["properties"]["path"]
    first["properties"]["path"]["description"] = "changed"
    first["required"].append("limit")
    second = model_input_schema(_Input)
    assert second["properties"]["path"]["description"] == "where"
    assert second["required"] == ["path"]


def test_built_in_tools_send_what_pydantic_generates() -> None:
    for tool in get_all_base_tools():
        if tool.json_schema is not None:
            continue
        expected = tool.input_model.model_json_schema(by_alias=True)
        got = tool.input_schema()
        assert set(got["properties"]) == set(expected.get("properties", {})), tool.name
        assert got.get("required") == expected.get("required"), tool.name
        assert tool.input_schema() == got and tool.input_schema() is not got
