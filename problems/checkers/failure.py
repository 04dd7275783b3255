"""The checkers' one rejection: :class:`CheckFailed`, naming the claim and why."""

from __future__ import annotations

from knightcert.problems.errors import KnightcertError

__all__ = ["CheckFailed"]


class CheckFailed(KnightcertError):
    """An answer (or its certificate) that the checker rejects.

    Parameters
    ----------
    message : str
        Why, in words (``"step 3: (0, 0) -> (1, 1) is not a knight move"``).
    claim : str
        Which claim is rejected: ``"answer"``, ``"optimal"``, ``"infeasible"`` or ``"bound"``.
    """

    def __init__(self, message: str, claim: str = "answer") -> None:
        self.claim = claim
        self.reason = message
        super().__init__(message)

    def describe(self) -> str:
        """``answer rejected: ...`` or ``optimal claim rejected: ...`` (one line)."""
        what = "answer" if self.claim == "answer" else f"{self.claim} claim"
        return f"{what} rejected: {self.reason}"
