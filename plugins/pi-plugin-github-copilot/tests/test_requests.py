"""What the Copilot login adds to chat requests: the API's base URL from the stored login
(token's `proxy-ep`, else the enterprise domain) and the per-request headers, as pi 0.73.1."""

from __future__ import annotations

from pi_plugin_github_copilot import CopilotLogin

from pi_core.messages import (
    AssistantMessage,
    ImageContent,
    TextContent,
    ToolResultMessage,
    UserMessage,
)
from pi_core.providers import LLMContext, Model

LOGIN = CopilotLogin()
IMAGE = ImageContent(data="aGk=", mime_type="image/png")


def model(api: str) -> Model:
    return Model(id="m", api=api, provider="github-copilot")


def test_the_base_url_comes_from_the_token_then_the_enterprise_domain() -> None:
    token = "tid=1;exp=2;proxy-ep=proxy.enterprise.githubcopilot.com;st=dotcom"
    assert LOGIN.base_url({"access": token}) == "https://api.enterprise.githubcopilot.com"
    # no proxy-ep: the enterprise domain as the user typed it (a URL is reduced to its host)
    enterprise = {"access": "tid=1", "enterpriseUrl": "https://company.ghe.com/"}
    assert LOGIN.base_url(enterprise) == "https://copilot-api.company.ghe.com"
    assert LOGIN.base_url({"access": "tid=1"}) == "https://api.individual.githubcopilot.com"


def test_a_follow_up_with_an_image_in_a_tool_result_is_the_agents_and_a_vision_request() -> None:
    call = AssistantMessage(stop_reason="toolUse")
    result = ToolResultMessage(tool_call_id="c", tool_name="read", content=[IMAGE])
    context = LLMContext(messages=[UserMessage(content="look"), call, result])
    headers = LOGIN.request_headers(model("openai-responses"), context, "tok")
    assert headers == {
        "X-Initiator": "agent",
        "Openai-Intent": "conversation-edits",
        "Copilot-Vision-Request": "true",
    }


def test_the_anthropic_endpoint_takes_the_token_as_a_bearer_token() -> None:
    context = LLMContext(messages=[UserMessage(content=[TextContent(text="hi")])])
    headers = LOGIN.request_headers(model("anthropic-messages"), context, "tok")
    assert headers == {
        "X-Initiator": "user",
        "Openai-Intent": "conversation-edits",
        "authorization": "Bearer tok",
        "x-api-key": None,
    }
