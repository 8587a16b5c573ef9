"""Collecting the branch left behind by tree navigation, and fitting it into a summary budget."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_core.compaction import collect_entries_for_branch_summary, prepare_branch_entries
from pi_core.messages import AssistantMessage, TextContent, ToolCall, UserMessage
from pi_core.session import SessionManager

if TYPE_CHECKING:
    from tests.compaction.conftest import Chain


def say(session: SessionManager, text: str) -> str:
    return session.append_message(UserMessage(content=text))


def answer(session: SessionManager, text: str) -> str:
    return session.append_message(AssistantMessage(content=[TextContent(text=text)]))


def test_entries_from_the_old_leaf_back_to_the_common_ancestor() -> None:
    session = SessionManager.in_memory()
    say(session, "one")
    fork = answer(session, "two")
    u2 = say(session, "three")
    old_leaf = answer(session, "four")
    session.branch(fork)
    say(session, "other")
    target = answer(session, "path")

    entries, common = collect_entries_for_branch_summary(session, old_leaf, target)

    assert common == fork
    assert [e.id for e in entries] == [u2, old_leaf]


def test_navigating_to_an_ancestor_collects_what_lies_below_it() -> None:
    session = SessionManager.in_memory()
    first = say(session, "one")
    a1 = answer(session, "two")
    u2 = say(session, "three")
    a2 = answer(session, "four")

    result = collect_entries_for_branch_summary(session, a2, first)

    assert result.common_ancestor_id == first
    assert [e.id for e in result.entries] == [a1, u2, a2]
    assert collect_entries_for_branch_summary(session, a2, a2) == ([], a2)


def test_no_old_leaf_means_nothing_to_summarize() -> None:
    session = SessionManager.in_memory()
    target = say(session, "one")
    assert collect_entries_for_branch_summary(session, None, target) == ([], None)


def test_separate_roots_share_no_ancestor() -> None:
    session = SessionManager.in_memory()
    u1 = say(session, "one")
    a1 = answer(session, "two")
    session.reset_leaf()
    target = say(session, "a new root")
    entries, common = collect_entries_for_branch_summary(session, a1, target)
    assert common is None
    assert [e.id for e in entries] == [u1, a1]


def test_branch_preparation_skips_tool_results_and_keeps_the_newest_within_budget(
    chain: Chain,
) -> None:
    chain.user(100)
    chain.assistant(10, [("read", {"path": "early.py"})])
    chain.tool_result(500)
    chain.branch_summary(50, details={"readFiles": ["r.py"], "modifiedFiles": ["m.py"]})
    chain.user(100)
    chain.assistant(100)

    everything = prepare_branch_entries(chain.entries)
    assert [m.role for m in everything.messages] == [
        "user",
        "assistant",
        "branchSummary",
        "user",
        "assistant",
    ]
    # the assistant: 40 characters of text, "read", {"path":"early.py"}: 63 / 4, rounded up
    assert everything.total_tokens == 100 + 16 + 50 + 100 + 100

    within = prepare_branch_entries(chain.entries, token_budget=240)
    # 200 fit; the summary (50) passes the budget but is squeezed in (200 < 90% of 240)
    assert [m.role for m in within.messages] == ["branchSummary", "user", "assistant"]
    assert within.total_tokens == 250
    assert within.file_ops.read == {"r.py"}  # from the summary's details
    assert within.file_ops.edited == {"m.py"}

    # the message that no longer fits still contributes its tool calls' files, as in pi
    over = prepare_branch_entries(chain.entries, token_budget=260)
    assert [m.role for m in over.messages] == ["branchSummary", "user", "assistant"]
    assert over.file_ops.read == {"r.py", "early.py"}

    tight = prepare_branch_entries(chain.entries, token_budget=210)
    assert [m.role for m in tight.messages] == ["user", "assistant"]


def test_compactions_inside_a_branch_become_summaries() -> None:
    session = SessionManager.in_memory()
    say(session, "one")
    kept = answer(session, "two")
    session.append_compaction("compacted", kept, 99, {"readFiles": ["x.py"]})
    session.append_message(
        AssistantMessage(content=[ToolCall(id="1", name="write", arguments={"path": "w.py"})])
    )
    entries, _ = collect_entries_for_branch_summary(session, session.get_leaf_id(), kept)
    prepared = prepare_branch_entries(entries)
    assert [m.role for m in prepared.messages] == ["compactionSummary", "assistant"]
    # only branch summaries carry their details forward here, as in pi
    assert (prepared.file_ops.read, prepared.file_ops.written) == (set(), {"w.py"})
