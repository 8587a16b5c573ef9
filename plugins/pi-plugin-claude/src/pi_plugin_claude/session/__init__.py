"""Where pi-claude's conversations live: pi session files and Claude Code transcripts."""
