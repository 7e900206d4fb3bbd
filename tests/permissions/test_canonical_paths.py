"""Paths are decided on what will be opened: a denied file stays denied however it is spelled.

Every call goes through the real tool pipeline (check_permissions_and_call_tool) with the real
Read, Edit, Write, NotebookEdit, Grep and Glob tools on real files; each asserts the denial and
that no byte of the secret reached the result (or that the file on disk is unchanged).
"""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from claude_harness.permissions.paths import folder_folds_case, on_disk_spelling
from claude_harness.permissions.rules import match_path_rule, parse_rule
from claude_harness.protocol.context import (
    AbortSignal,
    FileStateCache,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.protocol.permission_data import PermissionContext, PermissionRule
from claude_harness.tools.edit import TOOL as EDIT
from claude_harness.tools.file_common import target_path
from claude_harness.tools.glob.tool import TOOL as GLOB
from claude_harness.tools.grep.tool import TOOL as GREP
from claude_harness.tools.notebook_edit.tool import TOOL as NOTEBOOK
from claude_harness.tools.pipeline import check_permissions_and_call_tool
from claude_harness.tools.read import TOOL as READ
from claude_harness.tools.write import TOOL as WRITE

NAME = "secret-\u00e9.txt"  # composed (NFC) é
NFD_NAME = unicodedata.normalize("NFD", NAME)
CANARY = "CANARY-7f3a-never-in-a-result"


def _ctx(project: Path, deny: tuple[str, ...], allow: tuple[str, ...] = ()) -> ToolUseContext:
    rules = tuple(PermissionRule("userSettings", "deny", parse_rule(r)) for r in deny) + tuple(
        PermissionRule("userSettings", "allow", parse_rule(r)) for r in allow)
    perm = PermissionContext(mode="acceptEdits", rules=rules, cwd=project, interactive=False)
    return ToolUseContext(
        options=ToolUseOptions(tools=(READ, EDIT, WRITE, NOTEBOOK, GREP, GLOB),
                               session_dir=project.parent / "session"),
        permission=perm, abort=AbortSignal(), read_file_state=FileStateCache(),
        shell=ShellState(project))


async def _call(ctx: ToolUseContext, name: str, inp: dict[str, Any]) -> Any:
    return await check_permissions_and_call_tool({"id": "t", "name": name, "input": inp},
                                                 ctx, lambda _e: None)


def _text(outcome: Any) -> str:
    return json.dumps(outcome.content) if not isinstance(outcome.content, str) \
        else outcome.content


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = (tmp_path / "proj").resolve()
    (root / "sub").mkdir(parents=True)
    (root / NAME).write_text(f"{CANARY}\n")
    (root / "link.txt").symlink_to(root / NAME)
    (root / "alias").symlink_to(root)
    (root / "notes.txt").write_text("everyday file\n")
    return root


def _spellings(root: Path, name: str = NAME) -> dict[str, str]:
    """The same file named six ways: NFC, NFD, through `..`, a file symlink, a folder symlink,
    and NFD through `..`."""
    nfd = unicodedata.normalize("NFD", name)
    return {
        "nfc": str(root / name),
        "nfd": str(root / nfd),
        "dotdot": str(root / "sub" / ".." / name),
        "file-symlink": str(root / "link.txt"),
        "folder-symlink": str(root / "alias" / name),
        "nfd-dotdot": f"{root}/sub/../{nfd}",
    }


RULE_FORMS = {"rule-nfc": f"./{NAME}", "rule-nfd": f"./{NFD_NAME}", "rule-any-depth": NFD_NAME}


@pytest.mark.parametrize("rule", sorted(RULE_FORMS))
@pytest.mark.parametrize("spelling", sorted(_spellings(Path("/x"))))
async def test_read_of_a_denied_file_is_denied_however_spelled(
        project: Path, rule: str, spelling: str) -> None:
    ctx = _ctx(project, deny=(f"Read({RULE_FORMS[rule]})",))
    outcome = await _call(ctx, "Read", {"file_path": _spellings(project)[spelling]})
    assert outcome.is_error and outcome.trace[-1] == "permission_denied", _text(outcome)
    assert CANARY not in _text(outcome)


@pytest.mark.parametrize("spelling", sorted(_spellings(Path("/x"))))
async def test_edit_of_a_denied_file_is_denied_however_spelled(project: Path,
                                                              spelling: str) -> None:
    ctx = _ctx(project, deny=(f"Edit(./{NFD_NAME})",))
    outcome = await _call(ctx, "Edit", {"file_path": _spellings(project)[spelling],
                                        "old_string": CANARY, "new_string": "overwritten"})
    assert outcome.is_error and outcome.trace[-1] == "permission_denied", _text(outcome)
    assert (project / NAME).read_text() == f"{CANARY}\n"
    assert CANARY not in _text(outcome)


@pytest.mark.parametrize("spelling", sorted(_spellings(Path("/x"))))
async def test_write_of_a_denied_file_is_denied_however_spelled(project: Path,
                                                               spelling: str) -> None:
    ctx = _ctx(project, deny=(f"Edit(./{NAME})",))
    before = sorted(os.listdir(project))
    outcome = await _call(ctx, "Write", {"file_path": _spellings(project)[spelling],
                                         "content": "overwritten"})
    assert outcome.is_error and outcome.trace[-1] == "permission_denied", _text(outcome)
    assert (project / NAME).read_text() == f"{CANARY}\n"
    assert sorted(os.listdir(project)) == before  # no second file under another spelling


async def test_notebook_edit_of_a_denied_notebook_through_nfd_is_denied(project: Path) -> None:
    name = "r\u00e9sum\u00e9.ipynb"
    (project / name).write_text(json.dumps({"cells": [{"cell_type": "code", "id": "a",
        "source": CANARY, "metadata": {}, "outputs": [], "execution_count": None}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    before = (project / name).read_bytes()
    ctx = _ctx(project, deny=(f"Edit(./{name})",))
    nfd = str(project / unicodedata.normalize("NFD", name))
    outcome = await _call(ctx, "NotebookEdit", {"notebook_path": nfd, "cell_id": "a",
                                                "new_source": "x"})
    assert outcome.is_error and outcome.trace[-1] == "permission_denied", _text(outcome)
    assert (project / name).read_bytes() == before


@pytest.mark.parametrize("rule", sorted(RULE_FORMS))
async def test_grep_and_glob_never_show_a_denied_file(project: Path, rule: str) -> None:
    ctx = _ctx(project, deny=(f"Read({RULE_FORMS[rule]})",))
    grep = await _call(ctx, "Grep", {"pattern": "CANARY", "output_mode": "content"})
    assert CANARY not in _text(grep)
    nfd_dir = project / unicodedata.normalize("NFD", "d\u00e9p\u00f4t")
    nfd_dir.mkdir()
    (nfd_dir / "k.txt").write_text(f"{CANARY}\n")
    ctx = _ctx(project, deny=("Read(./d\u00e9p\u00f4t/**)",))  # the rule in NFC
    grep = await _call(ctx, "Grep", {"pattern": "CANARY", "path": str(nfd_dir),
                                     "output_mode": "content"})
    assert grep.is_error and CANARY not in _text(grep), _text(grep)


async def test_the_tool_opens_the_path_the_decision_saw(project: Path) -> None:
    """The NFD spelling of an existing NFC file is decided and opened as the NFC file: an allow
    rule for the NFC name lets the everyday read through, with its content."""
    ctx = _ctx(project, deny=(), allow=(f"Read(./{NAME})",))
    assert target_path(str(project / NFD_NAME)) == str(project / NAME)
    outcome = await _call(ctx, "Read", {"file_path": str(project / NFD_NAME)})
    assert not outcome.is_error and CANARY in _text(outcome)


async def test_everyday_reads_and_edits_still_flow(project: Path) -> None:
    ctx = _ctx(project, deny=(f"Read(./{NAME})", f"Edit(./{NAME})"))
    read = await _call(ctx, "Read", {"file_path": str(project / "notes.txt")})
    assert not read.is_error and "everyday file" in _text(read)
    edit = await _call(ctx, "Edit", {"file_path": str(project / "notes.txt"),
                                     "old_string": "everyday", "new_string": "daily"})
    assert not edit.is_error, _text(edit)
    assert (project / "notes.txt").read_text() == "daily file\n"


# ---------------------------------------------------------------- case-folding folders


def test_an_ext4_or_tmpfs_folder_is_detected_as_case_sensitive(tmp_path: Path) -> None:
    (tmp_path / "Readme.md").write_text("x")
    assert folder_folds_case(str(tmp_path)) is False
    assert on_disk_spelling(str(tmp_path / "README.MD")) == str(tmp_path / "README.MD")


def test_the_comparator_folds_case_only_where_the_folder_does(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("x")
    for spelled in ("secret.txt", "SECRET.TXT", "Secret.Txt"):
        assert match_path_rule("./Secret.txt", tmp_path / spelled, tmp_path, None, "deny",
                               fold_case=True), spelled
    assert not match_path_rule("./Secret.txt", tmp_path / "secret.txt", tmp_path, None,
                               "deny", fold_case=False)
    # Unicode normalisation is folded everywhere, case never mixes with it wrongly
    assert match_path_rule(f"./{NFD_NAME.upper()}", tmp_path / NAME, tmp_path, None, "deny",
                           fold_case=True)
    # an allow rule matches the spelling exactly: a look-alike never widens it
    assert not match_path_rule("./Secret.txt", tmp_path / "secret.txt", tmp_path, None,
                               "allow", fold_case=True)
    assert not match_path_rule(f"./{NFD_NAME}", tmp_path / NAME, tmp_path, None, "allow")


@pytest.fixture
def folding_folder(tmp_path: Path) -> Path:
    """A folder where every case spelling of a name is one file, as APFS and NTFS behave:
    built here from hard links (the detection asks the file system, so it sees the same)."""
    folder = (tmp_path / "folding").resolve()
    folder.mkdir()
    stored = folder / "secret.txt"
    stored.write_text(f"{CANARY}\n")
    for other in ("SECRET.TXT", "Secret.txt", "SECRET.txt"):
        os.link(stored, folder / other)
    return folder


def test_a_folder_whose_names_fold_is_detected(folding_folder: Path) -> None:
    assert folder_folds_case(str(folding_folder)) is True


@pytest.mark.parametrize("spelled", ["SECRET.TXT", "Secret.txt", "SECRET.txt"])
async def test_in_a_case_folding_folder_a_deny_rule_matches_every_case(
        folding_folder: Path, spelled: str) -> None:
    ctx = _ctx(folding_folder, deny=("Read(./sEcReT.TxT)",))
    outcome = await _call(ctx, "Read", {"file_path": str(folding_folder / spelled)})
    assert outcome.is_error and outcome.trace[-1] == "permission_denied", _text(outcome)
    assert CANARY not in _text(outcome)
