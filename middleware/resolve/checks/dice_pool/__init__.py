"""The dice-pool (CHK-POOL): the sheet number in dice, each reaching a target is a success.

``resolve.py`` reads the ask and throws; the rest of the folder is the kind's arithmetic and its
exact odds (``odds.py``, worked by ``chain.py``, ``once.py`` and ``dice.py`` on ``packed.py``'s
packed polynomials, and ``chance.py`` before anything is thrown). Its ruleset model and import
audit are ``rules/kinds/``.
"""
