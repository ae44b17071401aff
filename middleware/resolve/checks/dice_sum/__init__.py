"""The dice-sum (CHK-SUM): dice plus the sheet number against a difficulty.

``resolve.py`` reads the ask and throws; the rest of the folder is the kind's arithmetic and its
exact odds (``odds.py``, and ``chance.py`` before anything is thrown). Its ruleset model and import
audit are ``rules/kinds/``.
"""
