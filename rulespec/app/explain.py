"""Plain-text rendering of answers for the terminal: a scored hand line by line
with citations, the same hand under several variants side by side, and the
explanation trail of any answer.  Colour is added with ``click.style`` and
dropped by ``click.echo`` when the output is not a terminal; differences are
also marked with ``*`` so they show without colour."""
from __future__ import annotations

import re
from collections.abc import Mapping

import click

from ..core.cards import SEATS, TEAMS


def value_text(line: Mapping) -> str:
    """The value a trail line gave: signed points, yes/no, cards or a plain value."""
    if "points" in line:
        return f"{line['points']:+d}"
    value = line.get("value")
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(str(v) for v in value) or "(none)"
    return "none" if value is None else str(value)


def cite_text(line: Mapping) -> str:
    """``house §Nil``, ``001 §Scoring (inherited from standard)`` or why there is no citation; then each
    other rule whose value decided the line (``+ game.target house §Target``)."""
    own = _own_cite(line)
    return "".join([own, *(f" + {other['rule']} {_own_cite(other)}" for other in line.get("decided_by", ()))])


def _own_cite(line: Mapping) -> str:
    if line.get("cite"):
        text = str(line["cite"])
        if line.get("inherited_from"):
            text += f" (inherited from {line['inherited_from']})"
        return text
    note = str(line.get("note") or "the document is silent")
    inherited = line.get("inherited_from")
    if inherited:
        note = re.sub(rf"; not stated in [^;]*; inherited from {re.escape(inherited)}$", "", note)
        return f"[{note}] (inherited from {inherited})"
    return f"[{note}]"


def trail(lines: list[Mapping], indent: str = "  ") -> list[str]:
    """Aligned rows: rule, value, the reason in words (``reason``, else the engine's ``why``), citation."""
    rows = [(str(line.get("rule", "")), value_text(line), str(line.get("reason") or line.get("why", "")),
             cite_text(line)) for line in lines]
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    return [f"{indent}{rule:<{widths[0]}}  {value:>{widths[1]}}  {why:<{widths[2]}}  {cite}".rstrip()
            for rule, value, why, cite in rows]


def _seat_rows(ans: Mapping) -> list[str]:
    """The bids and tricks rows, seats aligned."""
    seats = [seat for seat in SEATS if seat in ans["bids"]]       # (the variant's table: three seats, or four)
    width = max(len(str(ans[key][seat])) for key in ("bids", "tricks") for seat in seats)
    return [f"  {key:<6}  " + "  ".join(f"{seat} {str(ans[key][seat]):<{width}}" for seat in seats).rstrip()
            for key in ("bids", "tricks")]


def _before(request: Mapping, sides=TEAMS) -> dict[str, tuple[int, int]]:
    """The scores and bags before the hand by side (``sides``: NS and EW, or each player alone)."""
    before = request.get("before") or {}
    return {team: (int((before.get(team) or {}).get("score", 0)), int((before.get(team) or {}).get("bags", 0)))
            for team in sides}


def game_text(game: Mapping) -> str:
    if game.get("over"):
        return f"game over: {game.get('winner')} wins ({game.get('reason')})"
    return f"game not over: {game.get('reason')}"


def render_score(ans: Mapping, request: Mapping) -> list[str]:
    """One scored hand, team by team, each line with its rule and citation."""
    out = [click.style(f"Hand scored under {ans['variant']}", bold=True),
           *_seat_rows(ans)]
    before = _before(request, list(ans["teams"]))
    for team in ans["teams"]:
        result = ans["teams"][team]
        score, bags = before[team]
        out.append("")
        out.append(click.style(team, bold=True))
        out.extend(trail(result["lines"]) or ["  (no points this hand)"])
        out.append(f"  = {result['points']:+d} this hand; score {score} -> {result['score']}, "
                   f"bags {bags} -> {result['bags']} ({result['bags_added']} added)")
    game = ans["game"]
    out += ["", click.style("Game", bold=True)]
    out.extend(trail([line for line in ans["explanation"] if "team" not in line]))
    out.append(f"  = {game_text(game)}")
    return out + irregularity_text(ans) + reading_text(ans)


def irregularity_text(ans: Mapping) -> list[str]:
    """The irregular cards of a replayed hand: kind, the rule broken, the ruling and its clause."""
    out = []
    for irr in ans.get("irregularities", ()):
        broken = irr.get("broken") or {}
        by = "; ".join(f"{d['rule']} {_own_cite(d)}" for d in irr.get("decided_by", ()))
        rule = f"{broken.get('rule')} {_own_cite(broken)}" if broken else "no rule named"
        out.append(f"  {irr['seat']} {irr['card']} ({irr['field']}): {irr['what']} ({rule}): "
                   f"{irr['ruling']} under {by}")
    return ["", click.style("Irregular cards", bold=True), *out] if out else []


