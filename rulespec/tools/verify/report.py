"""Render a verification record as Markdown, self-contained HTML or JSON."""
from __future__ import annotations

import html
import json


def _rules(rules: list[dict]) -> str:
    return "; ".join(f"`{r['rule']}` ({r.get('cite') or 'unspecified'})" for r in rules)


def _kv(data) -> str:
    return json.dumps(data, ensure_ascii=False)


def _problem_lines(title: str, items: list[dict], empty: str) -> list[str]:
    out = [f"## {title} ({len(items)})", ""]
    if not items:
        return out + [empty, ""]
    for i, f in enumerate(items, 1):
        out.append(f"{i}. **{f['phase']}**: {_rules(f['rules'])}, met in {f['occurrences']} explored state(s).")
        out.append(f"   - Why: {f['why']}")
        for r in f["rules"]:
            out.append(f"   - Clause `{r['rule']}` = `{r['text']}`" + (f" — {r['note']}" if r.get("note") else ""))
        if f.get("core"):
            out.append(f"   - Minimal state: `{_kv(f['core'])}`")
        kind = "minimal reachable example (shrunk by Hypothesis)" if f["example_is_minimal"] else "reachable example"
        out.append(f"   - {kind.capitalize()}: `{_kv(f['example'])}`")
    return out + [""]


def markdown(rec: dict) -> str:
    """A readable report of one variant's verification."""
    ex = rec["explored"]
    out = [f"# Verification of `{rec['variant']}` — {rec['title']}", "",
           f"Document {rec['doc'] or '(none)'}; variant chain {' > '.join(rec['chain'])}.", "",
           f"Explored: {ex['hands']} hands, {ex['play_states']} play states, {ex['bid_states']} bid states, "
           f"{ex['game_states']} game states, {ex['endgame_nodes']} endgame nodes from {ex['endgame_roots']} "
           f"positions searched exhaustively. Budget: `{_kv(rec['budget'])}`.", ""]
    out += [f"> {n}" for n in rec["notes"]]
    out += _problem_lines("Dead ends", rec["dead_ends"], "No reachable state leaves a player without a legal "
                          "card or bid.")
    out += _problem_lines("Conflicts", rec["conflicts"], "No explored state has two clauses demanding "
                          "different things.")
    out += _nontermination_lines(rec["nontermination"])
    out += [f"## Dead rules ({len(rec['dead_rules'])})", ""]
    out += [f"- `{d['rule']}` = `{d['text']}` ({d.get('cite') or 'unspecified'}): {d['why']}"
            for d in rec["dead_rules"]] or ["Every rule that can change an outcome did so in some explored state."]
    if rec["inert_rules"]:
        out += ["", "Inert by design (cannot change an outcome in this variant): "
                + ", ".join(f"`{d['rule']}`" for d in rec["inert_rules"]) + "."]
    out += _open_point_lines(rec["open_points"])
    out += ["", f"## Claims ({len(rec['claims'])})", ""]
    if not rec["claims"]:
        out.append("No claims of this document are encoded.")
    for c in rec["claims"]:
        verdict = "holds" if c["holds"] else "**fails**"
        out.append(f"- {c['cite']}: {c['claim']} — {verdict}.")
        if c["counterexample"]:
            out.append(f"  - Counterexample: `{_kv(c['counterexample'])}`")
        out.append(f"  - Holds under: {', '.join(c['holds_under']) or 'no bundled variant'}; fails under: "
                   f"{', '.join(c['fails_under']) or 'none'}.")
    return "\n".join(out) + "\n"


_CSS = ("body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.45}"
        "code{background:#f3f3f3;padding:0 .2rem;border-radius:3px;word-break:break-word}"
        "h1{font-size:1.5rem}h2{font-size:1.2rem;border-bottom:1px solid #ccc}blockquote{color:#555}")


def _nontermination_lines(nt: dict) -> list[str]:
    """The ways to play for ever that were found, and how random games ended."""
    out = [f"## Non-termination ({len(nt['witnesses'])})", ""]
    if not nt["witnesses"]:
        out.append("No way to play for ever was found.")
    for w in nt["witnesses"]:
        out.append(f"- **{w['kind']}** ({w['hands']} hand(s)): {w['why']}.")
        out.append(f"  - Hand: `{_kv(w['sequence'][0])}`")
        if w.get("totals"):
            out.append(f"  - Totals: `{_kv(w['totals'][:8])}`")
    rp = nt["random_play"]
    return out + ["", f"Random play: {rp['games_finished']} game(s) finished (longest {rp['longest_finished']} "
                  f"hands), {rp['games_unfinished']} still unfinished after {rp['unfinished_after']} hands.", ""]


def _open_point_lines(points: list[dict]) -> list[str]:
    """The open points (reading choices), each with its clause, the other reading and where it matters."""
    out = ["", f"## Open points ({len(points)})", ""]
    for p in points:
        head = f"`{p['rule']}` = `{p['text']}`" if p["rule"] else f"clause {p.get('clause')} ({p.get('section')})"
        out.append(f"- {head}: {p['reason']}")
        if p.get("clause_text"):
            out.append(f"  - Clause {p['clause']} ({p['status']}): {p['clause_text']}")
        if p.get("alternative"):
            out.append(f"  - The other reading: {p['alternative']}")
        m = p.get("matters")
        if m:
            out.append(f"  - Matters: with `{m['alternative_rule']}` the {m['question']} change in "
                       f"`{_kv(m['state'])}`: {_kv(m['as_encoded'])} as encoded, {_kv(m['alternative'])} "
                       "under the alternative.")
        elif p["rule"]:
            out.append("  - No explored state tells the readings tried apart"
                       + (f" (the encoded rule is inert: {p['inert']})." if p.get("inert") else "."))
    return out

def _inline(text: str) -> str:
    """Escape a Markdown line and render its `code` and **bold** spans."""
    parts = html.escape(text).split("`")
    for i in range(1, len(parts), 2):
        parts[i] = f"<code>{parts[i]}</code>"
    body = "".join(parts)
    while body.count("**") >= 2:
        body = body.replace("**", "<strong>", 1).replace("**", "</strong>", 1)
    return body


def to_html(md: str, title: str) -> str:
    """Self-contained HTML (no external assets) from the Markdown this module writes."""
    out, lists = [], 0
    for line in md.splitlines():
        stripped = line.strip()
        item = stripped.startswith("- ") or stripped[:1].isdigit() and ". " in stripped[:4]
        depth = (len(line) - len(line.lstrip(" "))) // 2 + 1 if item else 0
        while lists > depth:
            out.append("</ul>")
            lists -= 1
        while lists < depth:
            out.append("<ul>")
            lists += 1
        if item:
            out.append(f"<li>{_inline(stripped.split(' ', 1)[1])}</li>")
        elif stripped.startswith("#"):
            level = len(stripped) - len(stripped.lstrip("#"))
            out.append(f"<h{level}>{_inline(stripped[level:].strip())}</h{level}>")
        elif stripped.startswith("> "):
            out.append(f"<blockquote>{_inline(stripped[2:])}</blockquote>")
        elif stripped:
            out.append(f"<p>{_inline(stripped)}</p>")
    out.extend("</ul>" for _ in range(lists))
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body>\n" + "\n".join(out) + "\n</body></html>\n")


def to_json(rec: dict) -> str:
    return json.dumps(rec, indent=2, ensure_ascii=False, default=str) + "\n"
