"""Skills: pi's own fixture cases, validation, collisions, the prompt section, `/skill:name`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pi_core.resources.skills import (
    Skill,
    escape_xml,
    expand_skill_command,
    format_skills_for_prompt,
    load_skill_file,
    load_skills,
    load_skills_from_dir,
    validate_description,
    validate_name,
)

Write = Callable[[Path, str], Path]

# pi-mono packages/coding-agent/test/fixtures/skills: each folder's SKILL.md, byte for byte.
PI_FIXTURES: dict[str, str] = {
    "consecutive-hyphens/SKILL.md": (
        "---\nname: bad--name\ndescription: A skill with consecutive hyphens in the name.\n---\n\n"
        "# Consecutive Hyphens\n\nThis skill has consecutive hyphens in its name.\n"
    ),
    "disable-model-invocation/SKILL.md": (
        "---\nname: disable-model-invocation\n"
        "description: A skill that cannot be invoked by the model.\n"
        "disable-model-invocation: true\n---\n\n# Manual Only Skill\n\n"
        "This skill can only be invoked via /skill:disable-model-invocation.\n"
    ),
    "invalid-name-chars/SKILL.md": (
        "---\nname: Invalid_Name\ndescription: A skill with invalid characters in the name.\n"
        "---\n\n# Invalid Name\n\nThis skill has uppercase and underscore in the name.\n"
    ),
    "invalid-yaml/SKILL.md": (
        "---\nname: invalid-yaml\ndescription: [unclosed bracket\n---\n\n# Invalid YAML Skill\n\n"
        "This skill has invalid YAML in the frontmatter.\n"
    ),
    "long-name/SKILL.md": (
        "---\nname: this-is-a-very-long-skill-name-that-exceeds-the-sixty-four-character-limit-"
        "set-by-the-standard\ndescription: A skill with a name that exceeds 64 characters.\n---\n"
        "\n# Long Name\n\nThis skill's name is too long.\n"
    ),
    "missing-description/SKILL.md": (
        "---\nname: missing-description\n---\n\n# Missing Description\n\n"
        "This skill has no description field.\n"
    ),
    "multiline-description/SKILL.md": (
        "---\nname: multiline-description\ndescription: |\n  This is a multiline description.\n"
        "  It spans multiple lines.\n  And should be normalized.\n---\n\n"
        "# Multiline Description Skill\n\nThis skill tests that multiline YAML descriptions are "
        "normalized to single lines.\n"
    ),
    "name-mismatch/SKILL.md": (
        "---\nname: different-name\n"
        "description: A skill with a name that doesn't match the directory.\n---\n\n"
        "# Name Mismatch\n\nThis skill's name doesn't match its parent directory.\n"
    ),
    "nested/child-skill/SKILL.md": (
        "---\nname: child-skill\ndescription: A nested skill in a subdirectory.\n---\n\n"
        "# Child Skill\n\nThis skill is nested in a subdirectory.\n"
    ),
    "no-frontmatter/SKILL.md": ("# No Frontmatter\n\nThis skill has no YAML frontmatter at all.\n"),
    "root-skill-preferred/SKILL.md": "---\ndescription: Root skill should win.\n---\n",
    "root-skill-preferred/nested-child/SKILL.md": (
        "---\ndescription: Nested skill should be ignored.\n---\n"
    ),
    "unknown-field/SKILL.md": (
        "---\nname: unknown-field\ndescription: A skill with an unknown frontmatter field.\n"
        "author: someone\nversion: 1.0\n---\n\n# Unknown Field\n\n"
        "This skill has non-standard frontmatter fields.\n"
    ),
    "valid-skill/SKILL.md": (
        "---\nname: valid-skill\ndescription: A valid skill for testing purposes.\n---\n\n"
        "# Valid Skill\n\nThis is a valid skill that follows the Agent Skills standard.\n"
    ),
}

LONG = (
    "this-is-a-very-long-skill-name-that-exceeds-the-sixty-four-character-limit-set-by-the-standard"
)
INVALID_CHARS = "name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)"
# pi's `yaml` package says "Flow sequence in block collection must be sufficiently indented and
# end with a ] at line 2, column 31"; PyYAML words it its own way (docs/resources.md).
YAML_ERROR = (
    "Did not find expected ',' or ']' at line 3, column 1 "
    "(while parsing a flow sequence at line 2, column 14)"
)

# What pi 0.73.1's loadSkillsFromDir returns for each folder: skill names, warning messages.
PI_OUTCOMES: dict[str, tuple[list[str], list[str]]] = {
    "consecutive-hyphens": (
        ["bad--name"],
        [
            'name "bad--name" does not match parent directory "consecutive-hyphens"',
            "name must not contain consecutive hyphens",
        ],
    ),
    "disable-model-invocation": (["disable-model-invocation"], []),
    "invalid-name-chars": (
        ["Invalid_Name"],
        ['name "Invalid_Name" does not match parent directory "invalid-name-chars"', INVALID_CHARS],
    ),
    "invalid-yaml": ([], [YAML_ERROR]),
    "long-name": (
        [LONG],
        [
            f'name "{LONG}" does not match parent directory "long-name"',
            "name exceeds 64 characters (94)",
        ],
    ),
    "missing-description": ([], ["description is required"]),
    "multiline-description": (["multiline-description"], []),
    "name-mismatch": (
        ["different-name"],
        ['name "different-name" does not match parent directory "name-mismatch"'],
    ),
    "nested": (["child-skill"], []),
    "no-frontmatter": ([], ["description is required"]),
    "root-skill-preferred": (["root-skill-preferred"], []),
    "unknown-field": (["unknown-field"], []),
    "valid-skill": (["valid-skill"], []),
}


@pytest.fixture
def fixtures(tmp_path: Path, write: Write) -> Path:
    """pi's skill fixture folders, written under tmp_path."""
    root = tmp_path / "fixtures" / "skills"
    for rel, text in PI_FIXTURES.items():
        write(root / rel, text)
    return root


