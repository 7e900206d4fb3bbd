"""One history with Claude Code: each program resumes the other's sessions, and real Claude Code
transcripts (public ones, and ones Claude Code 2.1.332 writes here) resume whole: every call with
its result, in call order, as the scripted server receives them after `-r ID` / `-c` (its
validation enforces the API's rules, so a call left unanswered fails the run).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from claude_harness.session.store.resume import load_session, read_entries
from claude_harness.session.store.titles import summarize
from claude_harness.session.store.transcript import list_sessions, project_dir_name
from claude_harness.testing.mock_api import MockApiServer
from claude_harness.testing.script import sign_thinking
from tests.cc_reference import needs_claude_code, run_claude_code

FIXTURES = Path(__file__).parents[1] / "fixtures" / "cc_transcripts"
PUBLIC = ["spotter-short.jsonl", "spotter-tool-heavy.jsonl",
          "reliability-coverage-test-fix.jsonl"]
SIDE = ["a title"] * 6  # Claude Code's requests that offer no tools (titles, summaries)


@pytest.fixture
def project(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "proj"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.delenv("CLAUDE_HARNESS_TRANSCRIPTS_DIR", raising=False)
    return folder.resolve()


def ours(args: list[str], cwd: Path, server: MockApiServer) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "test-key"}
    done = subprocess.run([sys.executable, "-m", "claude_harness", *args], cwd=cwd, env=env,
                          input="", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def claude_code(args: list[str], cwd: Path, server: MockApiServer) -> str:
    done = run_claude_code(args, cwd, base_url=server.url)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def sent_conversation(server: MockApiServer) -> list[dict[str, Any]]:
    """The messages of the last main-loop request (one that offers tools)."""
    bodies = [b for b in server.requests if isinstance(b, dict) and b.get("tools")]
    assert bodies, "no main-loop request reached the server"
    return bodies[-1]["messages"]


def all_text(messages: list[dict[str, Any]]) -> str:
    return json.dumps(messages, ensure_ascii=False)


def calls_and_answers(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(tool_use id, the id the next user message answers at the same place), for every call."""
    pairs = []
    for index, message in enumerate(messages):
        if message["role"] != "assistant" or not isinstance(message["content"], list):
            continue
        uses = [b["id"] for b in message["content"] if b.get("type") == "tool_use"]
        if not uses:
            continue
        answer = messages[index + 1]["content"]
        results = [b.get("tool_use_id") for b in answer if b.get("type") == "tool_result"]
        pairs += list(zip(uses, results + [""] * len(uses), strict=False))
    return pairs


def session_folder(home: Path, cwd: Path) -> Path:
    return home / ".claude" / "projects" / project_dir_name(cwd)


# -- where the transcripts live ----------------------------------------------------------------


@needs_claude_code
@pytest.mark.parametrize("name", ["with space_and.dots", "déjà-" + "x" * 200 + "-🙂"])
def test_the_folder_key_is_the_one_claude_code_derives(name: str, project: Path,
                                                       home: Path) -> None:
    """Punctuation, a non-ASCII letter, an emoji (two UTF-16 units) and a path over 200 units
    (cut, with a hash of the path): Claude Code's own folder is the one we compute."""
    folder = project / name
    folder.mkdir()
    with MockApiServer({"turns": ["hello"], "side": SIDE}) as server:
        claude_code(["-p", "hi"], folder, server)
    made = [p.name for p in (home / ".claude" / "projects").iterdir()]
    assert made == [project_dir_name(folder.resolve())]


@needs_claude_code
def test_claude_code_continues_our_session(project: Path, home: Path) -> None:
    with MockApiServer({"turns": ["Noted: PINEAPPLE.", "You said PINEAPPLE."],
                        "side": SIDE}) as server:
        first = json.loads(ours(["-p", "remember PINEAPPLE", "--output-format", "json"],
                                project, server).stdout)
        assert (session_folder(home, project) / f"{first['session_id']}.jsonl").is_file()
        assert "You said PINEAPPLE." in claude_code(["-p", "-c", "which word?"], project, server)
        sent = all_text(sent_conversation(server))
    assert "remember PINEAPPLE" in sent and "Noted: PINEAPPLE." in sent and "which word?" in sent


