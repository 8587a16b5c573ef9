"""The error patterns compile on the first failed response: a run that never fails compiles none
of them, and a failure is classified as before."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import re
compiled = []
real = re.compile
re.compile = lambda pattern, flags=0: compiled.append(pattern) or real(pattern, flags)
from pi_core.ai import errors
from pi_core.messages import AssistantMessage, TextContent
done = AssistantMessage(content=[TextContent(text="ok")], api="a", provider="p", model="m",
                        stop_reason="stop")
overflow = "prompt is too long"
print(errors.classify_error(done), errors.is_context_overflow(done, 1000), overflow in compiled)
for text in ("prompt is too long: 300000 tokens", "rate limit: prompt is too long", "boom"):
    failed = done.model_copy(update={"stop_reason": "error", "error_message": text})
    print(errors.classify_error(failed))
print(overflow in compiled)
"""


def test_patterns_compile_on_the_first_failure_only() -> None:
    result = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, check=True
    )
    assert result.stdout.splitlines() == [
        "None False False",
        "context_overflow",
        "retryable",
        "fatal",
        "True",
    ]
