"""The HTML reports read on a phone: contents, the diff histograms with values and the no-change bin apart,
and verify reports that open with a summary table, a cross-document index with one chart and the open
points of each document, and raw JSON folded away."""
from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from rulespec.cli import main
from rulespec.tools.diff import html as diff_html
from rulespec.tools.verify import report as verify_report

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "docs" / "reports"


def test_histogram_sets_the_no_change_bin_apart_with_values():
    bins = [{"lo": -90, "hi": -61, "count": 8}, {"lo": -60, "hi": -1, "count": 0}, {"lo": 0, "hi": 29, "count": 24406},
            {"lo": 30, "hi": 59, "count": 30}, {"lo": 60, "hi": 89, "count": 302}]
    svg = diff_html.histogram_chart(bins, title="t")
    heights = {m[0]: float(m[1]) for m in re.findall(r'height="([\d.]+)" fill="#[0-9a-f]+"><title>([^<]+)</title>',
                                                     svg) for m in [(m[1].split(":")[0], m[0])]}
    assert heights["60…89"] > 100 and heights["0…29"] > 100   # each scale full height: 302 is not flattened
    assert svg.index("60…89") < svg.index("0…29")                # the no-change bin is drawn last, apart
    for count in ("8", "30", "302", "24406"):
        assert f">{count}</text>" in svg                         # values printed, not only on hover
    assert "own scale" in svg and 'viewBox="0 0 420 200"' in svg


def test_diff_report_has_contents_and_fits_a_phone():
    page = diff_html.render(json.loads((REPORTS / "report.json").read_text(encoding="utf-8")))
    assert page == (REPORTS / "report.html").read_text(encoding="utf-8"), "docs/reports/report.html is stale"
    nav = re.search(r'<nav class="contents".*?</nav>', page).group(0)
    targets = re.findall(r'href="#([^"]+)"', nav)
    assert len(targets) == 16 and all(f"id='{t}'" in page for t in targets)
    assert 'name="viewport"' in page and "white-space:pre-wrap" in page
    # tables reflow on a phone: each cell carries its column's name; the evidence and the examples are folded
    assert "<table class=reflow role=table><caption>Share of deals whose hand score differs</caption>" in page
    assert '<td role=cell data-label="causes (ablation)">' in page and "@media (max-width:40em)" in page
    assert page.count("<details class=evidence>") == len(re.findall(r"<h2 id='[^']+'>[^<]+ vs ", page))
    assert "<details><summary>As a scenario case to run</summary><pre>" in page


def test_verify_reports_open_with_a_summary_and_fold_raw_json():
    page = (REPORTS / "verify" / "000-tournament.html").read_text(encoding="utf-8")
    head = page[:page.index("<h2")]
    assert "<table><caption>Summary of 000 tournament</caption>" in head
    assert ("<tr><th scope=row>dead ends</th><td class=num>1</td></tr><tr><th scope=row>conflicts</th>"
            "<td class=num>1</td></tr>") in head
    assert "<th scope=row>claims checked</th><td class=num>6</td>" in head
    assert '<a href="index.html">' in head and '<nav class="contents"' in head
    assert "(raw record)</summary><pre>{" in page
    assert not re.search(r"<li>[^<]*<code>\{", page)          # no raw JSON left in the running text


def test_verify_index_compares_the_documents(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["verify", "standard", "pirates", "--hands", "20", "--examples", "0",
                                       "--endgame-tricks", "0", "--out", str(out)])
    assert result.exit_code == 0, result.output
    index = (out / "index.html").read_text(encoding="utf-8")
    recs = [json.loads((out / f"{n}.json").read_text()) for n in ("001-standard", "002-pirates")]
    for rec, name in zip(recs, ("001 standard", "002 pirates")):
        row = verify_report.summary_row(rec)
        assert (f'<td role=cell data-label="open points" class=num><span>{row["open_points"]}</span></td>'
                f'<td role=cell data-label="claims checked" class=num><span>{row["claims"]}</span></td>') in index, name
    assert index.count("<svg") == 1 and 'aria-label="Open points per document"' in index
    # the cross-document table: one row per open point, a column per document
    rows = re.findall(r"<tr role=row><th scope=row role=rowheader><code>([^<]+)</code></th>(.*?)</tr>", index)
    keys = {p["rule"] or f"clause {p.get('clause')}" for rec in recs for p in rec["open_points"]}
    assert {k for k, _ in rows} == keys and all(cells.count("<td role=cell") == 2 for _, cells in rows)
    assert all('data-label="001 standard"' in cells and 'data-label="002 pirates"' in cells for _, cells in rows)
    assert '<a href="001-standard.html">' in index


def test_committed_verify_index_matches_the_records():
    folder = REPORTS / "verify"
    names = ["000-tournament", "001-standard", "002-pirates", "003-house", "004-classic"]
    recs = [json.loads((folder / f"{n}.json").read_text(encoding="utf-8")) for n in names]
    files = {rec["variant"]: f"{n}.html" for rec, n in zip(recs, names)}
    assert verify_report.index_html(recs, files) == (folder / "index.html").read_text(encoding="utf-8")


def test_no_change_is_a_histogram_bin_of_its_own():
    from rulespec.tools.diff.stats import histogram
    values = [0] * 50 + [1, 2, 2, 3, -1, -7, 25, 60, 90, -30]
    bins = histogram(values)
    assert {"lo": 0, "hi": 0, "count": 50} in bins
    assert sum(b["count"] for b in bins) == len(values)
    assert all(b["lo"] <= b["hi"] for b in bins) and all(a["hi"] < b["lo"] for a, b in zip(bins, bins[1:]))
    assert [b for b in bins if b["lo"] <= 1 <= b["hi"]][0]["lo"] == 1      # the small changes stand apart
    svg = diff_html.histogram_chart(bins, title="t")
    assert ">no change,</text>" in svg and ">50</text>" in svg


def test_conformance_reports_fit_a_phone():
    from rulespec.tools.conform import html as conform_html
    for folder in ("001-standard", "openspiel"):
        path = REPORTS / "conformance" / folder
        page = conform_html.render(json.loads((path / "report.json").read_text(encoding="utf-8")))
        assert page == (path / "report.html").read_text(encoding="utf-8"), f"{folder}/report.html is stale"
        assert 'name="viewport"' in page and "<table class=reflow role=table>" in page
        assert '<td role=cell data-label="decided by">' in page


def test_stored_conformance_markdown_is_the_renderers():
    """A stored conformance report reads with today's writer (one stored before a key was added included), and
    the report.md kept beside its JSON is what the writer makes of it."""
    from rulespec.tools.conform import report as conform_report
    for folder in ("001-standard", "openspiel"):
        path = REPORTS / "conformance" / folder
        text = conform_report.markdown(json.loads((path / "report.json").read_text(encoding="utf-8")))
        assert text == (path / "report.md").read_text(encoding="utf-8"), f"{folder}/report.md is stale"
