"""encode_body: the bytes json.dumps writes, with the texts of shared dicts spliced in."""

from __future__ import annotations

import copy
import json

from pi_core.providers import EncodedParts, encode_body, json_bytes


def _reference(payload: object) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def _payload() -> dict[str, object]:
    blocks = [{"type": "text", "text": 'héllo \u2028 "q"'}, {"n": 1e-7, "big": 10**30}]
    return {
        "model": "m",
        "messages": [
            {"role": "user", "content": blocks},
            {"role": "tool", "content": "x", "extra": None, "flag": True},
            {"role": "assistant", "content": [{"k": [1, 2.5, {"deep": ["é"]}]}]},
        ],
        "tools": [{"name": "read", "parameters": {"type": "object", 1: "int key"}}],
        "stream": True,
    }


def test_without_parts_and_with_the_true_texts_the_bytes_are_json_dumps() -> None:
    payload = _payload()
    assert encode_body(payload) == _reference(payload)
    parts = EncodedParts()
    messages = payload["messages"]
    assert isinstance(messages, list)
    for message in messages[1:]:
        parts.add(message, [json_bytes(message)])
    for block in messages[0]["content"]:  # the first message is encoded around its blocks
        data = json_bytes(block)
        parts.add(block, [data[:5], data[5:]])
    assert len(parts) == 4
    assert encode_body(payload, parts) == _reference(payload)
    odd_keys = {"k": 1, 2: "an int key", None: "a None key"}
    assert encode_body(odd_keys, parts) == _reference(odd_keys)


def test_a_noted_text_is_spliced_instead_of_encoding_the_dict_again() -> None:
    payload = _payload()
    messages = payload["messages"]
    assert isinstance(messages, list)
    parts = EncodedParts()
    parts.add(messages[1], [b'{"spliced"', b":1}"])
    body = json.loads(encode_body(payload, parts))
    assert body["messages"][1] == {"spliced": 1}
    assert body["messages"][0] == messages[0]


def test_copies_of_noted_dicts_are_encoded_in_full() -> None:
    payload = _payload()
    messages = payload["messages"]
    assert isinstance(messages, list)
    parts = EncodedParts()
    parts.add(messages[1], [b'{"stale":1}'])
    changed = copy.deepcopy(payload)  # what the payload hook gets, and may edit
    changed["messages"][1]["content"] = "edited"  # type: ignore[index]
    body = json.loads(encode_body(changed, parts))
    assert body["messages"][1]["content"] == "edited"
    assert encode_body(changed, parts) == _reference(changed)
