"""pi batch: many headless pi sessions from a JSONL task file, resumable and budgeted."""
