"""docs/house-rules.md runs as written: ```yaml file=PATH blocks are written
(in order, later ones replace earlier ones), ```console blocks run their
``$ .venv/bin/rulespec ...`` command in that folder and must print what the
block shows (``...`` stands for any lines) and exit with ``exit=N`` (default 0)."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.cli import main

DOC = Path(__file__).resolve().parent.parent / "docs" / "house-rules.md"
FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```$", re.S | re.M)


def blocks() -> list[tuple[str, dict[str, str], str]]:
    """(language, attributes, body) of every fenced block, in order."""
    out = []
    for lang, info, body in FENCE.findall(DOC.read_text(encoding="utf-8")):
        attrs = dict(item.split("=", 1) for item in info.split() if "=" in item)
        out.append((lang, attrs, body))
    return out


def commands(body: str) -> list[tuple[str, list[str]]]:
    """The ``$ command`` lines of a console block, each with the lines it should print."""
    out: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            out[-1][1].append(line)
    return out


def expected_pattern(lines: list[str]) -> re.Pattern:
    parts = [r"(?:[^\n]*\n)*?" if line == "..." else re.escape(line.rstrip()) + r"\n" for line in lines]
    return re.compile("".join(parts))


def test_the_tutorial_has_runnable_steps():
    found = blocks()
    written = [attrs["file"] for lang, attrs, _ in found if "file" in attrs]
    runs = [cmd for lang, _, body in found if lang == "console" for cmd, _ in commands(body)]
    assert "mytable/house.yaml" in written and len(runs) >= 6
    assert all(cmd.startswith(".venv/bin/rulespec ") for cmd in runs)
    assert any(cmd.startswith(".venv/bin/rulespec test") for cmd in runs)


def test_the_tutorial_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for lang, attrs, body in blocks():
        if "file" in attrs:
            path = tmp_path / attrs["file"]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(body, encoding="utf-8")
        elif lang == "console":
            for command, lines in commands(body):
                argv = shlex.split(command)
                assert argv[0] == ".venv/bin/rulespec", command
                result = CliRunner().invoke(main, argv[1:])
                output = "".join(line.rstrip() + "\n" for line in result.output.splitlines())
                assert expected_pattern(lines).fullmatch(output), f"$ {command}\n{output}"
                assert result.exit_code == int(attrs.get("exit", 0)), f"$ {command}\n{output}"


@pytest.mark.parametrize("lines, output, ok", [
    (["a", "...", "d"], "a\nb\nc\nd\n", True),
    (["a", "...", "d"], "a\nd\n", True),
    (["a", "d"], "a\nb\nd\n", False),
    (["...", "z"], "a\nz\n", True),
])
def test_wildcard_lines(lines, output, ok):
    assert bool(expected_pattern(lines).fullmatch(output)) is ok
