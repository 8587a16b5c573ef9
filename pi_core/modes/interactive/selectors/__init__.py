"""Full-width pickers that take the editor's place: tree, sessions, models, settings."""
