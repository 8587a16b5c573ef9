"""Session persistence: pi's JSONL tree format."""

from pi_core.session.context import ModelRef, SessionContext, build_session_context
from pi_core.session.entries import (
    CURRENT_SESSION_VERSION,
    BranchSummaryEntry,
    CompactionEntry,
    CustomEntry,
    CustomMessageEntry,
    LabelEntry,
    ModelChangeEntry,
    SessionEntry,
    SessionHeader,
    SessionInfoEntry,
    SessionMessageEntry,
    ThinkingLevelChangeEntry,
)
from pi_core.session.jsonl import SessionFileError
from pi_core.session.listing import SessionInfo, list_all_sessions, list_sessions
from pi_core.session.manager import SessionManager, TreeNode
from pi_core.session.paths import default_session_dir, encode_cwd

__all__ = [
    "CURRENT_SESSION_VERSION",
    "BranchSummaryEntry",
    "CompactionEntry",
    "CustomEntry",
    "CustomMessageEntry",
    "LabelEntry",
    "ModelChangeEntry",
    "ModelRef",
    "SessionContext",
    "SessionEntry",
    "SessionFileError",
    "SessionHeader",
    "SessionInfo",
    "SessionInfoEntry",
    "SessionManager",
    "SessionMessageEntry",
    "ThinkingLevelChangeEntry",
    "TreeNode",
    "build_session_context",
    "default_session_dir",
    "encode_cwd",
    "list_all_sessions",
    "list_sessions",
]
