"""Fakes (ITM-FAKE): what a fake is and how it passes (``goods.py``), the checks that betray it
(``tells.py``), noticing one before paying (``notice.py``), and the ``inspect`` and ``reveal``
actions that see through it (``inspect.py``)."""
