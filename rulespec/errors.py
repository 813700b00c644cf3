"""Every exception class of the package, in one hierarchy.

The root is ``RulespecError`` (a ``ValueError``); there is one subclass per
kind of problem, and each carries the position or field it has (a rule
text's line and column, a rules file's problems, a request's field, a command
option).  The message holds the context a user needs to fix the input: file,
line, column, the offending line with a caret, the rule name and a suggestion
where one can be made::

    RulespecError
    ├── CardError             a card, seat or deal
    ├── CompileError          a rule text (line, column, suggestion)
    ├── LimitError            a rule that could take too long or give too large a number (line, column)
    ├── BudgetExceeded        a request's rule evaluation used up its step or time allowance
    ├── RulesFileError        a rules (variant) file (problems)
    ├── UnknownVariantError   a variant id or path
    ├── GameError             a game situation (field, rule, cite, details)
    │   ├── DeadEndError      no legal move left
    │   └── InputError        a request to answer
    ├── SituationError        a command-line situation option (option)
    ├── FileError             an input file (file, line)
    │   ├── ScenarioFileError a scenario (test case) file
    │   ├── DealFileError     a deal or deals file
    │   └── RecordFileError   a game record file that cannot be read at all (size, format)
    ├── RecordError           one game record, or a part of it, that cannot be read (path)
    ├── DiffError             a differential run's set-up
    ├── VerifyError           a verification request
    └── EngineError           another Spades engine that cannot be loaded or driven (conformance)
"""
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
    field: str | None = None      # JSON path of the value, for rules sent inside a request

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


class CompileError(RulespecError):
    """A rule text that does not parse or type-check; positions are 1-based
    within the rule text; ``hint`` says what to write instead (by default, the suggestion)."""

    def __init__(self, message: str, line: int = 1, column: int = 1, suggestion: str | None = None,
                 hint: str | None = None):
        self.message, self.line, self.column, self.suggestion = message, line, column, suggestion
        self.hint = hint or (f"did you mean '{suggestion}'?" if suggestion else None)
        super().__init__(f"{line}:{column}: {message}" + (f" ({self.hint})" if self.hint else ""))


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


class SituationError(RulespecError):
    """A --bids, --tricks or --before value that cannot be read; says which
    option and item, and shows an ``example`` of a good value."""

    def __init__(self, option: str, message: str, example: str):
        self.option = option
        super().__init__(f"{option}: {message} (e.g. {option} {example})")


class FileError(RulespecError):
    """A problem in an input file; ``file`` and ``line`` (1-based) locate it where known.
    The message already names them."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        self.file, self.line = file, line
        super().__init__(message)


class ScenarioFileError(FileError):
    """A scenario file or case that is malformed."""


class DealFileError(FileError):
    """A deal (or deals file) that cannot be read."""


class RecordFileError(FileError):
    """A game record file that cannot be read at all: too large, not text, or of no format known here."""


class RecordError(RulespecError):
    """One hand of a game record that cannot be read; ``path`` locates the problem inside it (a JSON path
    such as ``play[3][2]``, or empty for the whole hand)."""

    def __init__(self, message: str, path: str = ""):
        self.message, self.path = message, path
        super().__init__(f"{path}: {message}" if path else message)


class JitUnavailable(RuntimeError):
    """numba is not installed (or cannot be imported) here, or there is no folder for its cache."""


class ProcedureError(RulespecError):
    """The lowered form of the hand (or a rule put into it) cannot be written for a back end: what and where."""


class NativeRuleError(RulespecError):
    """A variant the compiled scalar engine cannot run: one of its rules (``rule``) uses a construct
    that has no equivalent in numba's typed subset (or a step of its hand is not supported there)."""

    def __init__(self, variant: str, rule: str, why: str):
        self.variant, self.rule, self.why = variant, rule, why
        super().__init__(f"variant '{variant}' cannot run on the compiled engine: rule {rule}: {why}")


class DiffError(RulespecError):
    """A differential run that cannot be set up."""


class LimitError(RulespecError):
    """A rule expression that could take too long or produce too large a number (found at compile time).

    ``line``/``column`` are 1-based within the rule text."""

    def __init__(self, message: str, line: int = 1, column: int = 1, suggestion: str | None = None):
        self.message, self.line, self.column, self.suggestion = message, line, column, suggestion
        super().__init__(f"{line}:{column}: {message}")


class BudgetExceeded(RulespecError):
    """A request's evaluation used up its step or time allowance (``spent``: "steps" or "time"), or would
    (``spent``: "work", refused before it starts); ``field`` is the input that asks for the work."""

    def __init__(self, message: str, field: str = "variant", spent: str = "steps"):
        self.field, self.spent = field, spent
        super().__init__(message)


class VerifyError(RulespecError):
    """A verification request that cannot be run as given (budget, variant, output)."""


class EngineError(RulespecError):
    """Another Spades engine (an adapter or a recorded file) that cannot be loaded or driven."""


class SearchBudgetError(InputError):
    """A double-dummy search spent its node or time budget before it had an answer."""