@pytest.mark.parametrize("case", sorted(PI_OUTCOMES))
def test_each_pi_fixture_case_has_pis_outcome(fixtures: Path, case: str) -> None:
    result = load_skills_from_dir(str(fixtures / case))
    names, warnings = PI_OUTCOMES[case]
    assert [skill.name for skill in result.skills] == names
    assert [d.message for d in result.diagnostics] == warnings
    assert all(d.type == "warning" for d in result.diagnostics)
    assert all(d.path and d.path.endswith("SKILL.md") for d in result.diagnostics)


def test_fixture_details(fixtures: Path) -> None:
    valid = load_skills_from_dir(str(fixtures / "valid-skill")).skills[0]
    assert valid.description == "A valid skill for testing purposes."
    assert valid.file_path == str(fixtures / "valid-skill" / "SKILL.md")
    assert valid.base_dir == str(fixtures / "valid-skill")
    assert valid.disable_model_invocation is False
    hidden = load_skills_from_dir(str(fixtures / "disable-model-invocation")).skills[0]
    assert hidden.disable_model_invocation is True
    multiline = load_skills_from_dir(str(fixtures / "multiline-description")).skills[0]
    assert multiline.description == (
        "This is a multiline description.\nIt spans multiple lines.\nAnd should be normalized.\n"
    )
    root = load_skills_from_dir(str(fixtures / "root-skill-preferred")).skills[0]
    assert root.description == "Root skill should win."


def test_whole_fixture_folder_matches_pi(fixtures: Path) -> None:
    result = load_skills_from_dir(str(fixtures))
    assert [s.name for s in result.skills] == [
        "bad--name",
        "disable-model-invocation",
        "Invalid_Name",
        LONG,
        "multiline-description",
        "different-name",
        "child-skill",
        "root-skill-preferred",
        "unknown-field",
        "valid-skill",
    ]
    assert len(result.diagnostics) == 10


def test_missing_folder_is_empty_and_quiet() -> None:
    result = load_skills_from_dir("/non/existent/path")
    assert result.skills == [] and result.diagnostics == []


def test_collision_keeps_the_first_and_reports_the_second(tmp_path: Path, write: Write) -> None:
    first = write(
        tmp_path / "first" / "calendar" / "SKILL.md",
        "---\nname: calendar\ndescription: First calendar skill.\n---\n\n# Calendar (First)\n",
    )
    second = write(
        tmp_path / "second" / "calendar" / "SKILL.md",
        "---\nname: calendar\ndescription: Second calendar skill.\n---\n\n# Calendar (Second)\n",
    )
    result = load_skills([str(tmp_path / "first"), str(tmp_path / "second")], str(tmp_path))
    assert [s.file_path for s in result.skills] == [str(first)]
    [diagnostic] = result.diagnostics
    assert diagnostic.type == "collision"
    assert diagnostic.message == 'name "calendar" collision'
    assert diagnostic.path == str(second)
    assert diagnostic.collision is not None
    assert diagnostic.collision.to_wire() == {
        "resourceType": "skill",
        "name": "calendar",
        "winnerPath": str(first),
        "loserPath": str(second),
    }
    assert "kept" in diagnostic.describe()


