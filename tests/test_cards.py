import pytest

from rulespec.core import cards as C
from rulespec.errors import CardError, RulespecError


@pytest.mark.parametrize("text,name", [
    ("AS", "AS"), ("as", "AS"), ("10S", "10S"), ("TS", "10S"), ("ts", "10S"), ("A♠", "AS"),
    ("♠A", "AS"), ("Q♦", "QD"), ("2c", "2C"), (" kh ", "KH"), ("BJ", "BJ"), ("lj", "LJ"),
])
def test_parse_card_leniently_and_print_canonically(text, name):
    assert C.card_name(C.parse_card(text)) == name


@pytest.mark.parametrize("text", ["1S", "AX", "", "10", "S", "11H", "AAS"])
def test_bad_cards_are_errors_that_say_what_to_write(text):
    with pytest.raises(CardError, match="not a card"):
        C.parse_card(text)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, RulespecError) and issubclass(CardError, ValueError)


def test_masks_round_trip_and_order():
    cards = C.parse_cards("AS 2C 10H, QD")
    mask = C.mask_of(cards)
    assert mask.bit_count() == 4
    assert C.card_names(mask) == ["2C", "QD", "10H", "AS"]
    assert sorted(C.iter_cards(mask)) == sorted(cards)


def test_natural_suit_and_rank():
    ace = C.parse_card("AS")
    assert C.natural_suit(ace) == C.SPADES and C.natural_rank(ace) == 14
    assert C.natural_suit(C.BIG_JOKER) == C.NO_SUIT and C.natural_rank(C.BIG_JOKER) == 16


def test_seats_clockwise():
    n, e, s, w = (C.parse_seat(x) for x in "NESW")
    assert C.left_of(n) == e and C.left_of(w) == n and C.partner_of(e) == w and C.right_of(n) == w
    assert C.team_of(n) == C.team_of(s) == 0 and C.team_of(e) == 1
    assert C.parse_seat("north") == n
    for text in ("X", "", "  ", "NE", None):
        with pytest.raises(CardError):
            C.parse_seat(text)
