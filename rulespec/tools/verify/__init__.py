"""Verify a rules document against itself: dead ends, conflicts,
non-termination, dead rules, open points and the document's own claims."""
from ...errors import VerifyError
from .run import verify
from .states import Budget

__all__ = ["Budget", "VerifyError", "verify"]
