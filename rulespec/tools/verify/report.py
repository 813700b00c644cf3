"""Render a verification record as Markdown, self-contained HTML or JSON."""
from __future__ import annotations

import html
import json

from ..tables import CSS as TABLE_CSS, reflow_table


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
        kind = ("shortest bid sequence (every bid sequence searched)" if "bid_sequence" in f["example"]
                else "minimal reachable example (shrunk by Hypothesis)" if f["example_is_minimal"]
                else "reachable example")
        out.append(f"   - {kind.capitalize()}: `{_kv(f['example'])}`")
    return out + [""]


def markdown(rec: dict) -> str:
    """A readable report of one variant's verification."""
    ex = rec["explored"]
    out = [f"# Verification of `{rec['variant']}` — {rec['title']}", "",
           f"Document {rec['doc'] or '(none)'}; variant chain {' > '.join(rec['chain'])}.", "",
           f"Explored: {ex['hands']} hands, {ex['play_states']} play states, {ex['bid_states']} bid states, "
           f"{ex['game_states']} game states, {ex['endgame_nodes']} endgame nodes from {ex['endgame_roots']} "
           f"positions searched exhaustively. {_bidding_md(ex.get('bidding') or {})} "
           f"Budget: `{_kv(rec['budget'])}`.", ""]
    out += [f"> {n}" for n in rec["notes"]]
    out += _problem_lines("Dead ends", rec["dead_ends"], "No reachable state leaves a player without a legal "
                          "card or bid.")
    out += _problem_lines("Conflicts", rec["conflicts"], "No explored state has two clauses demanding "
                          "different things.")
    out += _nontermination_md(rec["nontermination"]) + _dead_rules_md(rec) + _open_points_md(rec["open_points"])
    out += _claims_md(rec["claims"])
    return "\n".join(out) + "\n"


def _bidding_md(search: dict) -> str:
    """How the bidding was searched for dead ends."""
    if search.get("method") == "exhaustive":
        done = "every bid sequence" if search["complete"] else "bid sequences, up to the state budget,"
        return (f"Bidding: {done} searched from {search['roots_searched']} of {search['roots']} dealer and score "
                f"root(s), {search['states_visited']} states visited (budget {search['state_budget']}).")
    if search.get("method") == "sampled":
        return f"Bidding: sampled only (bid rules read the cards: {', '.join(search['hand_rules'])})."
    return ""


def _nontermination_md(nt: dict) -> list[str]:
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


def _dead_rules_md(rec: dict) -> list[str]:
    out = [f"## Dead rules ({len(rec['dead_rules'])})", ""]
    out += [f"- `{d['rule']}` = `{d['text']}` ({d.get('cite') or 'unspecified'}): {d['why']}"
            for d in rec["dead_rules"]] or ["Every rule that can change an outcome did so in some explored state."]
    if rec["inert_rules"]:
        out += ["", "Inert by design (cannot change an outcome in this variant): "
                + ", ".join(f"`{d['rule']}`" for d in rec["inert_rules"]) + "."]
    return out


def _open_points_md(points: list[dict]) -> list[str]:
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


def _claims_md(claims: list[dict]) -> list[str]:
    out = ["", f"## Claims ({len(claims)})", ""]
    if not claims:
        out.append("No claims of this document are encoded.")
    for c in claims:
        verdict = "holds" if c["holds"] else "**fails**"
        out.append(f"- {c['cite']}: {c['claim']} — {verdict}.")
        if c["counterexample"]:
            out.append(f"  - Counterexample: `{_kv(c['counterexample'])}`")
        out.append(f"  - Holds under: {', '.join(c['holds_under']) or 'no bundled variant'}; fails under: "
                   f"{', '.join(c['fails_under']) or 'none'}.")
    return out


_CSS = ("body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto 2rem;padding:0 1rem;line-height:1.45}"
        "code{background:#f3f3f3;padding:0 .2rem;border-radius:3px;overflow-wrap:anywhere}"
        "pre{background:#f6f6f6;padding:.5rem;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.85rem}"
        "h1{font-size:1.5rem}h2{font-size:1.2rem;border-bottom:1px solid #ccc}blockquote{color:#555}"
        "table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.2rem .45rem;"
        "text-align:left;vertical-align:top}th{background:#eef}td.num{text-align:right}"
        ".wide{overflow-x:auto;max-width:100%}svg{max-width:100%;height:auto}figure{margin:.5rem 0}"
        "caption{text-align:left;font-weight:600}figcaption{font-size:.85rem;color:#555}"
        "details summary{cursor:pointer;min-height:24px}"
        "nav.contents{background:#f6f6f9;border:1px solid #ccc;border-radius:6px;padding:.2rem 1rem}"
        "nav.contents a{display:inline-block;min-height:24px;padding:2px 0}" + TABLE_CSS)

