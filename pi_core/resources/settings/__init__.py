"""Settings: `~/.pi/agent/settings.json` merged with `.pi/settings.json`, typed and writable."""

from pi_core.resources.settings.manager import SettingsManager, SettingsProblem, key_path
from pi_core.resources.settings.models import (
    BranchSummarySettings,
    CompactionSettings,
    ImageSettings,
    MarkdownSettings,
    PackageFilter,
    ProviderRetrySettings,
    RetrySettings,
    Settings,
    TerminalSettings,
    ThinkingBudgetsSettings,
    WarningSettings,
    deep_merge,
    migrate_settings,
)
from pi_core.resources.settings.storage import (
    FileSettingsStorage,
    InMemorySettingsStorage,
    SettingsFileError,
    SettingsScope,
    SettingsStorage,
)

__all__ = [
    "BranchSummarySettings",
    "CompactionSettings",
    "FileSettingsStorage",
    "ImageSettings",
    "InMemorySettingsStorage",
    "MarkdownSettings",
    "PackageFilter",
    "ProviderRetrySettings",
    "RetrySettings",
    "Settings",
    "SettingsFileError",
    "SettingsManager",
    "SettingsProblem",
    "SettingsScope",
    "SettingsStorage",
    "TerminalSettings",
    "ThinkingBudgetsSettings",
    "WarningSettings",
    "deep_merge",
    "key_path",
    "migrate_settings",
]
