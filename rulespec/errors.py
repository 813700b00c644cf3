"""Exception classes.  All are ``ValueError`` subclasses whose message carries
the context a user needs to fix the input: file, line, column, the offending
line with a caret, the rule name and a suggestion where one can be made."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from collections.abc import Iterable


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """The closest choice to ``word``, if one is close enough."""
    matches = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return matches[0] if matches else None


@dataclass
class Problem:
    """One problem found in a rules file: where, what, and how to fix it."""
    message: str
    file: str = "<string>"
    line: int | None = None
    column: int | None = None
    rule: str | None = None
    source_line: str | None = None
    suggestion: str | None = None
    kind: str = "error"

    def format(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        head = f"{where}: {self.kind}: "
        if self.rule:
            head += f"rule '{self.rule}': "
        text = head + self.message
        if self.source_line is not None and self.column is not None:
            text += f"\n    {self.source_line}\n    {' ' * (self.column - 1)}^"
        if self.suggestion:
            text += f"\n    hint: {self.suggestion}"
        return text

    def as_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}


class RulespecError(ValueError):
    """Base class of every error this package raises on bad input."""


class CardError(RulespecError):
    """A card, seat or deal that cannot be parsed or is impossible."""


class RulesFileError(RulespecError):
    """A rules (variant) file with one or more problems; ``problems`` lists them all."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.file, p.line or 0, p.column or 0))
        super().__init__("\n".join(p.format() for p in self.problems))


class UnknownVariantError(RulespecError):
    """A variant id or path that names no variant."""


class GameError(RulespecError):
    """An impossible or illegal game situation (bad bid, illegal card, …).

    ``field`` is the path of the offending input (e.g. ``bids.N``); ``rule``
    and ``cite`` name the rule that refuses it, where one does."""

    def __init__(self, message: str, field: str = "", rule: str | None = None,
                 cite: str | None = None, details: dict | None = None):
        self.message, self.field, self.rule, self.cite = message, field, rule, cite
        self.details = details or {}
        where = f"{field}: " if field else ""
        why = f" ({rule} @ {cite})" if rule and cite else ""
        super().__init__(f"{where}{message}{why}")


class DeadEndError(GameError):
    """The rules leave a player no legal move."""


class InputError(GameError):
    """A request that cannot be answered as given; ``field`` locates the problem."""


class SearchBudgetError(InputError):
    """A double-dummy search spent its node or time budget before it had an answer."""
