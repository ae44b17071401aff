"""Ruleset models and their loader: a file is checked whole and refused with every problem."""

from middleware.rules.load import load_ruleset, ruleset_json_schema, validate_ruleset
from middleware.rules.ruleset import Ruleset

__all__ = ["Ruleset", "load_ruleset", "ruleset_json_schema", "validate_ruleset"]
