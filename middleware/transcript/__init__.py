"""Transcripts: saved games replayed through the real pipeline (SPEC §4)."""

from middleware.transcript.replay import Prepared, Step, prepare, replay

__all__ = ["Prepared", "Step", "prepare", "replay"]
