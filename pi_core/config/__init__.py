"""Configuration locations and settings files."""

from pi_core.config.paths import CONFIG_DIR_NAME, agent_dir, project_dir, resolve_path

__all__ = ["CONFIG_DIR_NAME", "agent_dir", "project_dir", "resolve_path"]
