"""Independent checkers (certificates) for every problem's answers.

A checker never calls a solving method: it re-derives what it needs with its
own small code, so a bug in a method cannot hide itself.
"""

from knightcert.problems.checkers.common import CheckFailed

__all__ = ["CheckFailed"]
