"""Everyday searching still flows under protective rules, through the real binary,
the scripted server and real ripgrep: a Grep or Glob over the whole project under a `Read`
deny or ask rule runs without a prompt, and what the rules protect never comes back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.support import ndjson, run_cli

SECRET = "SECRET-TOKEN-4711"


def searches(*calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    turns = [{"content": [{"type": "tool_use", "name": name, "input": inp}]}
             for name, inp in calls]
    return {"turns": [*turns, {"content": ["done"]}], "side": []}


def fill(project: Path) -> None:
    (project / ".env").write_text(f"API_KEY={SECRET}\n")
    (project / "config" / "secrets").mkdir(parents=True)
    (project / "config" / "secrets" / "key.pem").write_text(f"-----{SECRET}-----\n")
    (project / "config" / "app.toml").write_text("api_key_name = 'API_KEY'\n")
    (project / "private.txt").write_text(f"diary API_KEY {SECRET}\n")
    (project / "src" / "settings.py").write_text("API_KEY = config.get('API_KEY')\n")


def deny_settings(project: Path) -> None:
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.json").write_text(json.dumps({"permissions": {
        "deny": ["Read(./.env)", "Read(./config/secrets/**)"],
        "ask": ["Read(./private.txt)"]}}))


CALLS = [
    ("Grep", {"pattern": "API_KEY|SECRET", "output_mode": "content"}),
    ("Grep", {"pattern": "SECRET|API_KEY"}),
    ("Grep", {"pattern": "SECRET|API_KEY", "output_mode": "count", "-i": True}),
    ("Grep", {"pattern": "SECRET", "output_mode": "content", "multiline": True, "-C": 2}),
    ("Glob", {"pattern": "**/*"}),
    ("Glob", {"pattern": "**/.env*"}),
]


def tool_texts(proc: Any) -> list[str]:
    return [json.dumps(b["content"]) for e in ndjson(proc.stdout) if e["type"] == "user"
            for b in e["message"]["content"] if b.get("type") == "tool_result"]


def run(project: Path) -> Any:
    proc = run_cli(["-p", "search", "--output-format", "stream-json",
                    "--model", "claude-opus-5-5"], project, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_searches_run_unprompted_and_leave_protected_files_out(project: Path,
                                                               api: Any) -> None:
    fill(project)
    deny_settings(project)
    api(searches(*CALLS))
    proc = run(project)
    assert ndjson(proc.stdout)[-1]["permission_denials"] == []  # nothing asked, nothing denied
    texts = tool_texts(proc)
    assert len(texts) == len(CALLS)
    for text in texts:
        assert SECRET not in text and ".env" not in text and "key.pem" not in text
        assert "private.txt" not in text
    content, files, count, _multiline, listing, dotenv = texts
    assert "settings.py" in content and "config.get" in content
    assert "settings.py" in files and "app.toml" in files
    assert "settings.py" in count
    assert "settings.py" in listing and "app.toml" in listing
    assert "No files found" in dotenv


def test_the_same_searches_show_the_files_without_the_rules(project: Path, api: Any) -> None:
    """The control: the fixture's files are found when no rule protects them."""
    fill(project)
    api(searches(*CALLS))
    texts = tool_texts(run(project))
    assert SECRET in texts[0] and ".env" in texts[1] and "key.pem" in texts[4]
    assert ".env" in texts[5]


def test_a_search_of_the_protected_file_itself_is_still_refused(project: Path,
                                                                api: Any) -> None:
    fill(project)
    deny_settings(project)
    api(searches(("Grep", {"pattern": "SECRET", "path": ".env", "output_mode": "content"}),
                 ("Grep", {"pattern": "SECRET", "path": "config/secrets"}),
                 ("Glob", {"pattern": "*", "path": "config/secrets"})))
    proc = run(project)
    assert len(ndjson(proc.stdout)[-1]["permission_denials"]) == 3
    assert all(SECRET not in t and "key.pem" not in t for t in tool_texts(proc))