def test_same_file_through_a_symlink_loads_once(tmp_path: Path, write: Write) -> None:
    write(tmp_path / "real" / "tool" / "SKILL.md", "---\ndescription: d\n---\n")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    result = load_skills([str(tmp_path / "real"), str(tmp_path / "link")], str(tmp_path))
    assert [s.name for s in result.skills] == ["tool"]
    assert result.diagnostics == []


def test_explicit_paths(tmp_path: Path, write: Write) -> None:
    skill = write(tmp_path / "one" / "SKILL.md", "---\nname: one\ndescription: d\n---\n")
    write(tmp_path / "notes.txt", "x")
    result = load_skills([str(skill), "missing", "notes.txt", "~/nowhere"], str(tmp_path))
    assert [s.name for s in result.skills] == ["one"]
    messages = [(d.message, Path(d.path or "").name) for d in result.diagnostics]
    assert messages == [
        ("skill path does not exist", "missing"),
        ("skill path is not a markdown file", "notes.txt"),
        ("skill path does not exist", "nowhere"),
    ]


def test_tilde_expands_to_home(home: Path, write: Write) -> None:
    write(home / "my-skills" / "tilde" / "SKILL.md", "---\ndescription: from home\n---\n")
    result = load_skills(["~/my-skills"], "/")
    assert [s.name for s in result.skills] == ["tilde"]


def test_root_markdown_files_are_skills_but_not_in_subfolders(tmp_path: Path, write: Write) -> None:
    write(tmp_path / "skills" / "quick.md", "---\ndescription: a root file skill\n---\n")
    write(tmp_path / "skills" / "pack" / "helper" / "SKILL.md", "---\ndescription: d\n---\n")
    write(tmp_path / "skills" / "pack" / "helper" / "EXTRA.md", "No frontmatter here")
    write(tmp_path / "skills" / "pack" / "loose.md", "---\ndescription: ignored\n---\n")
    result = load_skills_from_dir(str(tmp_path / "skills"))
    assert [(s.name, Path(s.file_path).name) for s in result.skills] == [
        ("helper", "SKILL.md"),
        ("skills", "quick.md"),  # no name: the folder's name is used
    ]
    assert result.diagnostics == []


def test_ignore_files_hide_skills(tmp_path: Path, write: Write) -> None:
    root = tmp_path / "skills"
    write(root / ".gitignore", "drafts/\n# comment\n!keep.md\n")
    write(root / "drafts" / "wip" / "SKILL.md", "---\ndescription: d\n---\n")
    write(root / "ready" / "SKILL.md", "---\ndescription: d\n---\n")
    write(root / "ready" / ".ignore", "nothing\n")
    write(root / "node_modules" / "dep" / "SKILL.md", "---\ndescription: d\n---\n")
    write(root / ".hidden" / "SKILL.md", "---\ndescription: d\n---\n")
    assert [s.name for s in load_skills_from_dir(str(root)).skills] == ["ready"]


def test_frontmatter_types_that_cannot_be_used(tmp_path: Path, write: Write) -> None:
    path = write(tmp_path / "odd" / "SKILL.md", "---\ndescription: [a, b]\n---\n")
    skill, diagnostics = load_skill_file(str(path))
    assert skill is None and diagnostics[0].message == "description must be a string"
    path = write(tmp_path / "num" / "SKILL.md", "---\nname: 12\ndescription: d\n---\n")
    skill, diagnostics = load_skill_file(str(path))
    assert skill is None and diagnostics[0].message == "name must be a string"
    path = write(tmp_path / "blank" / "SKILL.md", "---\ndescription: '   '\n---\n")
    skill, diagnostics = load_skill_file(str(path))
    assert skill is None and [d.message for d in diagnostics] == ["description is required"]