_SECTIONS = (("dead-ends", "Dead ends"), ("conflicts", "Conflicts"), ("non-termination", "Non-termination"),
             ("dead-rules", "Dead rules"), ("open-points", "Open points"), ("claims", "Claims"))


def _inline(text: str) -> str:
    """Escape a Markdown line and render its `code` and **bold** spans."""
    parts = html.escape(text).split("`")
    for i in range(1, len(parts), 2):
        parts[i] = f"<code>{parts[i]}</code>"
    body = "".join(parts)
    while body.count("**") >= 2:
        body = body.replace("**", "<strong>", 1).replace("**", "</strong>", 1)
    return body


def _raw_item(text: str) -> str | None:
    """A list item whose value is a raw JSON record ("Minimal state: `{...}`") as a folded block, else None."""
    label, sep, rest = text.partition(": `")
    if not sep or rest[:1] not in "{[" or not rest.endswith("`"):
        return None
    return (f"<details><summary>{_inline(label)} (raw record)</summary><pre>{html.escape(rest[:-1])}</pre>"
            "</details>")


def summary_row(rec: dict) -> dict:
    """The counts a verification comes to, for the summary tables."""
    kinds = sorted({w["kind"] for w in rec["nontermination"]["witnesses"]})
    return {"document": f"{rec['doc'] or '-'} {rec['variant']}", "dead_ends": len(rec["dead_ends"]),
            "conflicts": len(rec["conflicts"]), "endless": ", ".join(kinds) or "none",
            "dead_rules": len(rec["dead_rules"]), "open_points": len(rec["open_points"]),
            "claims": len(rec["claims"]), "claims_failed": sum(not c["holds"] for c in rec["claims"])}


def summary_table(recs: list[dict], links: dict[str, str] | None = None) -> str:
    """One row per document: dead ends, conflicts, endless games, dead rules, open points, claims."""
    rows = []
    for rec in recs:
        row = summary_row(rec)
        name = html.escape(row["document"])
        if links and rec["variant"] in links:
            name = f'<a href="{html.escape(links[rec["variant"]])}">{name}</a>'
        rows.append([name, (str(row["dead_ends"]), "class=num"), (str(row["conflicts"]), "class=num"),
                     html.escape(row["endless"]), (str(row["dead_rules"]), "class=num"),
                     (str(row["open_points"]), "class=num"), (str(row["claims"]), "class=num"),
                     (str(row["claims_failed"]), "class=num")])
    return reflow_table(["document", "dead ends", "conflicts", "endless games", "dead rules", "open points",
                         "claims checked", "claims failed"], rows, "What each document gets wrong or leaves open",
                        row_header=True)


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body><main>\n{body}\n</main></body></html>\n")