@needs_claude_code
def test_we_continue_claude_codes_session_with_c_r_and_the_picker(project: Path,
                                                                  home: Path) -> None:
    from claude_harness.frontends.plain.resume import pick_session

    with MockApiServer({"turns": ["Noted: MANGO.", "You said MANGO.", "Still MANGO."],
                        "side": SIDE}) as server:
        claude_code(["-p", "remember MANGO"], project, server)
        (cc_path,) = session_folder(home, project).glob("*.jsonl")
        picked = pick_session(home / "data", project, io.StringIO(), lambda: "1")
        assert picked == cc_path.stem
        done = json.loads(ours(["-p", "-c", "which word?", "--output-format", "json"],
                               project, server).stdout)
        assert done["session_id"] == cc_path.stem and done["result"] == "You said MANGO."
        sent = all_text(sent_conversation(server))
        assert "remember MANGO" in sent and "Noted: MANGO." in sent
        ours(["-p", "-r", cc_path.stem, "and now?"], project, server)
        sent = all_text(sent_conversation(server))
    assert "which word?" in sent and "You said MANGO." in sent and "and now?" in sent


def test_transcripts_written_before_are_found_and_move_to_claude_codes_folder(
        project: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A transcript under the data dir (where this program kept them before) is listed, and
    resuming it with -c moves it, with its checkpoints, where Claude Code looks; it goes on
    there under the same id."""
    monkeypatch.setenv("CLAUDE_HARNESS_TRANSCRIPTS_DIR", str(home / "data"))
    with MockApiServer({"turns": ["Noted: KIWI.", "You said KIWI."]}) as server:
        old = json.loads(ours(["-p", "remember KIWI", "--output-format", "json"], project,
                              server).stdout)
        (old_path,) = (home / "data" / "projects").glob(f"*/{old['session_id']}.jsonl")
        monkeypatch.delenv("CLAUDE_HARNESS_TRANSCRIPTS_DIR")
        roots = [home / ".claude", home / "data"]
        assert [p.stem for p in list_sessions(roots, project)] == [old["session_id"]]
        again = json.loads(ours(["-p", "-c", "which?", "--output-format", "json"], project,
                                server).stdout)
        sent = all_text(sent_conversation(server))
    moved = session_folder(home, project) / old_path.name
    assert again["session_id"] == old["session_id"] and "remember KIWI" in sent
    assert not old_path.exists() and moved.is_file()
    assert (moved.with_suffix("") / "checkpoints").is_dir()
    assert [e["message"]["role"] for e in read_entries(moved) if "message" in e] == [
        "user", "assistant", "user", "assistant"]


@needs_claude_code
def test_a_separate_store_keeps_our_sessions_apart(project: Path, home: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """CLAUDE_HARNESS_TRANSCRIPTS_DIR: ours live there, Claude Code's -c does not see them."""
    monkeypatch.setenv("CLAUDE_HARNESS_TRANSCRIPTS_DIR", str(home / "ours"))
    with MockApiServer({"turns": ["Noted: LIME.", "I know of nothing earlier."],
                        "side": SIDE}) as server:
        ours(["-p", "remember LIME"], project, server)
        assert list((home / "ours" / "projects").glob("*/*.jsonl"))
        assert not session_folder(home, project).exists()
        claude_code(["-p", "-c", "which word?"], project, server)  # nothing to continue: new
        sent = all_text(sent_conversation(server))
    assert "which word?" in sent and "remember LIME" not in sent


# -- real transcripts resume whole --------------------------------------------------------------


def install(fixture: Path, home: Path, cwd: Path) -> str:
    """Copy a Claude Code transcript where Claude Code keeps this folder's sessions; thinking
    is re-signed for the scripted server (it can only verify its own signatures)."""
    lines = []
    for line in fixture.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        content = (entry.get("message") or {}).get("content")
        for block in content if isinstance(content, list) else ():
            if block.get("type") == "thinking":
                block["signature"] = sign_thinking(block["thinking"])
        lines.append(json.dumps(entry, ensure_ascii=False))
    session_id = next(json.loads(line)["sessionId"] for line in lines
                      if "sessionId" in json.loads(line))
    folder = session_folder(home, cwd)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{session_id}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return session_id


def calls_in_file(path: Path) -> tuple[list[str], dict[str, Any], int]:
    """Every call of the main conversation in file order, each call's result, and the number
    of thinking blocks: what the file holds, read without the resume code."""
    calls: list[str] = []
    results: dict[str, Any] = {}
    thinking = 0
    for entry in read_entries(path):
        content = (entry.get("message") or {}).get("content")
        if entry.get("isSidechain") or not isinstance(content, list):
            continue
        for block in content:
            if block.get("type") == "tool_use" and block["id"] not in calls:
                calls.append(block["id"])
            elif block.get("type") == "tool_result":
                results.setdefault(block["tool_use_id"], block.get("content"))
            elif block.get("type") == "thinking":
                thinking += 1
    return calls, results, thinking


@pytest.mark.parametrize("name", PUBLIC)
def test_a_public_claude_code_transcript_resumes_with_every_call_answered(
        name: str, project: Path, home: Path) -> None:
    session_id = install(FIXTURES / name, home, project)
    calls, results, thinking = calls_in_file(session_folder(home, project) /
                                             f"{session_id}.jsonl")
    with MockApiServer({"turns": ["Carrying on."]}) as server:
        ours(["-p", "-r", session_id, "carry on"], project, server)
        sent = sent_conversation(server)
    pairs = calls_and_answers(sent)
    assert [call for call, _ in pairs] == calls  # every call, in the order they were made
    assert all(call == answer for call, answer in pairs)  # each answered, in call order
    answers = {b["tool_use_id"]: b.get("content") for m in sent if m["role"] == "user"
               and isinstance(m["content"], list) for b in m["content"]
               if b.get("type") == "tool_result"}
    assert {c: answers[c] for c in calls if c in results} == {c: results[c] for c in calls
                                                                if c in results}
    assert sum(1 for m in sent if m["role"] == "assistant" for b in m["content"]
               if b.get("type") == "thinking") == thinking
    assert load_session(session_folder(home, project) / f"{session_id}.jsonl").warnings == []


def test_inline_sidechain_entries_stay_out_of_the_main_conversation(tmp_path: Path) -> None:
    """Older Claude Code wrote a sub-agent's entries into the session's own file, marked
    `isSidechain`: resume leaves them out and never continues from one."""
    main = (FIXTURES / "spotter-short.jsonl").read_text().splitlines()
    agent = (FIXTURES / "spotter-sidechain-compact-agent.jsonl").read_text().splitlines()
    alone, mixed = tmp_path / "alone.jsonl", tmp_path / "mixed.jsonl"
    alone.write_text("\n".join(main) + "\n")
    mixed.write_text("\n".join(main[:8] + agent[:3] + main[8:] + agent[3:]) + "\n")
    assert load_session(mixed).messages == load_session(alone).messages
    assert load_session(mixed).leaf_uuid == load_session(alone).leaf_uuid
    own = load_session(FIXTURES / "spotter-sidechain-compact-agent.jsonl")
    assert own.messages[-1]["role"] == "assistant" and "summary" in all_text(own.messages)


@needs_claude_code
def test_claude_codes_parallel_batch_of_three_reads_resumes_whole(project: Path,
                                                                  home: Path) -> None:
    for name in "abc":
        (project / f"{name}.txt").write_text(f"contents of {name}\n")
    batch = [{"type": "thinking", "thinking": "Three files to read at once."},
             {"type": "text", "text": "Reading them."}]
    batch += [{"type": "tool_use", "id": f"toolu_read_{n}", "name": "Read",
               "input": {"file_path": str(project / f"{n}.txt")}} for n in "abc"]
    with MockApiServer({"turns": [{"content": batch}, "Read all three.", "Carrying on."],
                        "side": SIDE}) as server:
        claude_code(["-p", "read a, b and c", "--permission-mode", "bypassPermissions"],
                    project, server)
        (path,) = session_folder(home, project).glob("*.jsonl")
        ours(["-p", "-r", path.stem, "carry on"], project, server)
        sent = sent_conversation(server)
    (asked,) = [m for m in sent if m["role"] == "assistant" and any(
        b.get("type") == "tool_use" for b in m["content"])]
    assert [b["type"] for b in asked["content"]] == ["thinking", "text", "tool_use",
                                                     "tool_use", "tool_use"]
    assert calls_and_answers(sent) == [(f"toolu_read_{n}",) * 2 for n in "abc"]
    answer = sent[sent.index(asked) + 1]
    assert all(f"contents of {n}" in json.dumps(answer) for n in "abc")


@needs_claude_code
def test_claude_codes_compaction_and_title_carry_over(project: Path, home: Path) -> None:
    """After Claude Code's /compact, ours resumes from the summary (not the compacted turns),
    and Claude Code's /rename title names the session in our pickers."""
    turns = ["Noted: PAPAYA.", "<summary>The user asked to remember PAPAYA.</summary>",
             "renamed", "From the summary: PAPAYA."]
    with MockApiServer({"turns": turns, "side": SIDE}) as server:
        claude_code(["-p", "remember the word PAPAYA"], project, server)
        claude_code(["-p", "-c", "/compact"], project, server)
        claude_code(["-p", "-c", "/rename Papaya talk"], project, server)
        (path,) = session_folder(home, project).glob("*.jsonl")
        assert any(e.get("subtype") == "compact_boundary" for e in read_entries(path))
        ours(["-p", "-c", "which word?"], project, server)
        sent = all_text(sent_conversation(server))
    assert "The user asked to remember PAPAYA." in sent and "which word?" in sent
    assert "remember the word PAPAYA" not in sent and "Noted: PAPAYA." not in sent
    assert summarize(path).name == "Papaya talk"


@needs_claude_code
def test_claude_code_continues_our_session_that_ran_a_sub_agent(project: Path,
                                                                home: Path) -> None:
    """A sub-agent's messages are in our transcript as a sidechain: Claude Code's -c sends the
    main conversation only, and the scripted server accepts it."""
    (project / "app.py").write_text("def greet():\n    return 'hi'\n")
    turns = [
        {"content": [{"type": "tool_use", "name": "Agent",
                      "input": {"description": "Find greet", "prompt": "Where is greet?"}}]},
        {"content": [{"type": "tool_use", "name": "Grep", "input": {"pattern": "def greet"}}]},
        "REPORT: greet is in app.py.",
        "The helper says app.py.",
        "Still app.py.",
    ]
    with MockApiServer({"turns": turns, "side": SIDE}) as server:
        ours(["-p", "where is greet?", "--allowedTools", "Agent,Grep"], project, server)
        assert "Still app.py." in claude_code(["-p", "-c", "sure?"], project, server)
        sent = sent_conversation(server)
    text = all_text(sent)
    assert "where is greet?" in text and "REPORT: greet is in app.py." in text
    assert '"name": "Grep"' not in text  # the sub-agent's own calls stay in its own file


def test_c_passes_over_a_file_with_no_conversation(project: Path, home: Path) -> None:
    """Claude Code can leave a session file with bookkeeping lines only (a queue operation, a
    title): `-c` continues the newest one that holds a conversation."""
    with MockApiServer({"turns": ["Noted: FIG.", "You said FIG."]}) as server:
        first = json.loads(ours(["-p", "remember FIG", "--output-format", "json"], project,
                                server).stdout)
        empty = session_folder(home, project) / "0b9c1f7e-0000-4000-8000-000000000000.jsonl"
        empty.write_text('{"type":"queue-operation","operation":"dequeue","sessionId":"x"}\n')
        done = json.loads(ours(["-p", "-c", "which?", "--output-format", "json"], project,
                               server).stdout)
    assert done["session_id"] == first["session_id"] and done["result"] == "You said FIG."


def test_a_fork_of_a_claude_code_transcript_keeps_every_call(project: Path, home: Path) -> None:
    """--fork-session copies the conversation as resume sees it (the batch siblings too), so
    the fork resumes just as whole."""
    session_id = install(FIXTURES / "spotter-tool-heavy.jsonl", home, project)
    calls, _, _ = calls_in_file(session_folder(home, project) / f"{session_id}.jsonl")
    with MockApiServer({"turns": ["Forked."]}) as server:
        done = json.loads(ours(["-p", "-r", session_id, "--fork-session", "go on",
                                "--output-format", "json"], project, server).stdout)
        sent = sent_conversation(server)
    assert done["session_id"] != session_id
    pairs = calls_and_answers(sent)
    assert [c for c, _ in pairs] == calls and all(c == a for c, a in pairs)


def test_an_old_style_summary_line_names_the_session(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    lines = [{"type": "summary", "summary": "Fixing the login flow", "leafUuid": "u1"},
             {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": "s",
              "message": {"role": "user", "content": "the login page breaks"}}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    named = summarize(path)
    assert named.name == "Fixing the login flow" and named.first_prompt == "the login page breaks"
