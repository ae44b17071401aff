"""Branch blocks (opt-in per game): after a ``[skill_check:]`` the Game Master writes a section per
outcome, ``[on success] … [on failure] … [/branch]``, and the check's result keeps one of them.

Pure, in pipeline order: ``read_blocks`` groups a reply's pieces into blocks, ``choose`` picks the
section a check's record selects (``BranchRecord`` says what was kept and what went wrong). The
pipeline (``resolve_reply``) resolves the tags of the kept section only, after the check.
"""

from middleware.resolve.branch.blocks import Block, BlockReader, Item, Section, read_blocks
from middleware.resolve.branch.choose import Chosen, choose
from middleware.resolve.branch.record import BranchRecord

__all__ = ["Block", "BlockReader", "BranchRecord", "Chosen", "Item", "Section", "choose", "read_blocks"]
