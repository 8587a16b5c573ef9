"""Ship skills and prompt templates inside the plugin: the folders next to this file."""

from pathlib import Path

from pi_core import hookimpl
from pi_core.events import ResourcesDiscoverEvent, ResourcesDiscoverResult

HERE = Path(__file__).parent


@hookimpl
def resources_discover(event: ResourcesDiscoverEvent) -> ResourcesDiscoverResult:
    return ResourcesDiscoverResult(
        skill_paths=[str(HERE / "skills")], prompt_paths=[str(HERE / "prompts")]
    )
