"""Errors of the verifier."""
from __future__ import annotations

from ...errors import RulespecError


class VerifyError(RulespecError):
    """A verification request that cannot be run as given (budget, variant, output)."""
