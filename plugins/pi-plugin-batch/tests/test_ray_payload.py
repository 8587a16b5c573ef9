"""What travels to a Ray worker: a task's files, recreated where the node looks for them."""

from __future__ import annotations

import io
import stat
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_batch.ray_payload import (
    Payload,
    extract_tar,
    forwarded_env,
    localise,
    pack,
    pack_agent,
    resolve_prompt,
    tar_bytes,
    task_sources,
    unpack,
)
from pi_plugin_batch.ray_worker import collect
from pi_plugin_batch.tasks import Task


def _driver_files(tmp_path: Path) -> Path:
    """A task folder whose task reaches out (`..`), an absolute plugin, a linked agent file."""
    base = tmp_path / "driver" / "tasks"
    base.mkdir(parents=True)
    project = tmp_path / "driver" / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "pkg" / "a.py").write_text("A = 1\n")
    (project / "link").symlink_to("pkg/a.py")
    (tmp_path / "plugin.py").write_text("# a plugin\n")
    (base / "prompt.md").write_text("mark x")
    repo = tmp_path / "driver" / "repo"
    repo.mkdir()
    for args in (["init", "-q"], ["config", "user.email", "t@t"], ["config", "user.name", "t"]):
        subprocess.run(["git", *args], cwd=repo, check=True)
    (repo / "f").write_text("v1\n")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "v1"], cwd=repo, check=True)
    subprocess.run(["git", "tag", "v1"], cwd=repo, check=True)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "models.json").write_text('{"providers": {}}')
    agent = tmp_path / "driver" / "agent"
    (agent / "sessions").mkdir(parents=True)
    (agent / "sessions" / "old.jsonl").write_text("{}\n")
    (agent / "models.json").symlink_to(tmp_path / "elsewhere" / "models.json")
    return base


def test_a_tasks_files_are_recreated_where_the_node_resolves_them(tmp_path: Path) -> None:
    base = _driver_files(tmp_path)
    plugin = str(tmp_path / "plugin.py")
    task = Task(id="x", prompt_file="prompt.md", workdir="../project", plugins=[plugin])
    repo_task = Task(id="y", prompt="mark y", repo="../repo", ref="v1")
    sources = [pack(p, k) for p, k in task_sources(task, base) + task_sources(repo_task, base)]
    payload = Payload(str(base), sources, pack_agent(tmp_path / "driver" / "agent"))

    root, agent = tmp_path / "node" / "root", tmp_path / "node" / "agent"
    node_base = unpack(payload, root, agent)
    local = localise(resolve_prompt(task, base), node_base, root)

    assert local.prompt == "mark x" and local.prompt_file is None
    assert local.workdir == "../project"  # relative paths are kept as the task file has them
    workdir = (node_base / local.workdir).resolve()
    assert workdir.is_relative_to(root.resolve())
    assert (workdir / "pkg" / "a.py").read_text() == "A = 1\n"
    assert (workdir / "link").is_symlink()  # a copy keeps the folder's links, as locally
    (plugin_path,) = local.plugins
    assert (node_base / plugin_path).resolve().read_text() == "# a plugin\n"
    local_repo = localise(repo_task, node_base, root).repo
    assert local_repo is not None
    clone = (node_base / local_repo).resolve()
    shown = subprocess.run(["git", "-C", str(clone), "show", "v1:f"], capture_output=True,
                           text=True, check=True)  # fmt: skip
    assert shown.stdout == "v1\n"
    assert (agent / "models.json").read_text() == '{"providers": {}}'  # the link's content
    assert not (agent / "sessions").exists()


def test_only_provider_keys_and_endpoints_travel_from_the_drivers_environment() -> None:
    env = {"OPENAI_API_KEY": "k", "ANTHROPIC_BASE_URL": "u", "X_AUTH_TOKEN": "t",
           "HOME": "/root", "PATH": "/bin"}  # fmt: skip
    assert forwarded_env(env) == {"OPENAI_API_KEY": "k", "ANTHROPIC_BASE_URL": "u",
                                  "X_AUTH_TOKEN": "t"}  # fmt: skip


def test_what_comes_back_is_the_session_artifacts_and_settings_but_not_the_state(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    (out / "sessions").mkdir(parents=True)
    (out / "sessions" / "x.a2.jsonl").write_text("session")
    (out / "artifacts" / "x.a2").mkdir(parents=True)
    for name in ("patch.diff", "stderr.txt", "setup.log", "state.json"):
        (out / "artifacts" / "x.a2" / name).write_text(name)
    (out / "agents" / "x.a2").mkdir(parents=True)
    (out / "agents" / "x.a2" / "settings.json").write_text("{}")
    files = collect(out, "x.a2")
    assert sorted(files) == [
        "agents/x.a2/settings.json", "artifacts/x.a2/patch.diff", "artifacts/x.a2/setup.log",
        "artifacts/x.a2/stderr.txt", "sessions/x.a2.jsonl",
    ]  # fmt: skip
    assert files["sessions/x.a2.jsonl"] == b"session"


def test_without_extraction_filters_files_unpack_and_a_member_outside_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python 3.11.0-3.11.3 (Debian 12's) has no `filter=`: the same checks by hand."""
    # (on a Python that has filters, silence 3.14's default one: the code under test checks)
    trusted = {"filter": "fully_trusted"} if hasattr(tarfile, "fully_trusted_filter") else {}
    monkeypatch.delattr(tarfile, "tar_filter", raising=False)
    real_extractall = tarfile.TarFile.extractall

    def no_filter(self: tarfile.TarFile, path: str | Path = ".", **kwargs: Any) -> None:
        assert "filter" not in kwargs  # as on those Pythons, where it is a TypeError
        real_extractall(self, path, **trusted)  # type: ignore[arg-type]

    monkeypatch.setattr(tarfile.TarFile, "extractall", no_filter)
    folder = tmp_path / "src"
    (folder / "pkg").mkdir(parents=True)
    (folder / "pkg" / "a.py").write_text("A = 1\n")
    (folder / "pkg" / "a.py").chmod(0o4755)
    unpacked = tmp_path / "out"
    extract_tar(tar_bytes(folder), unpacked)
    assert (unpacked / "pkg" / "a.py").read_text() == "A = 1\n"
    assert not (unpacked / "pkg" / "a.py").stat().st_mode & stat.S_ISUID

    hostile = io.BytesIO()
    with tarfile.open(fileobj=hostile, mode="w:gz") as archive:
        member = tarfile.TarInfo("../escaped.txt")
        member.size = 2
        archive.addfile(member, io.BytesIO(b"no"))
    with pytest.raises(tarfile.TarError, match="outside"):
        extract_tar(hostile.getvalue(), tmp_path / "out2")
    assert not (tmp_path / "escaped.txt").exists()
