"""What the summarizer is told: our wording, in the section structure pi 0.73.1 uses, so a summary
written by either reads the same to the other."""

SYSTEM_PROMPT = (
    "You write context checkpoints. What you receive is the record of a coding session in which "
    "a person worked with an AI assistant; you answer with a summary of it laid out exactly as "
    "asked.\n\n"
    "The transcript is material to summarize, not a conversation you take part in: do not "
    "continue it, do not answer questions asked in it. Reply with the summary and nothing else."
)

_SECTIONS = """## Goal
[{goal}]

## Constraints & Preferences
- [{constraints}]

## Progress
### Done
- [x] [{done}]

### In Progress
- [ ] [{in_progress}]

### Blocked
- [{blocked}]

## Key Decisions
- **[Decision]**: [{decisions}]

## Next Steps
1. [{next_steps}]
"""

_CRITICAL_CONTEXT = """
## Critical Context
- [{critical}]
"""

_CLOSING = (
    "\nBe brief in every section. Quote file paths, function names and error messages exactly."
)

SUMMARY_PROMPT = (
    "Summarize the conversation above as a checkpoint from which another model will carry on "
    "the work.\n\nAnswer in exactly this format:\n\n"
    + _SECTIONS.format(
        goal="The user's aim; list several if the session pursued more than one task",
        constraints='Requirements, constraints and preferences the user stated, or "(none)"',
        done="Finished tasks and changes",
        in_progress="Work under way",
        blocked="Anything stopping progress, if there is",
        decisions="Short reason for it",
        next_steps="What to do next, in order",
    )
    + _CRITICAL_CONTEXT.format(critical='Data, examples or references needed to go on, or "(none)"')
    + _CLOSING
)

UPDATE_PROMPT = (
    "The conversation above is NEW: it follows the summary given in <previous-summary>. Update "
    "that summary with it.\n\nRules:\n"
    "- KEEP everything in the previous summary that still holds\n"
    "- ADD the progress, decisions and context the new messages bring\n"
    '- MOVE items from "In Progress" to "Done" once they are finished\n'
    '- REVISE "Next Steps" to match what was achieved\n'
    "- QUOTE file paths, function names and error messages exactly\n"
    "- DROP what no longer matters\n\nAnswer in exactly this format:\n\n"
    + _SECTIONS.format(
        goal="The goals so far, plus any new one if the task grew",
        constraints="The constraints so far, plus new ones",
        done="Items done before AND items finished since",
        in_progress="Work under way now",
        blocked="Blockers that remain; drop resolved ones",
        decisions="Short reason for it (keep earlier decisions, add new ones)",
        next_steps="What to do next, given where things stand",
    )
    + _CRITICAL_CONTEXT.format(critical="Context still needed, plus anything new")
    + _CLOSING
)

TURN_PREFIX_PROMPT = (
    "The conversation above is the BEGINNING of one turn that was too long to keep. Its END "
    "(the latest work) stays in the context.\n\n"
    "Summarize the beginning so that the end can be understood:\n\n"
    "## Original Request\n[What the user asked for in this turn]\n\n"
    "## Early Progress\n- [Decisions taken and work done in the beginning]\n\n"
    "## Context for Suffix\n- [What is needed to follow the kept end of the turn]\n\n"
    "Be brief: only what the kept end needs."
)

BRANCH_PROMPT = (
    "Summarize this branch of the conversation so that it can be picked up again later.\n\n"
    "Answer in exactly this format:\n\n"
    + _SECTIONS.format(
        goal="What the user tried to achieve on this branch",
        constraints='Requirements, constraints and preferences stated, or "(none)"',
        done="Finished tasks and changes",
        in_progress="Work started and not finished",
        blocked="Anything stopping progress, if there is",
        decisions="Short reason for it",
        next_steps="What to do next to carry on",
    ).rstrip("\n")
    + "\n"
    + _CLOSING
)

BRANCH_SUMMARY_PREAMBLE = (
    "The user explored a different conversation branch before returning here.\n"
    "Summary of that exploration:\n\n"
)
"""Put before every branch summary, word for word as pi writes it: the stored text is the same."""

SPLIT_TURN_JOIN = "\n\n---\n\n**Turn Context (split turn):**\n\n"
"""Between the history summary and the turn-prefix summary, as pi stores it."""

NO_PRIOR_HISTORY = "No prior history."
NO_BRANCH_CONTENT = "No content to summarize"
