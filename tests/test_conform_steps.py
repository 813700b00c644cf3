"""rulespec conform: the optional steps of the engine protocol (a raise after a partner's nil, the
blind-nil exchange), compared where an engine defines them."""
from __future__ import annotations

import pytest

from rulespec.tools.conform import ConformConfig, conform
from rulespec.tools.conform.cli import _verdict

RAISE_AND_EXCHANGE = """\
id: raise-and-exchange
title: 001 with a raise after a partner's nil and a two-card blind-nil exchange
source: {doc: house, title: test}
extends: standard
rules:
  nil.partner_may_raise: true @ house §Raise
  blind_nil.allowed: true @ house §Blind
  blind_nil.exchange: 2 @ house §Blind
"""


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("conform") / "raise.yaml"
    path.write_text(RAISE_AND_EXCHANGE, encoding="utf-8")
    return str(path)


def _run(engine: str, variant: str) -> dict:
    return conform(ConformConfig(f"fake_engine:{engine}", variant, deals=60, policies=("random",)), jobs=1)


def _states(report: dict, stage: str) -> int:
    return report["sections"]["deals"]["stages"][stage]["states"]


def test_an_engine_with_both_steps_conforms_on_them(book):
    report = _run("Raising", book)
    assert report["conforms"] and not report["errors"], report["differing"]
    assert {"raise", "exchange"} <= set(report["compared"])
    assert _states(report, "raise") > 0 and _states(report, "exchange") > 0


def test_a_missing_raise_is_found_and_credited_to_the_raise_rule(book):
    report = _run("RaisingShort", book)
    assert report["differing"] == ["raise"]
    kind = report["sections"]["deals"]["stages"]["raise"]["kinds"]["engine_forbids"]
    assert kind["hands"] > 0 and {r["rule"] for r in kind["attribution"]} == {"nil.partner_may_raise"}
    assert kind["first"]["bids"] == ["13"]


def test_another_number_of_cards_exchanged_stops_the_hand_as_a_difference(book):
    report = _run("OneCardExchange", book)
    assert report["differing"] == ["exchange"]
    kind = report["sections"]["deals"]["stages"]["exchange"]["kinds"]["exchange"]
    assert {r["rule"] for r in kind["attribution"]} == {"blind_nil.exchange"}
    assert kind["first"]["book"][0].endswith("passes 2") and kind["first"]["engine"][0].endswith("passes 1")


def test_a_raising_engine_against_a_book_without_raises(book):
    """standard has no raise and no blind nil: the engine's raises are what the book forbids; its
    blind-nil bids too."""
    report = _run("Raising", "standard")
    assert {"raise", "bid"} <= set(report["differing"])
    kind = report["sections"]["deals"]["stages"]["raise"]["kinds"]["engine_allows"]
    assert {r["rule"] for r in kind["attribution"]} == {"nil.partner_may_raise"}


def test_an_engine_without_the_steps_is_not_compared_on_them(book):
    report = _run("Sound", book)
    assert "raise" not in report["compared"] and "exchange" not in report["compared"]
    assert _states(report, "raise") == 0 and _states(report, "exchange") == 0


def test_an_engine_without_the_exchange_step_plays_nil_pass_without_nil_bids_and_says_so():
    report = _run("Sound", "nil-pass")
    assert report["withheld"] == [{"bid": "nil", "rule": "nil.exchange", "value": 2, "cite": "005 §Nil pass"}]
    assert report["conforms"], report["differing"]
    assert "exchange" not in report["compared"]


def test_an_engine_with_the_nil_pass_conforms_to_nil_pass_and_not_to_standard():
    report = _run("NilPassing", "nil-pass")
    assert report["withheld"] == [] and report["conforms"], report["differing"]
    assert _states(report, "exchange") > 0
    other = _run("NilPassing", "standard")
    assert other["differing"] == ["exchange"]
    kind = other["sections"]["deals"]["stages"]["exchange"]["kinds"]["exchange"]
    assert {r["rule"] for r in kind["attribution"]} == {"nil.exchange"}


def test_an_engine_with_the_discard_step_conforms_to_kitty():
    report = _run("Kitty", "kitty")
    assert report["conforms"], report["differing"]
    assert _states(report, "legal") > 0 and _states(report, "score") > 0


def test_an_engine_without_the_discard_step_cannot_play_kitty_and_says_so():
    report = _run("Sound", "kitty")
    assert not report["conforms"] and report["compared"] == []
    [error] = report["errors"]
    assert "no discard step (take_kitty)" in error and "deal.kitty @ 005 §Kitty" in error
    assert "cannot play it" in _verdict(report)
