"""The symbol-pool (CHK-SYM): narrative dice whose symbols count and cancel.

``resolve.py`` reads the ask and throws; the rest of the folder is the kind's arithmetic and its
exact odds (``odds.py``, and ``chance.py`` before anything is thrown). Its ruleset model and import
audit are ``rules/kinds/``.
"""
