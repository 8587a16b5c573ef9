"""Named getters and setters for pi's settings keys (pi's SettingsManager API, snake_case).

Getters read the effective settings; setters write one key to the global file unless a `scope`
is given (the resource lists and `blockedPlugins` take one, like pi's `setProject…` methods).
The preferences a session changes (model, thinking level, queue modes, compaction, retry) are
remembered: when the global file is not valid settings they hold for this run only and the file
is left untouched, as pi does; the other setters raise SettingsFileError instead.
"""

from __future__ import annotations

import math
from typing import Any

from pi_core.resources.settings.models import (
    BranchSummarySettings,
    CompactionSettings,
    DoubleEscapeAction,
    PackageFilter,
    ProviderRetrySettings,
    QueueMode,
    RetrySettings,
    Settings,
    ThinkingBudgetsSettings,
    TreeFilterMode,
    WarningSettings,
)
from pi_core.resources.settings.storage import SettingsScope
from pi_core.thinking import ThinkingLevel


class SettingsAccessors:
    """Typed accessors over `settings` and `set`, which the manager provides."""

    @property
    def settings(self) -> Settings:
        """Return the effective settings."""
        raise NotImplementedError

    def set(self, key: str, value: Any, scope: SettingsScope = "global") -> None:
        """Write one key."""
        raise NotImplementedError

    def remember(self, key: str, value: Any) -> None:
        """Save a preference the session changed; in memory only when the file is unusable."""
        raise NotImplementedError

    # --- model --------------------------------------------------------------------------

    def get_default_provider(self) -> str | None:
        """Return `defaultProvider`."""
        return self.settings.default_provider

    def get_default_model(self) -> str | None:
        """Return `defaultModel`."""
        return self.settings.default_model

    def set_default_provider(self, provider: str) -> None:
        """Write `defaultProvider`."""
        self.remember("defaultProvider", provider)

    def set_default_model(self, model_id: str) -> None:
        """Write `defaultModel`."""
        self.remember("defaultModel", model_id)

    def set_default_model_and_provider(self, provider: str, model_id: str) -> None:
        """Write `defaultProvider` and `defaultModel`."""
        self.remember("defaultProvider", provider)
        self.remember("defaultModel", model_id)

    def get_default_thinking_level(self) -> ThinkingLevel | None:
        """Return `defaultThinkingLevel`."""
        return self.settings.default_thinking_level

    def set_default_thinking_level(self, level: ThinkingLevel) -> None:
        """Write `defaultThinkingLevel`."""
        self.remember("defaultThinkingLevel", level)

    def get_thinking_budgets(self) -> ThinkingBudgetsSettings | None:
        """Return `thinkingBudgets`."""
        return self.settings.thinking_budgets

    def get_enabled_models(self) -> list[str] | None:
        """Return `enabledModels` (patterns for model cycling)."""
        return self.settings.enabled_models

    def set_enabled_models(self, patterns: list[str] | None) -> None:
        """Write `enabledModels`."""
        self.remember("enabledModels", patterns)

    def get_transport(self) -> str:
        """Return `transport` (default "auto")."""
        return self.settings.transport

    def set_transport(self, transport: str) -> None:
        """Write `transport`."""
        self.remember("transport", transport)

    # --- agent behaviour ----------------------------------------------------------------

    def get_steering_mode(self) -> QueueMode:
        """Return `steeringMode` (default "one-at-a-time")."""
        return self.settings.steering_mode

    def set_steering_mode(self, mode: QueueMode) -> None:
        """Write `steeringMode`."""
        self.remember("steeringMode", mode)

    def get_follow_up_mode(self) -> QueueMode:
        """Return `followUpMode` (default "one-at-a-time")."""
        return self.settings.follow_up_mode

    def set_follow_up_mode(self, mode: QueueMode) -> None:
        """Write `followUpMode`."""
        self.remember("followUpMode", mode)

    def get_compaction_settings(self) -> CompactionSettings:
        """Return `compaction` (enabled, reserveTokens 16384, keepRecentTokens 20000)."""
        return self.settings.compaction

    def get_compaction_enabled(self) -> bool:
        """Return `compaction.enabled`."""
        return self.settings.compaction.enabled

    def set_compaction_enabled(self, enabled: bool) -> None:
        """Write `compaction.enabled`."""
        self.remember("compaction.enabled", enabled)

    def get_branch_summary_settings(self) -> BranchSummarySettings:
        """Return `branchSummary`."""
        return self.settings.branch_summary

    def get_retry_settings(self) -> RetrySettings:
        """Return `retry` (enabled, maxRetries 3, baseDelayMs 2000)."""
        return self.settings.retry

    def get_provider_retry_settings(self) -> ProviderRetrySettings:
        """Return `retry.provider` (maxRetryDelayMs 60000)."""
        return self.settings.retry.provider

    def set_retry_enabled(self, enabled: bool) -> None:
        """Write `retry.enabled`."""
        self.remember("retry.enabled", enabled)

    def get_session_dir(self) -> str | None:
        """Return `sessionDir` with `~` expanded."""
        return self.settings.session_dir_expanded()

    # --- shell --------------------------------------------------------------------------

    def get_shell_path(self) -> str | None:
        """Return `shellPath`."""
        return self.settings.shell_path

    def set_shell_path(self, path: str | None) -> None:
        """Write `shellPath`."""
        self.set("shellPath", path)

    def get_shell_command_prefix(self) -> str | None:
        """Return `shellCommandPrefix`."""
        return self.settings.shell_command_prefix

    def set_shell_command_prefix(self, prefix: str | None) -> None:
        """Write `shellCommandPrefix`."""
        self.set("shellCommandPrefix", prefix)

    def get_npm_command(self) -> list[str] | None:
        """Return `npmCommand`."""
        return list(self.settings.npm_command) if self.settings.npm_command else None

    # --- resources and plugins ----------------------------------------------------------

    def get_packages(self) -> list[str | PackageFilter]:
        """Return `packages`."""
        return list(self.settings.packages)

    def set_packages(self, packages: list[Any], scope: SettingsScope = "global") -> None:
        """Write `packages`."""
        self.set("packages", packages, scope)

    def get_extension_paths(self) -> list[str]:
        """Return `extensions`."""
        return list(self.settings.extensions)

    def set_extension_paths(self, paths: list[str], scope: SettingsScope = "global") -> None:
        """Write `extensions`."""
        self.set("extensions", paths, scope)

    def get_skill_paths(self) -> list[str]:
        """Return `skills`."""
        return list(self.settings.skills)

    def set_skill_paths(self, paths: list[str], scope: SettingsScope = "global") -> None:
        """Write `skills`."""
        self.set("skills", paths, scope)

    def get_prompt_template_paths(self) -> list[str]:
        """Return `prompts`."""
        return list(self.settings.prompts)

    def set_prompt_template_paths(self, paths: list[str], scope: SettingsScope = "global") -> None:
        """Write `prompts`."""
        self.set("prompts", paths, scope)

    def get_theme_paths(self) -> list[str]:
        """Return `themes`."""
        return list(self.settings.themes)

    def set_theme_paths(self, paths: list[str], scope: SettingsScope = "global") -> None:
        """Write `themes`."""
        self.set("themes", paths, scope)

    def get_enable_skill_commands(self) -> bool:
        """Return `enableSkillCommands` (default true)."""
        return self.settings.enable_skill_commands

    def set_enable_skill_commands(self, enabled: bool) -> None:
        """Write `enableSkillCommands`."""
        self.set("enableSkillCommands", enabled)

    def get_blocked_plugins(self) -> list[str]:
        """Return `blockedPlugins` (ours: plugin names not to load)."""
        return list(self.settings.blocked_plugins)

    def set_blocked_plugins(self, names: list[str], scope: SettingsScope = "global") -> None:
        """Write `blockedPlugins`."""
        self.set("blockedPlugins", names, scope)

    # --- interface ----------------------------------------------------------------------

    def get_theme(self) -> str | None:
        """Return `theme`."""
        return self.settings.theme

    def set_theme(self, theme: str) -> None:
        """Write `theme`."""
        self.set("theme", theme)

    def get_hide_thinking_block(self) -> bool:
        """Return `hideThinkingBlock`."""
        return self.settings.hide_thinking_block

    def set_hide_thinking_block(self, hide: bool) -> None:
        """Write `hideThinkingBlock`."""
        self.set("hideThinkingBlock", hide)

    def get_quiet_startup(self) -> bool:
        """Return `quietStartup`."""
        return self.settings.quiet_startup

    def set_quiet_startup(self, quiet: bool) -> None:
        """Write `quietStartup`."""
        self.set("quietStartup", quiet)

    def get_discover_local_servers(self) -> bool:
        """Return `discoverLocalServers` (look for a local model server when none is set up)."""
        return self.settings.discover_local_servers

    def get_collapse_changelog(self) -> bool:
        """Return `collapseChangelog`."""
        return self.settings.collapse_changelog

    def get_last_changelog_version(self) -> str | None:
        """Return `lastChangelogVersion`."""
        return self.settings.last_changelog_version

    def set_last_changelog_version(self, version: str) -> None:
        """Write `lastChangelogVersion`."""
        self.set("lastChangelogVersion", version)

    def get_enable_install_telemetry(self) -> bool:
        """Return `enableInstallTelemetry` (default true)."""
        return self.settings.enable_install_telemetry

    def get_show_images(self) -> bool:
        """Return `terminal.showImages`."""
        return self.settings.terminal.show_images

    def set_show_images(self, show: bool) -> None:
        """Write `terminal.showImages`."""
        self.set("terminal.showImages", show)

    def get_image_width_cells(self) -> int:
        """Return `terminal.imageWidthCells` (default 60, at least 1)."""
        return self.settings.terminal.image_width_cells

    def set_image_width_cells(self, width: float) -> None:
        """Write `terminal.imageWidthCells` (floored, at least 1)."""
        self.set("terminal.imageWidthCells", max(1, math.floor(width)))

    def get_clear_on_shrink(self) -> bool:
        """Return `terminal.clearOnShrink`, else `$PI_CLEAR_ON_SHRINK == "1"`."""
        return self.settings.terminal.clear_on_shrink_effective()

    def get_show_terminal_progress(self) -> bool:
        """Return `terminal.showTerminalProgress`."""
        return self.settings.terminal.show_terminal_progress

    def get_image_auto_resize(self) -> bool:
        """Return `images.autoResize` (default true)."""
        return self.settings.images.auto_resize

    def set_image_auto_resize(self, enabled: bool) -> None:
        """Write `images.autoResize`."""
        self.set("images.autoResize", enabled)

    def get_block_images(self) -> bool:
        """Return `images.blockImages`."""
        return self.settings.images.block_images

    def set_block_images(self, blocked: bool) -> None:
        """Write `images.blockImages`."""
        self.set("images.blockImages", blocked)

    def get_double_escape_action(self) -> DoubleEscapeAction:
        """Return `doubleEscapeAction` (default "tree")."""
        return self.settings.double_escape_action

    def get_tree_filter_mode(self) -> TreeFilterMode:
        """Return `treeFilterMode` (unknown values read as "default")."""
        return self.settings.tree_filter_mode

    def get_show_hardware_cursor(self) -> bool:
        """Return `showHardwareCursor`, else `$PI_HARDWARE_CURSOR == "1"`."""
        return self.settings.show_hardware_cursor_effective()

    def get_editor_padding_x(self) -> int:
        """Return `editorPaddingX`."""
        return self.settings.editor_padding_x

    def set_editor_padding_x(self, padding: float) -> None:
        """Write `editorPaddingX` (clamped to 0-3)."""
        self.set("editorPaddingX", max(0, min(3, math.floor(padding))))

    def get_autocomplete_max_visible(self) -> int:
        """Return `autocompleteMaxVisible` (default 5)."""
        return self.settings.autocomplete_max_visible

    def set_autocomplete_max_visible(self, count: float) -> None:
        """Write `autocompleteMaxVisible` (clamped to 3-20)."""
        self.set("autocompleteMaxVisible", max(3, min(20, math.floor(count))))

    def get_code_block_indent(self) -> str:
        """Return `markdown.codeBlockIndent`."""
        return self.settings.markdown.code_block_indent

    def get_warnings(self) -> WarningSettings:
        """Return `warnings`."""
        return self.settings.warnings