def reading_text(ans: Mapping) -> list[str]:
    """The reading notes: each rule applied whose value is a reading, its clause and the alternative."""
    out = []
    for note in ans.get("readings", ()):
        where = f"{note['clause']}, {note['cite']}" if note.get("clause") else (note.get("cite") or "no citation")
        out.append(f"  {note['rule']} ({where}; {note['status']}): {note['reading']}")
        out.append(f"    alternative: {note.get('alternative') or 'none recorded'}")
    return ["", click.style("Readings", bold=True), *out] if out else []


def _rows(ruling: Mapping) -> dict[str, str]:
    """A ruling as label -> cell, in display order."""
    if "error" in ruling:
        return {"error": f"{ruling['error'].get('field')}: {ruling['error'].get('detail')}"}
    rows: dict[str, str] = {}
    for team in ruling["teams"]:
        result = ruling["teams"][team]
        seen: dict[str, int] = {}
        for line in result["lines"]:
            rule = str(line["rule"])
            seen[rule] = seen.get(rule, 0) + 1
            label = f"{team} {rule}" + (f" #{seen[rule]}" if seen[rule] > 1 else "")
            rows[label] = value_text(line)
        rows[f"{team} hand points"] = f"{result['points']:+d}"
        rows[f"{team} score"] = str(result["score"])
        rows[f"{team} bags"] = str(result["bags"])
    game = ruling["game"]
    rows["game over"] = "yes" if game.get("over") else "no"
    rows["winner"] = str(game.get("winner") or "-")
    return rows


def render_compare(result: Mapping, request: Mapping) -> list[str]:
    """The same hand under several variants; rows that differ start with ``*``."""
    names = list(result["rulings"])
    columns = {name: _rows(ruling) for name, ruling in result["rulings"].items()}
    first = next(iter(result["rulings"].values()))
    out = [click.style(f"Same hand under {len(names)} variants (* marks lines that differ)", bold=True)]
    if "bids" in first:
        out += _seat_rows(first)
    sides = next((list(r["teams"]) for r in result["rulings"].values() if "teams" in r), list(TEAMS))
    before = _before(request, sides)
    if any(before[team] != (0, 0) for team in sides):
        out.append("  before  " + "  ".join(f"{t} {s}/{b}" for t, (s, b) in before.items()))
    out += ["", *_compare_table(names, columns)]
    sentences = [text for diff in result["differences"] for text in diff.get("sentences", ())]
    if sentences:
        out[1:1] = [f"  {text}" for text in sentences] + [""]
    out += _differing_rules(names, result["differences"])
    out += ["", "Agree." if result["agree"] else "The variants disagree on the lines marked *."]
    return out


def _compare_table(names: list[str], columns: Mapping[str, Mapping[str, str]]) -> list[str]:
    """One column per variant, one row per answer line; rows that differ start with ``*``."""
    labels: list[str] = []
    for rows in columns.values():
        labels += [label for label in rows if label not in labels]
    order = {label: i for i, label in enumerate(labels)}
    labels.sort(key=lambda label: (_group(label), order[label]))
    width = max(len(label) for label in labels)
    widths = {name: max([len(name)] + [len(columns[name].get(label, "-")) for label in labels]) for name in names}
    out = [(f"  {'':<{width}}  " + "  ".join(f"{name:>{widths[name]}}" for name in names)).rstrip()]
    for label in labels:
        cells = [columns[name].get(label, "-") for name in names]
        differs = len(set(cells)) > 1
        text = f"{'*' if differs else ' '} {label:<{width}}  " + "  ".join(
            f"{cell:>{widths[name]}}" for cell, name in zip(cells, names))
        out.append(click.style(text, fg="yellow", bold=True) if differs else text)
    return out


def _differing_rules(names: list[str], differences: list[Mapping]) -> list[str]:
    """Each rule behind a difference, with its text and citation in each variant."""
    rules: dict[str, dict[str, dict]] = {}
    for diff in differences:
        for rule in diff["rules"]:
            rules.setdefault(rule["rule"], {}).update({n: rule[n] for n in names if n in rule})
    if not rules:
        return []
    out = ["", "Rules that differ:"]
    nw = max(len(name) for name in names)
    for rule, by_variant in sorted(rules.items()):
        out.append(f"  {rule}")
        out += [f"    {name:<{nw}}  {by_variant[name]['value']}  @ {by_variant[name]['cite'] or '[no citation]'}"
                for name in names if name in by_variant]
    return out


def _group(label: str) -> tuple[int, int]:
    """Team NS lines then its totals, the same for EW, then the game."""
    total = int(label.endswith((" hand points", " score", " bags")))
    for i, team in enumerate(_SIDES):
        if label.startswith(team + " "):
            return i, total
    return len(_SIDES), 0


_SIDES = (*TEAMS, *SEATS)      # the partnerships, then the players of a table without them
