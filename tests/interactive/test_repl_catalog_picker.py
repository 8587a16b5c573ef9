"""The /model picker with the whole catalog (every provider has a key): ~1000 rows, filtered to
one by typing, and selected."""

from __future__ import annotations

import json
import re
import time

from tests.cli.list_models_cases import EVERY_KEY
from tests.interactive.conftest import Screen


def test_model_picker_filters_the_whole_catalog_to_one_model(screen: Screen) -> None:
    screen.start(env=EVERY_KEY)
    screen.ready()
    screen.type("/model")
    screen.keys("Enter")
    counter = re.compile(r"\((\d+)/(\d+)\)")
    shown = screen.wait_for(lambda s: "Select model" in s and counter.search(s) is not None)
    total = int(counter.findall(shown)[-1][1])
    assert total >= 960  # the catalog's models with a key, and the fake provider's
    started = time.monotonic()
    screen.type("cerebras/zai-glm-4.7")
    screen.wait_for(lambda s: "(1/1)" in s and "→ cerebras/zai-glm-4.7" in s)
    print(f"filtered {total} models to one in {time.monotonic() - started:.2f} s")
    screen.keys("Enter")
    screen.wait_for("(cerebras) zai-glm-4.7")
    settings = json.loads((screen.agent_dir / "settings.json").read_text())
    assert (settings["defaultProvider"], settings["defaultModel"]) == ("cerebras", "zai-glm-4.7")
