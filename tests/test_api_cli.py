"""The command-line twins answer exactly as the API does (one code path)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.cli import main
from service.app import create_app
from api_requests import BID, GAME, LEGAL, NO_OVERTRICK_POINTS, SCORE, TRICK, played_hand

COMPARE = {"variants": ["standard", NO_OVERTRICK_POINTS], "kind": "score",
           "input": {k: v for k, v in SCORE.items() if k != "variant"}}
CASES = [("trick", TRICK), ("legal", LEGAL), ("bid", BID), ("score", SCORE), ("score", played_hand()[0]),
         ("game", GAME), ("compare", COMPARE)]


@pytest.mark.parametrize("kind, request_", CASES)
def test_cli_matches_api(tmp_path, kind, request_):
    api = create_app().test_client().post(f"/v1/{kind}", json=request_).get_json()
    path = tmp_path / "req.json"
    path.write_text(json.dumps(request_), encoding="utf-8")
    from_file = CliRunner().invoke(main, [kind, str(path)])
    from_stdin = CliRunner().invoke(main, [kind], input=json.dumps(request_))
    assert from_file.exit_code == 0 and from_stdin.exit_code == 0, from_file.output
    assert json.loads(from_file.output) == api == json.loads(from_stdin.output)


def test_cli_reads_variant_files():
    """Unlike the API, the command line may name a variant file."""
    path = str(Path(__file__).resolve().parent.parent / "variants" / "standard.yaml")
    result = CliRunner().invoke(main, ["trick"], input=json.dumps({**TRICK, "variant": path}))
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["winner"] == "E"


@pytest.mark.parametrize("stdin, needle", [
    (json.dumps({**TRICK, "cards": ["AH", "2S", "AH", "3H"]}), "cards[2]: AH appears twice"),
    (json.dumps({**SCORE, "tricks": {"N": 1, "E": 1, "S": 1, "W": 1}}), "tricks: tricks add up to 4"),
    ("{oops", "not valid JSON"),
])
def test_cli_bad_input_exit_2(stdin, needle):
    result = CliRunner().invoke(main, ["score" if "tricks" in stdin else "trick"], input=stdin)
    assert result.exit_code == 2 and needle in result.output
