"""The sheet read from a ruleset: abilities, skills, saves, derived values, fields, lists, pools,
tracks, conditions and their effects, evaluated once per build (SHEET-EVAL); party entries read
strictly (transcripts) or tolerantly (the peer's exports). Internal: import from ``middleware``.
"""
