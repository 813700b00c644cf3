"""``rulespec import-options``: a Trickster GameOptionsJson object as a variant file (issue 30, item 4)."""
from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner

from rulespec import game as E
from rulespec.cli import main
from rulespec.model.ruleset import ruleset_from_text
from rulespec.records.options import MAPPERS, map_options, variant_text

# the fields the issue names (players and partnerships, nilPass: the seat model's half)
ISSUE_FIELDS = ("variation", "minBid", "nilOrZero", "nilPass", "blindNonNilBids", "tenForTwoHundred", "tenBonus",
                "failBidScoring", "tenBagsPenalty", "leadSpades", "gameOverScore", "mercyRule", "firstHandBidsItself")
TABLE = {"variation": 1, "gameOverScore": 350, "nilOrZero": 1, "tenForTwoHundred": True, "mercyRule": 1,
         "nilPass": 2, "tenBonus": 3}


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_every_field_the_issue_names_is_mapped_or_says_why_not():
    assert set(ISSUE_FIELDS) <= set(MAPPERS)
    for name in ISSUE_FIELDS:
        reading = map_options({name: 1}).options[0]
        assert reading.why, name


def test_the_variant_file_compiles_and_plays_the_options():
    mapping = map_options(TABLE)
    rs = ruleset_from_text(variant_text(mapping, "table.json"), "<import>")
    assert rs.chain == ["standard", "jokers-ace", "trickster"]           # variation 1: Joker-Joker-Ace
    assert rs.params["game.target"] == 350 and rs.params["bid.zero"] is True
    zero, nil = E.parse_bid("zero"), E.parse_bid("nil")
    assert not E.bid_refusals(rs, 0, zero, hand=None, dealer=3, bids=[None] * 4)
    assert E.bid_refusals(rs, 0, nil, hand=None, dealer=3, bids=[None] * 4)[0]["rule"] == "nil.allowed"
    scored = E.score_hand(rs, [zero, E.parse_bid(4), E.parse_bid(4), E.parse_bid(5)], [1, 4, 3, 5])
    assert scored[0].points == 40             # N zero beside S 4: a contract of 4, made with 4 tricks
    assert [o.option for o in mapping.unmapped] == ["tenBonus"]
    assert rs.params["nil.exchange"] == 2                                  # nilPass 2: the nil pass of two cards


def test_import_options_writes_yaml_with_a_comment_per_option_and_names_the_rest(tmp_path):
    path = tmp_path / "table.json"
    path.write_text(json.dumps({**TABLE, "odd\nkey: 1": True}), encoding="utf-8")
    result = run("import-options", str(path))
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "# tenForTwoHundred = true: a side that bids 10 and makes it scores 200" in text
    assert "# nilPass = 2: an ordinary nil bidder whose partner bid a number passes the partner 2 cards" in text
    assert data_rules(text)["nil.exchange"]["value"] == 2
    data = yaml.safe_load(text)
    assert set(data) == {"id", "title", "extends", "source", "rules"}     # the odd key stayed in its comment
    assert data["rules"]["scoring.made"]["cite"] == "house §Trickster option tenForTwoHundred"
    assert "option tenBonus = 3 not mapped" in result.stderr and "nilPass" not in result.stderr
    out = tmp_path / "trickster.yaml"
    assert run("import-options", str(path), "--out", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8") == text


def data_rules(text: str) -> dict:
    return yaml.safe_load(text)["rules"]


@pytest.mark.parametrize("value, mapped, exchange", [(0, True, None), (1, True, 1), (2, True, 2), (4, True, 4),
                                                     (3, False, None), (True, False, None), ("2", False, None)])
def test_nil_pass_maps_to_the_nil_exchange(value, mapped, exchange):
    reading = map_options({"nilPass": value}).options[0]
    assert reading.mapped is mapped and reading.why
    assert reading.rules.get("nil.exchange", {}).get("value") == exchange
    if exchange:
        rs = ruleset_from_text(variant_text(map_options({"nilPass": value}), "t.json"), "<import>")
        state = E.HandState(rs, E.deal_for("np", 0, rs), 0)
        for text in ("3", "nil", "4", "3"):      # E 3, S nil, W 4, N 3: S passes (its nil beside N's 3)
            state.bid(E.parse_bid(text))
        assert state.exchange_seats() == [2] and state.exchange_count(2) == exchange


def test_import_options_refuses_a_file_that_is_not_an_options_object(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"variation": 1,\n "minBid" 4}', encoding="utf-8")
    result = run("import-options", str(bad))
    assert result.exit_code == 2 and f"{bad}:2:11: not JSON" in result.output
    bad.write_text("[1, 2]", encoding="utf-8")
    assert "expected a JSON object of Trickster's options" in run("import-options", str(bad)).output
    assert "cannot read the options" in run("import-options", str(tmp_path / "none.json")).output