def to_html(md: str, title: str, rec: dict | None = None, index: str | None = None) -> str:
    """Self-contained HTML (no external assets) from the Markdown this module writes: with ``rec``, it opens
    with the record's summary table and contents, and raw JSON records are folded away; ``index`` links the
    cross-document page."""
    out: list[str] = []
    lists: list[bool] = []    # open lists, each True when it sits inside the item before it
    for line in md.splitlines():
        stripped = line.strip()
        item = stripped.startswith("- ") or stripped[:1].isdigit() and ". " in stripped[:4]
        _nest_lists(out, lists, (len(line) - len(line.lstrip(" "))) // 2 + 1 if item else 0)
        if item:
            text = stripped.split(" ", 1)[1]
            out.append(f"<li>{_raw_item(text) or _inline(text)}</li>")
        else:
            out += _block_html(stripped, rec, index)
    out.extend("</ul></li>" if nested else "</ul>" for nested in reversed(lists))
    return _page(title, "\n".join(out))


def _nest_lists(out: list[str], lists: list[bool], depth: int) -> None:
    """Close and open ``<ul>`` elements until ``depth`` lists are open (a deeper list goes inside the item
    before it)."""
    while len(lists) > depth:
        out.append("</ul></li>" if lists.pop() else "</ul>")
    while len(lists) < depth:
        nested = bool(out) and out[-1].startswith("<li>") and out[-1].endswith("</li>")
        if nested:
            out[-1] = out[-1][:-len("</li>")]
        out.append("<ul>")
        lists.append(nested)


def _block_html(stripped: str, rec: dict | None, index: str | None) -> list[str]:
    """A heading (the first opens with the record's summary), a quote or a paragraph."""
    if stripped.startswith("#"):
        level = len(stripped) - len(stripped.lstrip("#"))
        heading = stripped[level:].strip()
        slug = next((sid for sid, name in _SECTIONS if heading.startswith(name)), None)
        out = [f"<h{level}{f' id={slug}' if slug else ''}>{_inline(heading)}</h{level}>"]
        return out + [_head(rec, index)] if level == 1 and rec is not None else out
    if stripped.startswith("> "):
        return [f"<blockquote>{_inline(stripped[2:])}</blockquote>"]
    return [f"<p>{_inline(stripped)}</p>"] if stripped else []


def _head(rec: dict, index: str | None) -> str:
    """Summary table and contents at the top of a document's report."""
    back = f'<p><a href="{html.escape(index)}">All documents side by side</a></p>' if index else ""
    links = "".join(f'<li><a href="#{sid}">{name}</a></li>' for sid, name in _SECTIONS)
    row = summary_row(rec)
    cells = (("dead ends", row["dead_ends"]), ("conflicts", row["conflicts"]), ("endless games", row["endless"]),
             ("dead rules", row["dead_rules"]), ("open points", row["open_points"]),
             ("claims checked", row["claims"]), ("claims failed", row["claims_failed"]))
    table = (f"<table><caption>Summary of {html.escape(row['document'])}</caption>"
             + "".join(f"<tr><th scope=row>{name}</th><td class=num>{html.escape(str(value))}</td></tr>"
                       for name, value in cells) + "</table>")
    return (back + table + f'<nav class="contents" aria-label="Contents"><ol>{links}</ol></nav>'
            "<p>Raw records are folded under each finding; the whole record is in the JSON file beside this one.</p>")


def _open_point_key(p: dict) -> str:
    return p["rule"] or f"clause {p.get('clause')}"


def open_points_chart(recs: list[dict], width: int = 420) -> str:
    """Bars: open points per document (with dead ends and conflicts beside them)."""
    row_h, label_w = 26, 120
    top = max([len(r["open_points"]) for r in recs] + [1])
    bar_w = width - label_w - 50
    height = row_h * len(recs) + 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} '
             f'{height}" role="img" aria-label="Open points per document">']
    for k, rec in enumerate(recs):
        y = 6 + k * row_h
        n = len(rec["open_points"])
        problems = len(rec["dead_ends"]) + len(rec["conflicts"])
        name = f"{rec['doc'] or '-'} {rec['variant']}"
        parts.append(f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end" font-size="12">'
                     f'{html.escape(name)}</text>')
        parts.append(f'<rect x="{label_w}" y="{y + 2}" width="{bar_w * n / top:.1f}" height="{row_h - 8}" '
                     f'fill="#6a8fd0"/>')
        note = f"{n}" + (f" (+{problems} dead end/conflict)" if problems else "")
        parts.append(f'<text x="{label_w + bar_w * n / top + 4:.1f}" y="{y + 14}" font-size="11">{note}</text>')
    parts.append(f'<text x="{label_w}" y="{height - 6}" font-size="11">open points (rules the document leaves to a '
                 f'default or to the reader)</text></svg>')
    return "".join(parts)


def index_html(recs: list[dict], files: dict[str, str]) -> str:
    """The cross-document page: the summary table, one chart, and which open points each document leaves."""
    docs = [f"{r['doc'] or '-'} {r['variant']}" for r in recs]
    keys: list[str] = []
    for rec in recs:
        keys += [k for k in map(_open_point_key, rec["open_points"]) if k not in keys]
    keys.sort()
    cells = [{_open_point_key(p): p for p in rec["open_points"]} for rec in recs]
    rows = [[f"<code>{html.escape(key)}</code>",
             *(html.escape(found[key]["reason"]) if key in found else "—" for found in cells)] for key in keys]
    table = reflow_table(["rule or clause", *map(html.escape, docs)], rows,
                         "Open points: what each document leaves unstated or ambiguous (— : the document settles it)",
                         row_header=True)
    body = ("<h1>Verification of the rule books, side by side</h1>"
            '<nav class="contents" aria-label="Contents"><ol><li><a href="#summary">Summary</a></li>'
            '<li><a href="#chart">Open points per document</a></li><li><a href="#open-points">Open points, '
            'document by document</a></li><li>Each document: '
            + ", ".join(f'<a href="{html.escape(files[r["variant"]])}">{html.escape(d)}</a>'
                        for r, d in zip(recs, docs))
            + "</li></ol></nav>"
            "<h2 id=summary>Summary</h2>" + summary_table(recs, files)
            + f"<h2 id=chart>Open points per document</h2><figure>{open_points_chart(recs)}"
            "<figcaption>Open points per document; dead ends and conflicts noted beside the bar.</figcaption></figure>"
            "<h2 id=open-points>Open points, document by document</h2>" + table)
    return _page("Verification of the rule books", body)


def to_json(rec: dict) -> str:
    return json.dumps(rec, indent=2, ensure_ascii=False, default=str) + "\n"
