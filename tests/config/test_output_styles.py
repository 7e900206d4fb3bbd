"""Output styles: Claude Code's built-ins, the user's and the project's own files, and a change
in the middle of a session that leaves the cached prompt prefix intact (checked against the
scripted API server's prompt-cache accounting, through the real SDK)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anthropic

from claude_harness.config.output_styles import (
    load_output_styles,
    style_change_message,
)
from claude_harness.testing import MockApiServer


def write_style(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.md"
    path.write_text(text)
    return path


def test_the_built_ins_are_claude_codes(tmp_path: Path) -> None:
    catalog = load_output_styles(tmp_path, tmp_path / "home")
    assert [s.name for s in catalog.styles] == ["default", "Proactive", "Concise", "Explanatory",
                                                "Learning"]
    assert catalog.resolve(None).is_default and catalog.resolve("nope").is_default
    assert catalog.resolve("explanatory").name == "Explanatory"
    assert catalog.find("default").prompt_section() == ""
    assert catalog.find("Learning").prompt_section().startswith("# Output Style: Learning\n")


def test_custom_styles_from_the_user_and_the_project(tmp_path: Path) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    write_style(home / "output-styles", "reviewer",
                "---\ndescription: User reviewer\n---\nReview like a user.\n")
    write_style(home / "output-styles", "pirate", "Talk like a pirate.\n")
    write_style(proj / ".claude" / "output-styles", "reviewer",
                "---\nname: Reviewer\ndescription: Project reviewer\n"
                "keep-coding-instructions: true\n---\nReview like the team does.\n")
    catalog = load_output_styles(proj, home)
    reviewer = catalog.find("REVIEWER")
    assert reviewer.description == "Project reviewer" and reviewer.source == "project"
    assert reviewer.keep_coding_instructions is True
    assert reviewer.prompt_section() == "# Output Style: Reviewer\nReview like the team does.\n"
    pirate = catalog.find("pirate")
    assert pirate.source == "user" and pirate.keep_coding_instructions is False
    assert pirate.description == "Custom style from pirate.md"
    assert [s.name for s in catalog.styles][5:] == ["pirate", "Reviewer"]  # after the built-ins


def test_a_broken_style_file_is_reported_not_fatal(tmp_path: Path) -> None:
    folder = tmp_path / "proj" / ".claude" / "output-styles"
    write_style(folder, "ok", "Fine.\n")
    (folder / "bad.md").write_bytes(b"\xff\xfe not utf-8")
    catalog = load_output_styles(tmp_path / "proj", tmp_path / "home")
    assert catalog.find("ok") is not None and catalog.find("bad") is None
    assert any("bad.md" in p for p in catalog.problems)


async def test_switching_style_mid_session_keeps_the_cached_prefix(tmp_path: Path) -> None:
    """Turn 1 caches system + tools + history; the switch is appended as a system message, so
    turn 2 reads all of that back from the cache and writes only what is new."""
    catalog = load_output_styles(tmp_path, tmp_path / "home")
    system = [{"type": "text", "text": "You are a coding agent. " * 200,
               "cache_control": {"type": "ephemeral"}}]
    tools = [{"name": "Read", "description": "Read a file. " * 50,
              "input_schema": {"type": "object", "properties": {}}}]
    history: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": "explain the parser " * 50,
                                      "cache_control": {"type": "ephemeral"}}]}]
    with MockApiServer({"turns": ["first answer", "second answer"]}) as server:
        client = anthropic.AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
        try:
            first = await client.messages.create(model="m", max_tokens=50, system=system,
                                                 tools=tools, messages=history)
            history += [{"role": "assistant", "content": "first answer"},
                        style_change_message(catalog.find("Explanatory")),
                        {"role": "user", "content": [{"type": "text", "text": "go on",
                                                      "cache_control": {"type": "ephemeral"}}]}]
            second = await client.messages.create(model="m", max_tokens=50, system=system,
                                                  tools=tools, messages=history)
        finally:
            await client.close()
    assert first.usage.cache_creation_input_tokens > 1000
    assert second.usage.cache_read_input_tokens == first.usage.cache_creation_input_tokens
    sent = server.requests[1]
    assert sent["system"] == server.requests[0]["system"]  # the system prompt did not change
    switch = sent["messages"][2]
    assert switch["role"] == "system"
    assert switch["content"][0]["text"].startswith("# Output Style: Explanatory\n")
    back = style_change_message(catalog.find("default"))
    assert "back to the default" in back["content"][0]["text"]