def test_disable_model_invocation_must_be_true_exactly(tmp_path: Path, write: Write) -> None:
    path = write(
        tmp_path / "s" / "SKILL.md", "---\ndescription: d\ndisable-model-invocation: yes\n---\n"
    )
    skill, _ = load_skill_file(str(path))
    assert skill is not None and skill.disable_model_invocation is False


@pytest.mark.parametrize(
    ("name", "errors"),
    [
        ("pdf-processing", []),
        ("PDF-Processing", [INVALID_CHARS]),
        ("-pdf", ["name must not start or end with a hyphen"]),
        ("pdf-", ["name must not start or end with a hyphen"]),
        ("pdf--processing", ["name must not contain consecutive hyphens"]),
        ("a" * 64, []),
        ("a" * 65, ["name exceeds 64 characters (65)"]),
        ("ok\n", [INVALID_CHARS]),
    ],
)
def test_name_rules(name: str, errors: list[str]) -> None:
    assert validate_name(name, name) == errors


def test_description_rules() -> None:
    assert validate_description(None) == ["description is required"]
    assert validate_description(" \n") == ["description is required"]
    assert validate_description("x" * 1024) == []
    assert validate_description("x" * 1025) == ["description exceeds 1024 characters (1025)"]
    assert validate_description("😀" * 513) == ["description exceeds 1024 characters (1026)"]


def _skill(name: str, description: str = "d", hidden: bool = False) -> Skill:
    return Skill(
        name=name,
        description=description,
        file_path=f"/path/{name}/SKILL.md",
        base_dir=f"/path/{name}",
        disable_model_invocation=hidden,
    )


def test_prompt_section_format() -> None:
    text = format_skills_for_prompt([_skill("one", "First skill."), _skill("two", 'A <b> & "c"')])
    intro, listing = text.split("\n\n<available_skills>\n")
    # three lines of instructions: load with the read tool, paths relative to the SKILL.md folder
    assert intro.startswith("\n\n") and len(intro.strip().splitlines()) == 3
    assert "read tool" in intro and "SKILL.md" in intro and "absolute" in intro
    assert listing == (
        "  <skill>\n    <name>one</name>\n    <description>First skill.</description>\n"
        "    <location>/path/one/SKILL.md</location>\n  </skill>\n"
        "  <skill>\n    <name>two</name>\n"
        "    <description>A &lt;b&gt; &amp; &quot;c&quot;</description>\n"
        "    <location>/path/two/SKILL.md</location>\n  </skill>\n"
        "</available_skills>"
    )


def test_hidden_skills_stay_out_of_the_prompt() -> None:
    assert format_skills_for_prompt([]) == ""
    assert format_skills_for_prompt([_skill("hidden", hidden=True)]) == ""
    text = format_skills_for_prompt([_skill("shown"), _skill("hidden", hidden=True)])
    assert "<name>shown</name>" in text and "hidden" not in text
    assert escape_xml("'") == "&apos;"


def test_skill_command_expansion(tmp_path: Path, write: Write) -> None:
    path = write(
        tmp_path / "review" / "SKILL.md",
        "---\nname: review\ndescription: d\n---\n\n  # Review\n\nSteps.\n\n",
    )
    skill, _ = load_skill_file(str(path))
    assert skill is not None
    block = (
        f'<skill name="review" location="{path}">\n'
        f"References are relative to {tmp_path / 'review'}.\n\n# Review\n\nSteps.\n</skill>"
    )
    assert expand_skill_command("/skill:review", [skill]) == block
    assert expand_skill_command("/skill:review   check main.py  ", [skill]) == (
        block + "\n\ncheck main.py"
    )
    assert expand_skill_command("/skill:review ", [skill]) == block
    assert expand_skill_command("/skill:other x", [skill]) == "/skill:other x"
    assert expand_skill_command("please /skill:review", [skill]) == "please /skill:review"
    assert expand_skill_command("/skill:review\nnot a space", [skill]) == (
        "/skill:review\nnot a space"
    )


def test_skill_command_on_a_vanished_file_reports_and_passes_through(tmp_path: Path) -> None:
    ghost = _skill("ghost")
    errors: list[tuple[str, str]] = []
    text = expand_skill_command(
        "/skill:ghost now", [ghost], lambda s, e: errors.append((s.name, e))
    )
    assert text == "/skill:ghost now"
    assert errors and errors[0][0] == "ghost"
