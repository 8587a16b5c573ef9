"""tree-sitter's bash grammar and a parser for it, built when the plugin loads.

The claude plugin imports this module at load, so a missing or broken `tree-sitter` /
`tree-sitter-bash` wheel fails the plugin's load (and so pi's start), never a permission check;
the parser's users (`shell`, `bash_policy`, `readonly`) are imported on the first Bash decision.
"""

from __future__ import annotations

import tree_sitter_bash
from tree_sitter import Language, Parser

BASH_PARSER = Parser(Language(tree_sitter_bash.language()))
"""The one bash parser every permission check uses."""
