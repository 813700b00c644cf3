"""The service serves the reports (issue 33, item 9): the bundled ones under /reports, and a differential
report made on request as a page, within the service's bounds; no request reads a file that is not one
of the listed reports."""
from __future__ import annotations

import os

import pytest

from service.app import create_app
from service.reports import BUNDLED, listing


@pytest.fixture(scope="module")
def client():
    return create_app({"DIFF_MAX_DEALS": 20, "DIFF_TIME_LIMIT": 5.0}).test_client()


def test_the_index_lists_every_bundled_report(client):
    page = client.get("/reports/")
    assert page.status_code == 200 and page.content_type == "text/html; charset=utf-8"
    text = page.get_data(as_text=True)
    for name in ("report.html", "verify/index.html", "verify/000-tournament.html",
                 "conformance/openspiel/report.html", "report.json", "verify/004-classic.md"):
        assert f'href="/reports/{name}"' in text, name
    assert 'name="viewport"' in text and 'action="/reports/diff"' in text


@pytest.mark.parametrize("name", sorted(listing(BUNDLED)))
def test_each_bundled_report_is_served_as_it_is(client, name):
    got = client.get(f"/reports/{name}")
    assert got.status_code == 200
    assert got.data == (BUNDLED / name).read_bytes()
    assert got.headers["X-Content-Type-Options"] == "nosniff"
    assert "script-src" not in got.headers["Content-Security-Policy"]     # no script runs in a report
    if name.endswith(".html"):
        assert got.content_type == "text/html; charset=utf-8" and b'name="viewport"' in got.data


@pytest.mark.parametrize("path", [
    "/reports/../pyproject.toml", "/reports/%2e%2e/%2e%2e/pyproject.toml", "/reports/verify/../../../README.md",
    "/reports/verify/..%2f..%2f..%2fREADME.md", "/reports/..\\..\\README.md", "/reports/%2fetc%2fpasswd",
    "/reports/report.html%00.png", "/reports/README", "/reports/report.py", "/reports/verify/",
])
def test_no_path_leaves_the_listed_reports(client, path):
    got = client.get(path, follow_redirects=True)
    assert got.status_code == 404, path
    assert b"No such report" in got.data


def test_a_link_or_a_hidden_file_in_the_folder_is_not_served(tmp_path):
    (tmp_path / "ok.html").write_text("<p>ok</p>", encoding="utf-8")
    (tmp_path / ".hidden.html").write_text("secret", encoding="utf-8")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.html"
    outside.write_text("outside", encoding="utf-8")
    os.symlink(outside, tmp_path / "link.html")
    os.symlink(tmp_path.parent, tmp_path / "up")
    assert set(listing(tmp_path)) == {"ok.html"}
    client = create_app({"REPORTS_DIR": str(tmp_path)}).test_client()
    assert client.get("/reports/ok.html").status_code == 200
    for name in ("link.html", ".hidden.html", f"up/{tmp_path.name}-outside.html"):
        assert client.get(f"/reports/{name}").status_code == 404, name


def test_a_report_made_on_request_is_a_page_within_the_bounds(client):
    made = client.get("/reports/diff?variants=standard,classic&deals=5&seed=7")
    assert made.status_code == 200 and made.content_type == "text/html; charset=utf-8"
    text = made.get_data(as_text=True)
    assert "<h1>Variant differences</h1><p>5 deals, seed <code>7</code>" in text
    assert "standard vs classic" in text and "<table class=reflow role=table>" in text
    assert client.get("/reports/diff?variants=standard&variants=classic&deals=5&seed=7").data == made.data
    posted = client.post("/reports/diff", json={"variants": ["standard", "classic"], "deals": 5, "seed": "7"})
    assert posted.status_code == 200 and posted.data == made.data     # the /v1/diff body, as a page


@pytest.mark.parametrize("query, words", [
    ("variants=standard,classic&deals=21", "deals is a whole number from 1 to 20"),
    ("variants=standard&deals=5", "expected a list of 2 to 8 bundled variant ids"),
    ("variants=standard,nosuch", "a differential run compares bundled variants; &#39;nosuch&#39; is not one"),
    ("variants=standard,classic&deals=lots", "deals is a whole number from 1 to 20"),
])
def test_a_report_that_cannot_be_made_says_why_in_the_page(client, query, words):
    got = client.get(f"/reports/diff?{query}")
    assert got.status_code == 422 and got.content_type == "text/html; charset=utf-8"
    assert words in got.get_data(as_text=True)


def test_an_unknown_query_field_of_the_report_form_is_refused_by_name(client):
    """As every endpoint refuses an unknown field (issue 28 item 7), so does the report form's query."""
    got = client.get("/reports/diff?variants=standard,classic&deals=5&colour=red")
    assert got.status_code == 422
    assert "colour: unknown key" in got.get_data(as_text=True)
