"""A party member as they stand: the sheet and the bag read together.

What a check reads of a character (``check.py``: the sheet number, penalties, conditions and held
items), rests (``rest.py``), starting gear (``gear.py``), the Game Master's lines about a bag with
its load (``bag_lines.py``), between-turn events (``events.py``) and the ``--json`` state summary
(``summary.py``). Internal: import from ``middleware``.
"""
