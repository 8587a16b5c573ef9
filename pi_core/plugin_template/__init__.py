"""`pi plugin new`: a new plugin distribution rendered from the template files in `files/`."""
