"""Cut points and compaction preparation on hand-built branches with exact token sizes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_core.compaction import (
    CompactionSettings,
    compute_file_lists,
    context_messages,
    estimate_context_tokens,
    find_cut_point,
    prepare_compaction,
)
from pi_core.messages import AgentMessage, ToolResultMessage
from pi_core.resources.settings import CompactionSettings as SettingsFileCompaction
from pi_core.session.entries import SessionMessageEntry

if TYPE_CHECKING:
    from tests.compaction.conftest import Chain


def keep(tokens: int) -> CompactionSettings:
    return CompactionSettings(keep_recent_tokens=tokens)


def roles(messages: list[AgentMessage]) -> list[str]:
    return [m.role for m in messages]


def two_turns(chain: Chain) -> None:
    """e0-e4: a turn that reads a.py and edits b.py; e5-e10: a turn that reads c.py, writes d.py."""
    chain.user(10)
    chain.assistant(10, [("read", {"path": "a.py"})])
    chain.tool_result(1_000)
    chain.assistant(10, [("edit", {"path": "b.py", "edits": []})])
    chain.tool_result(1_000)
    chain.user(10)
    chain.assistant(5, [("read", {"path": "c.py"})])
    chain.tool_result(3_000)
    chain.assistant(5, [("write", {"path": "d.py", "content": ""})])
    chain.tool_result(3_000)
    chain.assistant(10)


def test_the_cut_never_lands_on_a_tool_result(chain: Chain) -> None:
    two_turns(chain)
    total = chain.tokens(0)
    for budget in range(0, total + 200, 7):
        cut = find_cut_point(chain.entries, 0, len(chain.entries), budget)
        first = chain.entries[cut.first_kept_entry_index]
        assert isinstance(first, SessionMessageEntry)
        assert not isinstance(first.message, ToolResultMessage), budget


def test_a_budget_reached_on_a_tool_result_moves_the_cut_forward(chain: Chain) -> None:
    two_turns(chain)
    # e10 (10) + e9 (3,000) reaches 3,000 on a tool result: the next valid point is e10
    cut = find_cut_point(chain.entries, 0, len(chain.entries), 3_000)
    assert cut.first_kept_entry_index == 10
    assert (cut.turn_start_index, cut.is_split_turn) == (5, True)


def test_keep_recent_tokens_is_honoured(chain: Chain) -> None:
    for _ in range(10):
        chain.user(100)
        chain.assistant(100)
    assert find_cut_point(chain.entries, 0, 20, 301).first_kept_entry_index == 16
    for budget in range(1, 2_000, 50):
        cut = find_cut_point(chain.entries, 0, 20, budget)
        kept_tokens = chain.tokens(cut.first_kept_entry_index)
        assert budget <= kept_tokens < budget + 100
    # more than the whole branch: keep everything
    assert find_cut_point(chain.entries, 0, 20, 10**6).first_kept_entry_index == 0


def test_a_cut_inside_a_turn_splits_it(chain: Chain) -> None:
    two_turns(chain)
    budget = chain.tokens(8)  # e8 (the assistant), e9 (3,000), e10 (10)

    preparation = prepare_compaction(chain.entries, keep(budget))

    assert preparation is not None
    assert preparation.first_kept_entry_id == "e8"
    assert preparation.is_split_turn
    assert roles(preparation.turn_prefix_messages) == ["user", "assistant", "toolResult"]
    assert roles(preparation.messages_to_summarize) == [
        "user",
        "assistant",
        "toolResult",
        "assistant",
        "toolResult",
    ]
    ops = preparation.file_ops
    assert (ops.read, ops.edited, ops.written) == ({"a.py", "c.py"}, {"b.py"}, set())


def test_a_cut_at_a_user_message_does_not_split(chain: Chain) -> None:
    two_turns(chain)
    preparation = prepare_compaction(chain.entries, keep(6_050))
    assert preparation is not None
    assert preparation.first_kept_entry_id == "e5"
    assert not preparation.is_split_turn
    assert preparation.turn_prefix_messages == []
    assert len(preparation.messages_to_summarize) == 5
    assert compute_file_lists(preparation.file_ops) == (["a.py"], ["b.py"])


def test_settings_entries_just_before_the_cut_are_kept(chain: Chain) -> None:
    chain.user(10)
    chain.assistant(10)
    chain.model_change()
    chain.user(500)
    chain.assistant(500)

    cut = find_cut_point(chain.entries, 0, 5, 1_000)

    assert cut.first_kept_entry_index == 2  # the model change, not the user message after it
    # as in pi 0.73.1, the cut entry is then not a user message, so the turn before counts as split
    assert (cut.turn_start_index, cut.is_split_turn) == (0, True)


def test_custom_and_bash_messages_are_cut_points_that_start_a_turn(chain: Chain) -> None:
    chain.user(10)
    chain.assistant(10)
    chain.custom_message(500)  # an entry of its own: the walk does not count it, as in pi
    chain.assistant(500)
    preparation = prepare_compaction(chain.entries, keep(500))
    assert preparation is not None
    # the budget is reached at e3; the custom message before it is kept with it
    assert preparation.first_kept_entry_id == "e2"
    assert preparation.is_split_turn and preparation.turn_prefix_messages == []
    assert roles(preparation.messages_to_summarize) == ["user", "assistant"]

    chain.bash(2_000)
    chain.assistant(10)
    cut = find_cut_point(chain.entries, 0, len(chain.entries), 2_000)
    assert (cut.first_kept_entry_index, cut.turn_start_index, cut.is_split_turn) == (4, 4, True)


def test_nothing_to_prepare_on_an_empty_branch_or_right_after_a_compaction(chain: Chain) -> None:
    assert prepare_compaction([], keep(10)) is None
    chain.user()
    chain.assistant()
    chain.compaction("e1")
    assert prepare_compaction(chain.entries, keep(1)) is None


def test_a_small_branch_keeps_everything_and_summarizes_nothing(chain: Chain) -> None:
    chain.user()
    chain.assistant()
    preparation = prepare_compaction(chain.entries, keep(20_000))
    # pi returns a preparation here too; it is the caller that finds nothing worth summarizing
    assert preparation is not None
    assert preparation.first_kept_entry_id == "e0"
    assert preparation.messages_to_summarize == []
    assert not preparation.is_split_turn


def with_previous_compaction(chain: Chain, from_hook: bool | None) -> None:
    chain.user(10)
    chain.assistant(10, [("read", {"path": "old.py"})])
    chain.tool_result(10)
    chain.user(10)  # e3: first kept by the previous compaction
    chain.assistant(10)
    chain.compaction(
        "e3",
        summary="what happened before",
        details={"readFiles": ["r.py"], "modifiedFiles": ["m.py"]},
        from_hook=from_hook,
    )
    chain.user(10)
    chain.assistant(10, [("edit", {"path": "y.py"})])
    chain.tool_result(10)
    chain.user(1_000)  # e9
    chain.assistant(10, total=5_000)
    chain.user(40)


def test_the_previous_summary_and_its_files_carry_forward(chain: Chain) -> None:
    with_previous_compaction(chain, from_hook=None)

    preparation = prepare_compaction(chain.entries, keep(1_000))

    assert preparation is not None
    assert preparation.first_kept_entry_id == "e9"
    assert preparation.previous_summary == "what happened before"
    # from the previous compaction's first kept entry on, the compaction itself left out
    assert roles(preparation.messages_to_summarize) == [
        "user",
        "assistant",
        "user",
        "assistant",
        "toolResult",
    ]
    ops = preparation.file_ops
    assert ops.read == {"r.py"}  # old.py was summarized by the previous compaction already
    assert ops.edited == {"m.py", "y.py"}
    assert compute_file_lists(ops).to_details() == {
        "readFiles": ["r.py"],
        "modifiedFiles": ["m.py", "y.py"],
    }
    # the context before: the summary, e3-e4, everything after the compaction
    messages = context_messages(chain.entries)
    assert roles(messages)[:3] == ["compactionSummary", "user", "assistant"]
    assert preparation.tokens_before == estimate_context_tokens(messages).tokens == 5_000 + 40


def test_details_of_a_plugin_compaction_are_not_carried(chain: Chain) -> None:
    with_previous_compaction(chain, from_hook=True)
    preparation = prepare_compaction(chain.entries, keep(1_000))
    assert preparation is not None
    assert preparation.previous_summary == "what happened before"
    assert (preparation.file_ops.read, preparation.file_ops.edited) == (set(), {"y.py"})


def test_a_missing_first_kept_entry_starts_after_the_previous_compaction(chain: Chain) -> None:
    chain.user(10)
    chain.assistant(10)
    chain.compaction("gone")
    chain.user(10)
    chain.assistant(10)
    chain.user(1_000)
    preparation = prepare_compaction(chain.entries, keep(1_000))
    assert preparation is not None
    assert preparation.first_kept_entry_id == "e5"
    assert roles(preparation.messages_to_summarize) == ["user", "assistant"]


def test_the_settings_file_model_is_accepted(chain: Chain) -> None:
    chain.user()
    chain.assistant()
    preparation = prepare_compaction(chain.entries, SettingsFileCompaction(keep_recent_tokens=5))
    assert preparation is not None
    assert preparation.settings == CompactionSettings(keep_recent_tokens=5)
    wire = preparation.to_wire()
    assert wire["settings"] == {"enabled": True, "reserveTokens": 16_384, "keepRecentTokens": 5}
    assert {"firstKeptEntryId", "messagesToSummarize", "isSplitTurn", "fileOps"} <= set(wire)
