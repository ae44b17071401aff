"""Import audits: the rules of a ruleset file that compare one part with another, each problem
with its JSON path (CHK-IMPORT, SHEET-IMPORT, ITM-IMPORT). What a single check kind may not do is
audited beside its model, in ``rules/kinds/``.
"""
