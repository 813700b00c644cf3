"""The API page (/api): contents, a link back to the dispute page, and a worked example per endpoint
whose curl command, replayed, gives the answer the page shows."""
from __future__ import annotations

import json
import re
import shlex
from html import unescape

import pytest

from service.app import create_app
from service.examples import EXAMPLES, HOST, MAX_LINES
from service.openapi import build_spec


@pytest.fixture(scope="module")
def app():
    return create_app()


@pytest.fixture(scope="module")
def html(app) -> str:
    response = app.test_client().get("/api")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_every_endpoint_has_an_example():
    spec = build_spec(200, 10, 256 * 1024)
    operations = {op["operationId"] for methods in spec["paths"].values() for op in methods.values()}
    assert operations - {"api_page"} == {ex.operation for ex in EXAMPLES}


def test_contents_and_a_way_back(html):
    assert '<a class=back href="/">' in html
    nav = re.search(r"<nav id=contents.*?</nav>", html, re.S).group(0)
    for target in re.findall(r'href="#([^"]+)"', nav):
        assert f'id="{target}"' in html or f"id={target}>" in html, target
    assert '<meta name=viewport content="width=device-width, initial-scale=1">' in html


def _replay(client, command: str):
    """Send what a shown curl command sends (method, content type, body, path) to the app."""
    argv = shlex.split(command)
    assert argv[:2] == ["curl", "-s"] and argv[-1].startswith(HOST)
    path = argv[-1][len(HOST):]
    if "--data-binary" not in argv:
        return client.get(path)
    headers = dict(argv[i + 1].split(": ", 1) for i, a in enumerate(argv) if a == "-H")
    data = argv[argv.index("--data-binary") + 1]
    return client.post(path, data=data.encode(), content_type=headers["Content-Type"])


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda ex: ex.operation)
def test_each_example_runs_as_shown(app, html, example):
    section = re.search(rf'<h3 id="op-{example.operation}">.*?</section>', html, re.S).group(0)
    command, shown = (unescape(p) for p in re.findall(r"<pre>(.*?)</pre>", section, re.S))
    response = _replay(app.test_client(), command)
    assert response.status_code == 200, response.get_data(as_text=True)
    answer = response.get_json()
    if example.operation == "diff":     # wall time differs from run to run: the shown start of the report
        assert shown.startswith('{\n  "schema": "rulespec-diff-report/1"') and answer["run"]["deals_run"] == 5
        return
    full = json.dumps(answer, indent=2, ensure_ascii=False).splitlines()
    lines = shown.splitlines()
    if lines[-1].startswith("… ("):
        assert lines[:-1] == full[:MAX_LINES] and lines[-1] == f"… ({len(full) - MAX_LINES} more lines)"
    else:
        assert lines == full
