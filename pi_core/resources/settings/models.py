"""pi's settings keys as typed models, each with pi's default.

JSON names are pi's camelCase (`defaultModel`, `compaction.reserveTokens`); attributes are
snake_case. Keys we do not know are kept (`extra="allow"`), so nothing a user wrote is lost.
"""

import math
import os
from typing import Any, Literal

from pydantic import Field, field_validator

from pi_core.messages.base import WireModel
from pi_core.model_defaults import empty_list
from pi_core.thinking import ThinkingLevel

QueueMode = Literal["all", "one-at-a-time"]
DoubleEscapeAction = Literal["fork", "tree", "none"]
TreeFilterMode = Literal["default", "no-tools", "user-only", "labeled-only", "all"]
TREE_FILTER_MODES = ("default", "no-tools", "user-only", "labeled-only", "all")


class CompactionSettings(WireModel):
    """When and how much to compact."""

    enabled: bool = True
    reserve_tokens: int = 16384
    keep_recent_tokens: int = 20000


class BranchSummarySettings(WireModel):
    """Branch summaries on `/tree` navigation."""

    reserve_tokens: int = 16384
    skip_prompt: bool = False


class ProviderRetrySettings(WireModel):
    """Retries inside a provider's SDK (None: the SDK's own default)."""

    timeout_ms: int | None = None
    max_retries: int | None = None
    max_retry_delay_ms: int = 60000


class RetrySettings(WireModel):
    """Agent-level retries on transient errors (delay doubles from `base_delay_ms`)."""

    enabled: bool = True
    max_retries: int = 3
    base_delay_ms: int = 2000
    provider: ProviderRetrySettings = Field(default_factory=ProviderRetrySettings)


class TerminalSettings(WireModel):
    """Terminal rendering."""

    show_images: bool = True
    image_width_cells: int = 60
    clear_on_shrink: bool | None = None  # None: $PI_CLEAR_ON_SHRINK == "1"
    show_terminal_progress: bool = False

    @field_validator("image_width_cells", mode="before")
    @classmethod
    def _width(cls, value: Any) -> int:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            return 60
        return max(1, math.floor(value))

    def clear_on_shrink_effective(self) -> bool:
        """Return the setting, else whether `PI_CLEAR_ON_SHRINK=1`."""
        if self.clear_on_shrink is not None:
            return self.clear_on_shrink
        return os.environ.get("PI_CLEAR_ON_SHRINK") == "1"


class ImageSettings(WireModel):
    """Images sent to the model."""

    auto_resize: bool = True
    block_images: bool = False


class ThinkingBudgetsSettings(WireModel):
    """Token budgets per thinking level (None: the provider's default)."""

    minimal: int | None = None
    low: int | None = None
    medium: int | None = None
    high: int | None = None


class MarkdownSettings(WireModel):
    """Markdown rendering."""

    code_block_indent: str = "  "


class WarningSettings(WireModel):
    """Warnings that can be switched off."""

    anthropic_extra_usage: bool = True


class PackageFilter(WireModel):
    """A package entry in object form: which of its resources to load."""

    source: str
    extensions: list[str] | None = None
    skills: list[str] | None = None
    prompts: list[str] | None = None
    themes: list[str] | None = None


class Settings(WireModel):
    """The effective settings (global merged with project), every key with pi's default."""

    last_changelog_version: str | None = None
    default_provider: str | None = None
    default_model: str | None = None
    default_thinking_level: ThinkingLevel | None = None
    transport: str = "auto"
    steering_mode: QueueMode = "one-at-a-time"
    follow_up_mode: QueueMode = "one-at-a-time"
    theme: str | None = None
    compaction: CompactionSettings = Field(default_factory=CompactionSettings)
    branch_summary: BranchSummarySettings = Field(default_factory=BranchSummarySettings)
    retry: RetrySettings = Field(default_factory=RetrySettings)
    hide_thinking_block: bool = False
    shell_path: str | None = None
    quiet_startup: bool = False
    discover_local_servers: bool = True
    shell_command_prefix: str | None = None
    npm_command: list[str] | None = None
    collapse_changelog: bool = False
    enable_install_telemetry: bool = True
    packages: list[str | PackageFilter] = Field(default_factory=empty_list)
    extensions: list[str] = Field(default_factory=empty_list)
    skills: list[str] = Field(default_factory=empty_list)
    prompts: list[str] = Field(default_factory=empty_list)
    themes: list[str] = Field(default_factory=empty_list)
    enable_skill_commands: bool = True
    terminal: TerminalSettings = Field(default_factory=TerminalSettings)
    images: ImageSettings = Field(default_factory=ImageSettings)
    enabled_models: list[str] | None = None
    double_escape_action: DoubleEscapeAction = "tree"
    tree_filter_mode: TreeFilterMode = "default"
    thinking_budgets: ThinkingBudgetsSettings | None = None
    editor_padding_x: int = 0
    autocomplete_max_visible: int = 5
    show_hardware_cursor: bool | None = None  # None: $PI_HARDWARE_CURSOR == "1"
    markdown: MarkdownSettings = Field(default_factory=MarkdownSettings)
    warnings: WarningSettings = Field(default_factory=WarningSettings)
    session_dir: str | None = None
    blocked_plugins: list[str] = Field(default_factory=empty_list)  # ours: plugins not to load

    @field_validator("tree_filter_mode", mode="before")
    @classmethod
    def _tree_filter(cls, value: Any) -> Any:
        return value if value in TREE_FILTER_MODES else "default"

    def session_dir_expanded(self) -> str | None:
        """Return `sessionDir` with a leading `~` expanded."""
        value = self.session_dir
        if not value:
            return value
        if value == "~" or value.startswith("~/"):
            return os.path.expanduser(value)
        return value

    def show_hardware_cursor_effective(self) -> bool:
        """Return the setting, else whether `PI_HARDWARE_CURSOR=1`."""
        if self.show_hardware_cursor is not None:
            return self.show_hardware_cursor
        return os.environ.get("PI_HARDWARE_CURSOR") == "1"


def migrate_settings(data: dict[str, Any]) -> dict[str, Any]:
    """Rewrite old key shapes in place as pi does (queueMode, websockets, skills object, retry)."""
    if "queueMode" in data and "steeringMode" not in data:
        data["steeringMode"] = data.pop("queueMode")
    if "transport" not in data and isinstance(data.get("websockets"), bool):
        data["transport"] = "websocket" if data.pop("websockets") else "sse"
    skills = data.get("skills")
    if isinstance(skills, dict):
        if "enableSkillCommands" in skills and "enableSkillCommands" not in data:
            data["enableSkillCommands"] = skills["enableSkillCommands"]
        custom = skills.get("customDirectories")
        if isinstance(custom, list) and custom:
            data["skills"] = custom
        else:
            del data["skills"]
    retry = data.get("retry")
    if isinstance(retry, dict):
        provider = retry.get("provider") if isinstance(retry.get("provider"), dict) else None
        max_delay = retry.get("maxDelayMs")
        is_number = isinstance(max_delay, int | float) and not isinstance(max_delay, bool)
        if is_number and (provider is None or provider.get("maxRetryDelayMs") is None):
            retry["provider"] = {**(provider or {}), "maxRetryDelayMs": max_delay}
        retry.pop("maxDelayMs", None)
    return data


def deep_merge(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """Merge like pi: override keys win; two objects under one key merge one level deep."""
    result = dict(base)
    for key, value in overrides.items():
        current = base.get(key)
        if isinstance(value, dict) and isinstance(current, dict):
            result[key] = {**current, **value}
        else:
            result[key] = value
    return result
