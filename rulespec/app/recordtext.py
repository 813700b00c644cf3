"""The audit and the review of a game record as text for the command line (the JSON is the API's)."""
from __future__ import annotations

from .reasons import pretty


def _problem(p: dict, file: str) -> str:
    at = f"{file}:{p['line']}" if p.get("line") is not None else file
    where = " ".join(x for x in (at, f"[{p['tag']}]" if p.get("tag") else "", p.get("path") or "") if x)
    return f"{where}: {p['message']}"


def _variant_lines(variants: list[dict]) -> list[str]:
    out = []
    for v in variants:
        how = {"given": "as asked", "options": "the record's options", "named": "the variant the record names",
               "default": "the record names no rules"}[v["chosen"]]
        base = f", extending {v['variant']['extends']}" if isinstance(v["variant"], dict) else ""
        out.append(f"variant: {v['id']} ({how}{base})")
        for o in v.get("options", []):
            mark = "mapped" if o["mapped"] else "NOT MAPPED"
            out.append(f"  option {o['option']}={o['value']}: {mark}: {o['why']}")
    return out


def _card(c: dict) -> str:
    return f"{c['seat']} {pretty(c['card'])}"


def _hand_lines(h: dict, file: str) -> list[str]:
    head = f"hand {h['hand']}" + (f" (line {h['line']})" if h.get("line") else "") + f", under {h.get('variant')}"
    if "problem" in h:
        return [head + ": not replayed", "  " + _problem(h["problem"], file)]
    bids = " ".join(f"{s} {b}" for s, b in h["bids"].items())
    before = ", ".join(f"{t} {v['score']} (bags {v['bags']})" for t, v in h["before"].items())
    out = [f"{head}: dealer {h['dealer']}, bids {bids}", f"  before: {before} ({h['before_from']})"]
    out += [f"  note: {n}" for n in h.get("notes", [])]
    for t in h["tricks"]:
        out.append(f"  trick {t['number']:>2}: " + ", ".join(_card(c) for c in t["cards"])
                   + (f" -> {t['winner']}" if t["winner"] else ""))
    return out + _irregular_lines(h.get("first_irregular")) + _score_lines(h)


def _irregular_lines(irregular: dict | None) -> list[str]:
    if not irregular:
        return []
    where = f"line {irregular['line']}: " if irregular.get("line") else ""
    rule = f" [{irregular['rule']} @ {irregular['cite'] or 'not stated'}]" if irregular.get("rule") else ""
    what = irregular.get("why") or f"{irregular['seat']} {pretty(irregular['card'])}: {irregular['what']}"
    return [f"  FIRST IRREGULARITY: {where}{what} (ruling: {irregular.get('ruling')}){rule}"]


def _score_lines(h: dict) -> list[str]:
    out = []
    if h.get("score"):
        out.append("  score: " + "; ".join(f"{t} {v['points']:+d} -> {v['score']} (bags {v['bags']})"
                                           for t, v in h["score"].items()))
        game = h["game"]
        out.append("  game: " + (f"over, {game['winner'] or 'nobody'} wins ({game['reason']})" if game["over"]
                                 else "goes on"))
        platform = h["platform"]
        out.append("  platform: " + (", ".join(f"{t} {p:+d}" for t, p in platform["points"].items())
                                     + f" ({platform['how']})" if platform["checked"] else platform["how"]))
    elif h.get("running_note"):
        out.append(f"  score: not scored ({h['running_note']})")
    if h.get("after_game_over"):
        out.append(f"  NOTE: under the rules the game ended after hand {h['after_game_over']['after_hand']}")
    for d in h.get("differences", []):
        lines = "; ".join(f"{ln['rule']} @ {ln['cite']} {ln['points']:+d}" for ln in d["decided_by"]["lines"])
        out.append(f"  SCORE DIFFERS: {d['team']} platform {d['platform']:+d}, rule book {d['rule_book']:+d}: "
                   f"{d['decided_by']['why']}: {lines}")
    return out


def _heading(answer: dict, file: str) -> list[str]:
    """The record read (its problems), and the variants that judged it."""
    rec = answer["record"]
    out = [f"{file or 'record'}: {rec['format'].upper()}, {rec['hands']} hand(s) read"]
    return out + [_problem(p, file) for p in rec["problems"]] + _variant_lines(answer["variants"])


def audit_text(answer: dict, file: str = "") -> list[str]:
    """The audit, a few lines per hand."""
    out = _heading(answer, file)
    for h in answer["hands"]:
        out += _hand_lines(h, file)
    s, game = answer["summary"], answer["game"]
    out.append(f"summary: {s['hands']} hand(s), {s['scored']} scored, {s['irregular']} with an irregularity, "
               f"{s['not_replayed']} not replayed, {s['checked_against_platform']} checked against the platform's "
               f"score, {s['score_differs']} differ")
    out.append("game: " + ", ".join(f"{t} {v['score']} (bags {v['bags']})" for t, v in game["scores"].items())
               + (f"; over after hand {game['ended']['after_hand']}, {game['ended']['winner'] or 'nobody'} wins"
                  if game["over"] else ""))
    return out


def review_text(answer: dict, file: str = "") -> list[str]:
    """The review: each hand's costly cards."""
    out = _heading(answer, file)
    for h in answer["hands"]:
        head = f"hand {h['hand']}" + (f" (line {h['line']})" if h.get("line") else "") + f", under {h['variant']}"
        if "problem" in h:
            out += [head + ": not reviewed", "  " + _problem(h["problem"], file)]
            continue
        if "stopped" in h:
            out.append(f"{head}: the replay stops: {h['stopped']['why']}")
        spent = " (the search budget ran out)" if h.get("budget") else ""
        reach = ("every card" if h.get("complete") else
                 f"from trick {h.get('reviewed_from')} on{spent}" if h.get("reviewed_from") else f"no card{spent}")
        out.append(f"{head}: reviewed {reach}, {h.get('nodes', 0):,} nodes")
        out += [f"  {f['text']}" + (f" (line {f['line']})" if f.get("line") else "") for f in h.get("costly", [])]
        out += [f"  {f['text']}" for f in h.get("nils", [])]
        if h.get("complete") and not h.get("costly"):
            out.append("  no card cost a trick")
    return out
