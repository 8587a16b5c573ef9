"""What a SPEC names: requirements, git URLs and paths; the forms refused and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_core.install.spec import (
    SpecError,
    check_installable,
    install_command,
    parse_spec,
    settings_text,
)


@pytest.mark.parametrize(
    ("text", "name", "pinned"),
    [
        ("pi-plugin-foo", "pi-plugin-foo", False),
        ("pi-plugin-foo==1.2", "pi-plugin-foo", True),
        ("pi-plugin-foo === 1.2", "pi-plugin-foo", True),
        ("pi-plugin-foo>=1.2,<2", "pi-plugin-foo", False),
        ("pi-plugin-foo==1.*", "pi-plugin-foo", False),
        ("pi-plugin-foo~=1.2", "pi-plugin-foo", False),
        ("pi-plugin-foo (==1.2)", "pi-plugin-foo", True),
        ("pi-plugin-foo[extra]==1.2 ; python_version >= '3.8'", "pi-plugin-foo", True),
        ("pi-plugin-foo; sys_platform == 'linux'", "pi-plugin-foo", False),
        ("Pi_Plugin.Foo", "Pi_Plugin.Foo", False),
    ],
)
def test_requirements(text: str, name: str, pinned: bool, tmp_path: Path) -> None:
    spec = parse_spec(text, tmp_path)
    assert (spec.kind, spec.name, spec.pinned) == ("requirement", name, pinned)
    assert spec.installer_args() == [text]
    assert spec.text == text


def test_names_compare_canonically(tmp_path: Path) -> None:
    assert parse_spec("Pi_Plugin.Foo", tmp_path).key == "pi-plugin-foo"
    assert parse_spec("pi-plugin-foo==2", tmp_path).same_plugin(
        parse_spec("PI_plugin_foo", tmp_path)
    )
    assert not parse_spec("pi-plugin-foo", tmp_path).same_plugin(
        parse_spec("pi-plugin-bar", tmp_path)
    )


def test_url_requirement_is_pinned(tmp_path: Path) -> None:
    spec = parse_spec("pi-plugin-foo @ https://example.invalid/pi_plugin_foo-1.0.whl", tmp_path)
    assert (spec.kind, spec.name, spec.pinned) == ("requirement", "pi-plugin-foo", True)


def test_git_urls(tmp_path: Path) -> None:
    bare = parse_spec("git+https://github.com/owner/pi-plugin-foo.git", tmp_path)
    assert (bare.kind, bare.name, bare.pinned) == ("git", None, False)
    assert bare.location == "github.com/owner/pi-plugin-foo"
    assert bare.installer_args() == ["git+https://github.com/owner/pi-plugin-foo.git"]

    ssh = parse_spec("git+ssh://git@GitHub.com/owner/pi-plugin-foo", tmp_path)
    assert ssh.same_plugin(bare)

    ref = parse_spec("git+https://github.com/owner/pi-plugin-foo@v1#egg=pi-plugin-foo", tmp_path)
    assert (ref.name, ref.pinned, ref.location) == ("pi-plugin-foo", True, bare.location)

    named = parse_spec("pi-plugin-foo @ git+https://github.com/owner/pi-plugin-foo", tmp_path)
    assert (named.kind, named.name, named.pinned) == ("git", "pi-plugin-foo", False)
    assert named.installer_args() == [named.text]

    sub = parse_spec("git+https://github.com/owner/mono#subdirectory=plugins/foo", tmp_path)
    assert sub.location == "github.com/owner/mono#plugins/foo"
    assert not sub.same_plugin(parse_spec("git+https://github.com/owner/mono", tmp_path))


def test_a_bare_git_spec_takes_its_name_once_known(tmp_path: Path) -> None:
    spec = parse_spec("git+https://example.invalid/o/r", tmp_path).with_name("pi-plugin-r")
    assert spec.text == "pi-plugin-r @ git+https://example.invalid/o/r"
    assert parse_spec(spec.text, tmp_path).same_plugin(spec)


def project_folder(root: Path, name: str = "pi-plugin-local") -> Path:
    folder = root / "src" / name
    folder.mkdir(parents=True)
    (folder / "pyproject.toml").write_text(f'[project]\nname = "{name}"\nversion = "0.1"\n')
    return folder


def test_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = project_folder(tmp_path)
    for text in ("./src/pi-plugin-local", "src/pi-plugin-local", str(folder)):
        spec = parse_spec(text, tmp_path)
        assert (spec.kind, spec.path, spec.name) == ("path", folder, "pi-plugin-local")
        assert spec.installer_args() == [str(folder)]
    monkeypatch.setenv("HOME", str(tmp_path))
    assert parse_spec("~/src/pi-plugin-local", tmp_path / "elsewhere").path == folder
    assert parse_spec(folder.as_uri(), tmp_path / "elsewhere").path == folder
    assert parse_spec("../src/pi-plugin-local", tmp_path / "sub").path == folder
    editable = parse_spec("./src/pi-plugin-local", tmp_path, editable=True)
    assert editable.installer_args() == ["-e", str(folder)]
    assert parse_spec("-e ./src/pi-plugin-local", tmp_path) == editable
    assert parse_spec("pi-plugin-local", tmp_path).same_plugin(editable)


def test_archives_name_their_distribution(tmp_path: Path) -> None:
    wheel = parse_spec("dist/pi_plugin_foo-1.0-py3-none-any.whl", tmp_path)
    assert (wheel.kind, wheel.key) == ("path", "pi-plugin-foo")
    sdist = parse_spec("pi-plugin-foo-1.0.tar.gz", tmp_path)
    assert (sdist.kind, sdist.key) == ("path", "pi-plugin-foo")


def test_setup_cfg_name_and_nameless_folder(tmp_path: Path) -> None:
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "setup.cfg").write_text("[metadata]\nname = pi-plugin-old\n")
    assert parse_spec("./old", tmp_path).name == "pi-plugin-old"
    (tmp_path / "dynamic").mkdir()
    (tmp_path / "dynamic" / "setup.py").write_text("from setuptools import setup\nsetup()\n")
    spec = parse_spec("./dynamic", tmp_path)
    assert spec.name is None and spec.location == str(tmp_path / "dynamic")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty plugin spec"),
        ("   ", "empty plugin spec"),
        ("npm:pi-skills", "npm package"),
        ("git:github.com/user/repo", "git+https://github.com/user/repo"),
        ("github:user/repo", "git+https://user/repo"),
        ("https://github.com/user/repo", "git+https://github.com/user/repo"),
        ("ssh://git@github.com/user/repo", "use git+ssh://git@github.com/user/repo"),
        ("git@github.com:user/repo", "git+ssh://"),
        ("hg+https://example.invalid/repo", "only git+ URLs"),
        ("git+ftp://example.invalid/repo", "not a git URL"),
        ("git+https://", "not a git URL"),
        ("foo bar", "not a valid requirement"),
        ("foo==", "not a valid requirement"),
        ("foo!", "not a valid requirement"),
        ("-pi-plugin", "not a package name or requirement"),
        ("foo @ not-a-url", "not a valid URL requirement"),
        ("-e pi-plugin-foo", "-e/--editable takes a local project folder"),
        ("-e git+https://example.invalid/o/r", "-e/--editable takes a local project folder"),
    ],
)
def test_unknown_forms_are_refused(text: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(SpecError, match=None) as caught:
        parse_spec(text, tmp_path)
    assert message in str(caught.value)


def test_editable_needs_a_folder(tmp_path: Path) -> None:
    (tmp_path / "x.whl").write_text("")
    with pytest.raises(SpecError, match="takes a project folder"):
        parse_spec("./x.whl", tmp_path, editable=True)


def test_what_cannot_be_installed(tmp_path: Path) -> None:
    def refused(text: str) -> str:
        with pytest.raises(SpecError) as caught:
            check_installable(parse_spec(text, tmp_path))
        return str(caught.value)

    assert "no such file or folder: ./missing" in refused("./missing")
    (tmp_path / "plain").mkdir()
    assert "not a Python project" in refused("./plain")
    (tmp_path / "plugin.py").write_text("")
    assert "extensions" in refused("./plugin.py")
    (tmp_path / "notes.txt").write_text("")
    assert "not a wheel or source archive" in refused("./notes.txt")
    check_installable(parse_spec(str(project_folder(tmp_path)), tmp_path))
    check_installable(parse_spec("pi-plugin-foo", tmp_path))


def test_packaging_judges_markers(tmp_path: Path) -> None:
    parse_spec("pi-plugin-foo>=1; python_version >= '3.8'", tmp_path)
    with pytest.raises(SpecError, match="not a valid requirement"):
        parse_spec("pi-plugin-foo; this is not a marker", tmp_path)


def test_paths_are_recorded_relative_to_the_settings_folder(tmp_path: Path) -> None:
    folder = project_folder(tmp_path)
    spec = parse_spec(str(folder), tmp_path)
    assert settings_text(spec, tmp_path / ".pi") == "../src/pi-plugin-local"
    assert settings_text(spec, tmp_path) == "./src/pi-plugin-local"
    assert settings_text(spec, folder) == "."
    editable = parse_spec(str(folder), tmp_path, editable=True)
    assert settings_text(editable, tmp_path / ".pi") == "-e ../src/pi-plugin-local"
    assert settings_text(parse_spec("pi-plugin-foo==1", tmp_path), tmp_path) == "pi-plugin-foo==1"


def test_install_commands_work_from_the_current_folder(tmp_path: Path) -> None:
    folder = project_folder(tmp_path)
    record = parse_spec("../src/pi-plugin-local", tmp_path / ".pi")
    assert install_command(record, local=True, cwd=tmp_path) == (
        "pi install -l ./src/pi-plugin-local"
    )
    editable = parse_spec(str(folder), tmp_path, editable=True)
    assert install_command(editable, local=False, cwd=tmp_path / "other") == (
        "pi install -e ../src/pi-plugin-local"
    )
    marker = parse_spec("pi-plugin-foo; python_version >= '3.8'", tmp_path)
    assert install_command(marker, local=False, cwd=tmp_path) == (
        "pi install 'pi-plugin-foo; python_version >= '\"'\"'3.8'\"'\"''"
    )
