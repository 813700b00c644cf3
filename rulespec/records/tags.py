"""Tag pairs and their sections: the layout PBN and PTN share.

A record is a run of tag pairs ``[Name "value"]``, each followed by the lines of its section (the calls
after ``[Auction]``, the cards after ``[Play]``).  Records are separated by an empty line; an ``[Event]``
or a second ``[Deal]`` in a record that already has a deal starts the next one too (Trickster's own
reader starts a record at each Event).  Lines starting with ``%`` are skipped.  PBN also has comments:
``;`` to the end of the line and ``{ … }`` (which may span lines), outside strings.  A PTN tag value is
everything between the line's first and last quote (Trickster writes JSON with its quotes unescaped
there), ``\\"`` and ``\\\\`` unescaped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .model import RecordProblem, Where

_PBN_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_PTN_NAME = re.compile(r"\[\s*([A-Za-z0-9_]+)")


@dataclass
class Tag:
    name: str
    value: str
    line: int
    data: list[tuple[int, str]] = field(default_factory=list)    # the section's lines: (line, text)


@dataclass
class Game:
    """One record's tags in the order written (the first of each name is the one read)."""
    number: int
    line: int
    tags: list[Tag] = field(default_factory=list)
    problems: list[RecordProblem] = field(default_factory=list)

    def get(self, name: str) -> Tag | None:
        return next((t for t in self.tags if t.name == name), None)

    def has(self, name: str) -> bool:
        return self.get(name) is not None


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


class _Splitter:
    """Cuts a text into games, line by line."""

    def __init__(self, pbn: bool):
        self.pbn = pbn
        self.games: list[Game] = []
        self.current: Game | None = None
        self.in_brace = False

    def game(self, line: int) -> Game:
        if self.current is None:
            self.current = Game(len(self.games) + 1, line)
            self.games.append(self.current)
        return self.current

    def end_game(self) -> None:
        self.current = None

    def strip_comments(self, text: str) -> str:
        """``text`` without PBN comments (a brace comment may continue from the line before)."""
        out, i, quoted = [], 0, False
        while i < len(text):
            ch = text[i]
            if self.in_brace:
                self.in_brace = ch != "}"
            elif quoted:
                out.append(ch)
                if ch == "\\" and i + 1 < len(text):
                    out.append(text[i + 1])
                    i += 1
                elif ch == '"':
                    quoted = False
            elif ch == ";":
                break
            elif ch == "{":
                self.in_brace = True
            else:
                quoted = ch == '"'
                out.append(ch)
            i += 1
        return "".join(out)

    def feed(self, number: int, raw: str) -> None:
        if raw.lstrip().startswith("%") and not self.in_brace:
            return
        text = self.strip_comments(raw) if self.pbn else raw
        if not text.strip():
            if not self.in_brace and not raw.strip():
                self.end_game()
            return
        stripped = text.strip()
        if stripped.startswith("["):
            self.tags(number, stripped)
        elif self.current is not None and self.current.tags:
            self.current.tags[-1].data.append((number, stripped))
        else:
            self.game(number).problems.append(RecordProblem(
                f"text outside any tag: {stripped[:40]!r}", Where(number), len(self.games)))

    def tags(self, number: int, text: str) -> None:
        found = self.pbn_tags(text) if self.pbn else self.ptn_tag(text)
        if not found:
            self.game(number).problems.append(RecordProblem(
                f"not a tag pair: {text[:60]!r} (write [Name \"value\"])", Where(number), len(self.games)))
            return
        for name, value, rest in found:
            game = self.current
            if game is not None and game.has("Deal") and (name == "Event" or name == "Deal"):
                self.end_game()
            game = self.game(number)
            game.tags.append(Tag(name, value, number))
            if rest:
                game.tags[-1].data.append((number, rest))

    def pbn_tags(self, text: str) -> list[tuple[str, str, str]]:
        out, at = [], 0
        for match in _PBN_TAG.finditer(text):
            if text[at:match.start()].strip():
                return []
            out.append([match.group(1), _unescape(match.group(2)), ""])
            at = match.end()
        if out:
            out[-1][2] = text[at:].strip()
        return [tuple(t) for t in out]

    def ptn_tag(self, text: str) -> list[tuple[str, str, str]]:
        name = _PTN_NAME.match(text)
        first, last = text.find('"'), text.rfind('"')
        if name is None or first < 0 or last == first:
            return []
        rest = text[last + 1:].strip().removeprefix("]").strip()
        return [(name.group(1), _unescape(text[first + 1:last]), rest)]


def split_games(text: str, pbn: bool) -> list[Game]:
    """The games (records) of a PBN (``pbn``) or PTN text, with their tags and sections."""
    splitter = _Splitter(pbn)
    for number, raw in enumerate(text.splitlines(), 1):
        splitter.feed(number, raw)
    return [g for g in splitter.games if g.tags or g.problems]
