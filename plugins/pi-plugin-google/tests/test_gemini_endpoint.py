"""Where a Gemini API request goes: the model's base URL (the catalog's carries the version), the
key in `x-goog-api-key`, then the model's and the request's headers."""

from __future__ import annotations

from google_run import gemini_model
from pi_plugin_google.endpoint import gemini_request

from pi_core.ai.protocol import StreamOptions


def test_opencode_gemini_goes_to_its_own_base_url() -> None:
    model = gemini_model(
        "https://opencode.ai/zen/v1", "gemini-3-flash", provider="opencode", headers={"X-A": "1"}
    )
    request = gemini_request(model, StreamOptions(api_key="oc", headers={"x-a": "2"}), b"{}")
    assert request.base_url == "https://opencode.ai/zen/v1"
    assert request.path == "models/gemini-3-flash:streamGenerateContent?alt=sse"
    assert request.headers["x-goog-api-key"] == "oc"
    assert request.headers["x-a"] == "2"  # the request's header wins, whatever the case
    assert request.headers["content-type"] == "application/json"
