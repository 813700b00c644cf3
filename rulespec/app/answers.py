"""One ruling per kind of dispute (``answer_trick``, ``answer_legal``, ``answer_bid``, ``answer_score``,
``answer_game``; the double-dummy kinds in ``claims``), each from a request's checked fields (``fields``)
under one variant, with its trail; ``KINDS`` names them.  ``disputes.answer`` is the entry point.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping


from ..core import cards as C
from .. import game as E
from . import fields as F
from . import reasons as R
from .conditions import game_end, when
from .inline import compile_inline
from ..errors import (GameError, InputError, RulesFileError, UnknownVariantError)
from ..lang.limits import MAX_CONTEXT_INT
from ..model.ruleset import Ruleset, load_ruleset
from ..model.readings import readings_for
from . import claims

MAX_INLINE_RULES = 64
CardHook = Callable[[E.HandState, int, str], None]    # (the hand before the card, the card, its field)


# --------------------------------------------------------------------------- variants
def resolve_variant(value, field: str = "variant", allow_paths: bool = False) -> Ruleset:
    """A bundled id, an inline house rule mapping, or (CLI only) a file path."""
    if isinstance(value, str):
        if not allow_paths and (value.endswith((".yaml", ".yml")) or "/" in value):
            raise InputError("variant files are not read over the API; send the house rule inline "
                             "as {\"extends\": ..., \"rules\": {...}}", field)
        try:
            return load_ruleset(value)
        except UnknownVariantError as exc:
            raise InputError(str(exc), field) from None
        except RulesFileError as exc:
            raise InputError(f"variant does not compile: {exc.problems[0].format()}", field,
                             details={"problems": [p.as_dict() for p in exc.problems]}) from None
    if isinstance(value, Mapping):
        return inline_variant(value, field)
    raise InputError("name a variant by id (e.g. \"classic\") or give a house rule "
                     "{\"extends\": ..., \"rules\": {...}}", field)


def inline_variant(value: Mapping, field: str) -> Ruleset:
    """Compile an inline house rule: an object or the variant file's text (see ``app.inline``)."""
    return compile_inline(value, field, MAX_INLINE_RULES)


# --------------------------------------------------------------------------- answers
def _suit(rs: Ruleset, card: int | None) -> str:
    """The suit letter a card counts in under ``rs`` (the trump suit for ``None``; ``J`` for no suit)."""
    suit = rs.params["trump.suit"] if card is None else rs.suit_of[card]
    return C.SUIT_LETTERS[suit] if suit < 4 else "J"


def answer_trick(rs: Ruleset, req: Mapping) -> dict:
    """Who wins a complete trick."""
    table = C.table_of(rs.params)
    leader = F.seat_of(F.get(req, "leader", ""), "leader", table)
    trick = F.cards_of(F.get(req, "cards", ""), "cards", rs)
    if len(trick) != table.seats:
        raise InputError(f"a complete trick has {table.seats} cards, got {len(trick)}", "cards")
    number = F.whole(req.get("number", 1), "number", 1, rs.params["deal.hand_size"])
    index, steps = E.trick_winner(rs, trick, number, explain=True)
    rivals = [c for c in trick if rs.suit_of[c] == rs.suit_of[trick[index]]]
    if len(rivals) > 1:     # the winner beat a card of its own suit: the order of the cards decided it
        steps.insert(len(steps) - 1, rs.step("card.power", [C.card_name(c) for c in
                                                            sorted(rivals, key=lambda c: -rs.power[c])]))
    winner = table.left(leader, index)
    played_by = {C.SEATS[table.left(leader, i)]: C.card_name(c) for i, c in enumerate(trick)}
    suits = [_suit(rs, c) for c in trick]
    for step in steps:
        step["reason"] = R.reason(step["rule"], R.trick_facts([C.card_name(c) for c in trick], suits,
                                                               _suit(rs, None), C.card_name(trick[index]),
                                                               step["value"]))
    return {"variant": rs.id, "winner": C.SEATS[winner], "card": C.card_name(trick[index]),
            "played_by": played_by, "explanation": steps}


def answer_legal(rs: Ruleset, req: Mapping) -> dict:
    """Which cards a seat may play now, and why the others are not allowed."""
    seen: dict = {}
    hand_cards = F.cards_of(F.get(req, "hand", ""), "hand", rs, seen)
    if not hand_cards:
        raise InputError("the hand is empty", "hand")
    trick = F.cards_of(req.get("trick", []), "trick", rs, seen)
    seats = rs.params["table.seats"]
    if len(trick) > seats - 1:
        raise InputError(f"the trick so far has at most {seats - 1} cards (the {seats}th is the one being chosen)",
                         "trick")
    size = rs.params["deal.hand_size"]
    number = F.whole(req.get("number", 1), "number", 1, size)
    broken = req.get("broken", False)
    if not isinstance(broken, bool):
        raise InputError("expected true or false", "broken")
    if len(hand_cards) != size - number + 1:
        raise InputError(f"at trick {number} a player holds {size - number + 1} cards, not {len(hand_cards)}",
                         "hand")
    hand = C.mask_of(hand_cards)
    result = E.legal_cards(rs, hand, trick, number, broken, explain=True)
    hand_suits = [_suit(rs, c) for c in hand_cards]
    led, trump = _suit(rs, trick[0]) if trick else "", _suit(rs, None)
    for step in result.steps:
        step["reason"] = R.reason(step["rule"], R.play_facts(None, step["value"], hand_suits, led, trump, broken,
                                                              number))
    if not result.steps:    # every card is legal: the rules that allowed them all
        result.steps.extend(_allowing_steps(rs, result, hand, not trick, number, (hand_suits, led, trump, broken)))
    illegal = []
    for card in C.iter_cards(hand & ~result.cards):
        name = C.card_name(card)
        reasons = [{**step, "reason": R.reason(
            step["rule"], R.play_facts(name, step["value"], hand_suits, led, trump, broken, number), refused=True,
            case=R.play_case(step["rule"], _suit(rs, card), hand_suits, led, trump, broken))}
            for step in result.steps if name not in step["value"]]
        illegal.append({"card": name, "reasons": reasons})
    return {"variant": rs.id, "legal": C.card_names(result.cards), "illegal": illegal,
            "explanation": result.steps, "conflicts": result.conflicts, "dead_ends": result.dead_ends}


def _allowing_steps(rs: Ruleset, result: E.Legal, hand: int, leading: bool, number: int, suits: tuple) -> list[dict]:
    """A step for each play rule that applied and left every card of ``hand`` (not a dead end or a clash),
    with its reason; ``suits`` is (the hand's suits, the suit led, trumps, broken) as ``play_facts`` takes."""
    hand_suits, led, trump, broken = suits
    skipped = {d["rule"] for d in result.dead_ends} | {c["rules"][-1] for c in result.conflicts}
    steps = []
    for name in E.applicable_constraints(leading, number == 1):
        if name not in skipped and not rs.rules[name].neutral:     # (a neutral constraint narrows nothing)
            step = rs.step(name, C.card_names(hand))
            facts = R.play_facts(None, step["value"], hand_suits, led, trump, broken, number)
            step["reason"] = R.reason(name, facts, case=R.allowed_case(name, hand_suits, led, trump, broken))
            steps.append(step)
    return steps


def answer_bid(rs: Ruleset, req: Mapping) -> dict:
    """Whether a seat may make a bid, given the bids so far and the scores."""
    table = C.table_of(rs.params)
    seat = F.seat_of(F.get(req, "seat", ""), "seat", table)
    bid = F.bid_of(F.get(req, "bid", ""), "bid")
    dealer = F.seat_of(req.get("dealer", C.SEATS[table.left(seat, -1)]), "dealer", table)
    so_far = req.get("bids", {})
    if not isinstance(so_far, Mapping):
        raise InputError("expected an object of the bids already made, by seat", "bids")
    bids: list[E.Bid | None] = [None] * table.seats
    for key, value in so_far.items():
        s = F.seat_of(key, f"bids.{key}", table)
        if s == seat:
            raise InputError("the seat being asked about has not bid yet", f"bids.{key}")
        bids[s] = F.bid_of(value, f"bids.{key}")
    hand = C.mask_of(F.cards_of(req["hand"], "hand", rs)) if req.get("hand") is not None else None
    scores, bags = F.scores_before(req, table)
    checked: list[dict] = []
    refusals = E.bid_refusals(rs, seat, bid, hand=hand, dealer=dealer, bids=bids, scores=scores, bags=bags,
                              checked=checked)
    notes = [f"{step['rule']} not checked without the hand" for step in checked if step["value"] is None]
    mate = table.partner(seat)
    partner = bids[mate] if mate is not None else None
    pair = f"{C.SEATS[seat]} {bid}" + (f", {C.SEATS[mate]} {partner}" if mate is not None and partner else "")
    refusing = {step["rule"] for step in refusals}
    for step in checked:
        step["reason"] = _bid_reason(rs, step, seat, bid, pair, scores, refused=step["rule"] in refusing,
                                     partner=partner)
    for step in refusals:
        step["reason"] = _bid_reason(rs, step, seat, bid, pair, scores, refused=True, partner=partner)
    out = {"variant": rs.id, "seat": C.SEATS[seat], "bid": str(bid), "allowed": not refusals,
           "refusals": refusals, "notes": notes, "explanation": checked,
           "exchange": _bid_exchange(rs, seat, bid, partner)}
    if rs.params["raise.by"]:           # (the key only where the variant has a raise round)
        out["raise"] = _bid_raise(rs, seat, bid, bids, hand, dealer, scores, bags)
    return out


def _raise_state(rs: Ruleset, bids: list[E.Bid], hand: int | None, seat: int, dealer: int, scores, bags
                 ) -> E.HandState:
    """A hand whose every seat has bid ``bids`` (``seat`` holding ``hand`` where known), for the raise round."""
    state = E.HandState(rs, [(hand or 0) if s == seat else 0 for s in range(C.table_of(rs.params).seats)], dealer,
                        scores, bags)
    state.set_bids(bids)
    return state


def _bid_raise(rs: Ruleset, seat: int, bid: E.Bid, bids: list[E.Bid | None], hand: int | None, dealer: int,
               scores, bags) -> dict:
    """Whether ``seat``'s bid may be raised in the raise round once every seat has bid (``raise.by``,
    ``raise.allowed``, the side's limits): the bids it may raise to, the rule and why."""
    cite = rs.cite("raise.allowed")
    if bid.kind != E.REGULAR:
        return {"allowed": False, "to": [], **cite, "reason": f"only a regular bid is raised; {bid} is not"}
    filled = [b if b is not None else E.Bid(E.REGULAR, 1) for b in bids]      # (a bid to come: the smallest)
    filled[seat] = bid
    state = _raise_state(rs, filled, hand, seat, dealer, scores, bags)
    to = [str(b) for b in state.round_raise_options(seat) if b != bid]
    by = rs.params["raise.by"]
    reason = (f"once every seat has bid, {R.SEAT_NAMES[C.SEATS[seat]]} may raise {bid} to {', '.join(to)} "
              f"(up to {by} more)" if to else
              f"{R.SEAT_NAMES[C.SEATS[seat]]} may not raise {bid} here: rule raise.allowed, or the side's limits, "
              "leave no larger bid")
    notes = ["raise.allowed not checked without the hand"] if hand is None and "hand" in rs.rules[
        "raise.allowed"].names else []
    return {"allowed": bool(to), "to": to, **cite, "reason": reason, **({"notes": notes} if notes else {})}


def _bid_exchange(rs: Ruleset, seat: int, bid: E.Bid, partner: E.Bid | None) -> dict | None:
    """The cards ``seat``'s bid, beside its partner's (None: not made yet), makes the pair pass after the bids
    (the lowered form's ``exchange_count``): who passes, to whom, how many, the rule."""
    mate = C.table_of(rs.params).partner(seat)
    if mate is None:
        return None
    for passer, mine, theirs in ((seat, bid, partner), (mate, partner, bid)):
        count = E.exchange_count(rs, mine, theirs)
        if count:
            rule = "blind_nil.exchange" if mine.kind == E.BLIND_NIL else "nil.exchange"
            to = C.table_of(rs.params).opposite(passer)
            return {"from": C.SEATS[passer], "to": C.SEATS[to], "cards": count, **rs.cite(rule),
                    "reason": f"{R.SEAT_NAMES[C.SEATS[passer]]}'s {mine} beside {R.SEAT_NAMES[C.SEATS[to]]}'s "
                              f"{theirs or 'bid to come'}: they swap {count} card{'s' if count > 1 else ''} "
                              "after the bids"}
    return None


_SCORE_NAMES = frozenset({"team.score", "opponents.score", "team.bags", "opponents.bags"})


def _table_reason(step: dict, refused: bool) -> str:
    """Rule ``bid.table_valid``'s step in words: a refusal's carry the bids so far (``game/bids._BidNotes``)."""
    return step["why"] if refused and step.get("why") else "the bids so far allow this bid beside them"


def _bid_reason(rs: Ruleset, step: dict, seat: int, bid: E.Bid, pair: str, scores, refused: bool,
                partner: E.Bid | None = None) -> str:
    """The plain-language reason of one bidding step (a seat's bid, beside ``partner``'s where it is
    known, or the partnership's pair)."""
    rule = step["rule"]
    if rule == "bid.table_valid":
        return _table_reason(step, refused)
    if R.template_of(rule).group == "team_bid":
        table = C.table_of(rs.params)
        return R.reason(rule, R.team_bid_facts(table.side_names[table.side_of(seat)], pair, step["value"]),
                        refused=refused)
    if rule == "blind_bid.allowed" and refused and partner is not None and E.BLIND in (bid.kind, partner.kind) \
            and bid != partner:     # a blind bid beside another bid: the side's bid is one blind bid
        (blind_seat, blind), (other_seat, other) = sorted([(seat, bid), (C.table_of(rs.params).partner(seat), partner)],
                                                          key=lambda sb: sb[1].kind != E.BLIND)
        facts = R.bid_facts(C.SEATS[blind_seat], str(blind.n), tuple(scores), step.get("value"),
                            f"{R.SEAT_NAMES[C.SEATS[other_seat]]}'s {other}")
        return R.reason(rule, facts, refused=True, case="pair")
    facts = R.bid_facts(C.SEATS[seat], str(bid.n) if bid.kind == E.BLIND else str(bid), tuple(scores),
                        step.get("value"), table=C.table_of(rs.params))
    case = _bid_case(rs, rule)
    words = when(rs, rule, {"team": facts.get("team", "")}) if rule in R.CONDITIONS and refused else None
    if words and case != "never":        # the rule's own condition, in words (app/conditions)
        return R.condition_reason(rule, words, facts, any(w in words for w in ("behind", "score", "lead", " have ")))
    return R.reason(rule, facts, refused=refused, case=case)


def _bid_case(rs: Ruleset, rule: str) -> str:
    """Which ``why_not`` text of a bid kind's rule fits: never allowed, or allowed only for some numbers of
    tricks, at some scores, or both (by the names the rule reads)."""
    names = rs.rules[rule].names
    if rs.rules[rule].text.strip() == "false":
        return "never"
    if "bid.n" in names:
        return "number_scores" if names & _SCORE_NAMES else "number"
    return "scores"


def _validate_bids(rs: Ruleset, bids: list[E.Bid], scores, bags, dealer: int | None) -> None:
    """Refuse a set of final bids that the variant does not allow."""
    table = C.table_of(rs.params)
    first = E.seat_rule(rs, "deal.first_bidder", dealer) if dealer is not None else 0
    alone = [None] * table.seats      # each bid is checked on its own (bid_refusals only reads it)
    for k in range(table.seats):
        seat = table.left(first, k)
        refusals = E.bid_refusals(rs, seat, bids[seat], hand=None,
                                  dealer=dealer if dealer is not None else table.seats - 1,
                                  bids=alone, scores=scores, bags=bags)
        if refusals:
            r = refusals[0]
            why = _bid_reason(rs, r, seat, bids[seat], "", scores, refused=True)
            raise InputError(f"{R.SEAT_NAMES[C.SEATS[seat]]} may not bid {bids[seat]}: {why}", f"bids.{C.SEATS[seat]}",
                             r["rule"], r["cite"])
    for team in range(table.sides) if table.partners else ():
        first_seat, other_seat = table.members(team)
        pair = [bids[first_seat], bids[other_seat]]
        refusals = E.team_refusals(rs, pair, scores, bags, team)
        if refusals:
            r = refusals[0]
            text = f"{C.SEATS[first_seat]} {pair[0]}, {C.SEATS[other_seat]} {pair[1]}"
            why = _bid_reason(rs, r, team, pair[0], text, scores, refused=True, partner=pair[1])
            raise InputError(f"{table.side_names[team]}'s bids are not allowed together: {why}", "bids",
                             r["rule"], r["cite"])
    if not rs.rules["bid.table_valid"].neutral:
        _validate_table(rs, bids, scores, bags, first, dealer if dealer is not None else table.seats - 1)


def _raised(rs: Ruleset, req: Mapping, bids: list[E.Bid], dealer: int | None, scores, bags) -> list[E.Bid]:
    """The bids after the raise round (``raises``: the seats that raised, each to its new number), each checked
    against the variant's round (``raise.by``, ``raise.allowed``, the side's limits), in bidding order."""
    value = req.get("raises")
    if value is None:
        return bids
    if not rs.params["raise.by"]:
        raise InputError(f"variant '{rs.id}' has no raise round once every seat has bid", "raises", "raise.by",
                         rs.rules["raise.by"].cite)
    table = C.table_of(rs.params)
    raised = F.per_seat_some(value, "raises", F.bid_of, table)
    state = _raise_state(rs, bids, None, 0, dealer if dealer is not None else table.seats - 1, scores, bags)
    for seat in state.bidding_order():
        if raised[seat] is None:
            continue
        options = state.round_raise_options(seat)
        if raised[seat] not in options or raised[seat] == bids[seat]:
            to = ", ".join(str(b) for b in options if b != bids[seat]) or "nothing"
            raise InputError(f"{C.SEATS[seat]}'s {bids[seat]} may be raised to {to} here, not {raised[seat]}",
                             f"raises.{C.SEATS[seat]}", "raise.allowed", rs.rules["raise.allowed"].cite)
        state.raise_bid(seat, raised[seat])
    return list(state.bids)


def _validate_table(rs: Ruleset, bids: list[E.Bid], scores, bags, first: int, dealer: int) -> None:
    """Refuse the first bid, in bidding order, that rule ``bid.table_valid`` refuses beside the bids before it."""
    seats = rs.params["table.seats"]
    so_far: list[E.Bid | None] = [None] * seats
    for k in range(seats):
        seat = (first + k) % seats
        refusals = [r for r in E.bid_refusals(rs, seat, bids[seat], hand=None, dealer=dealer, bids=so_far,
                                              scores=scores, bags=bags) if r["rule"] == "bid.table_valid"]
        if refusals:
            r = refusals[0]
            raise InputError(f"{R.SEAT_NAMES[C.SEATS[seat]]} may not bid {bids[seat]}: {r['why']}",
                             f"bids.{C.SEATS[seat]}", r["rule"], r["cite"])
        so_far[seat] = bids[seat]


def _replay(rs: Ruleset, req: Mapping, bids: list[E.Bid], irregular: list[dict], on_card: CardHook | None = None
            ) -> tuple[list[int], list[int], tuple | None, int]:
    """Derive tricks per seat, reneges, the last trick and the number of unplayed
    tricks (a forfeit renege ends the hand) from a full deal, the exchanges after the ``bids`` (where given) and
    card play; each irregular card that is not refused goes to ``irregular``; ``on_card`` sees the state before
    each card."""
    table = C.table_of(rs.params)
    dealer = F.seat_of(F.get(req, "dealer", ""), "dealer", table)
    seen: dict = {}
    if F.is_drawn(req["deal"]):
        hands = F.drawn_deal(req["deal"], "deal", rs, dealer)
    else:
        hands = F.per_seat(req["deal"], "deal", lambda v, f: C.mask_of(F.cards_of(v, f, rs, seen)), table)
    size = rs.params["deal.hand_size"]
    for s in range(table.seats):
        if hands[s].bit_count() != size:
            raise InputError(f"{C.SEATS[s]} holds {hands[s].bit_count()} cards; each seat is dealt {size}",
                             f"deal.{C.SEATS[s]}")
    state = E.HandState(rs, hands, dealer)
    _take_kitty(state, req, seen)
    state.set_bids(bids)        # (the first leader may depend on them: play.first_leader_by)
    if req.get("exchanges") is not None:
        _exchange_all(state, req["exchanges"])
    reneges: list[int] = []
    forfeit = rs.params["renege.mode"] == "forfeit"
    for value, field in _flat_play(req.get("play")):
        card = F.card_of(value, field, rs)
        if on_card is not None:
            on_card(state, card, field)
        _replay_card(state, card, field, reneges, irregular)
        if len(state.trick) == table.seats:
            state.finish_trick()
            if reneges and forfeit:
                break
    if state.trick:
        raise InputError("the play ends in the middle of a trick", "play")
    if not state.over and not (reneges and forfeit):
        raise InputError(f"the play covers {state.number - 1} tricks; a hand has {size}", "play")
    return state.won, reneges, state.last, size - sum(state.won)


def _take_kitty(state: E.HandState, req: Mapping, seen: dict) -> None:
    """The dealer's kitty (``deal.kitty``) before the bids: ``kitty``, the pack's cards the deal left over, and
    ``discards``, as many cards of the dealer's hand and the kitty, both required where the variant has one."""
    rs, count = state.rs, state.rs.params["deal.kitty"]
    cite = rs.rules["deal.kitty"].cite
    if not count:
        for key in ("kitty", "discards"):
            if req.get(key) is not None:
                raise InputError(f"variant '{rs.id}' deals no kitty: the deal gives every card", key, "deal.kitty",
                                 cite)
        return
    for key in ("kitty", "discards"):
        if req.get(key) is None:
            raise InputError(f"variant '{rs.id}' leaves {count} cards over after the deal, which the dealer takes and "
                             f"then discards {count}: '{key}' is missing", key, "deal.kitty", cite)
    kitty = F.cards_of(req["kitty"], "kitty", rs, seen)
    left = state.kitty_cards()
    if C.mask_of(kitty) != left:
        raise InputError(f"the kitty is the pack's cards the deal leaves over ({', '.join(C.card_names(left))}), "
                         f"not {', '.join(C.card_name(c) for c in kitty) or 'none'}", "kitty", "deal.kitty", cite)
    discards = F.cards_of(req["discards"], "discards", rs)
    if len(discards) != count:
        raise InputError(f"{len(discards)} card(s) discarded; the dealer discards {count}", "discards", "deal.kitty",
                         cite)
    held = state.hands[state.dealer] | left
    for i, card in enumerate(discards):
        if not (held >> card) & 1:
            raise InputError(f"{C.card_name(card)} is neither in {C.SEATS[state.dealer]}'s hand (the dealer's) nor "
                             "in the kitty", f"discards[{i}]", "deal.kitty", cite)
    state.take_kitty(discards)


def _exchange_all(state: E.HandState, value) -> None:
    """The passes after the bids (``exchanges``: ``{from, gave, received}`` each, in any order), checked against
    the variant's: the seats that pass (a blind nil, a nil beside a number) and how many cards."""
    given = _exchanges_given(value, state.table)
    for seat, (field, _) in given.items():
        if seat not in state.exchange_seats():
            partner = state.table.opposite(seat)
            if partner is None:
                raise InputError(f"{C.SEATS[seat]} has no partner to pass cards to (each player plays alone)",
                                 f"{field}.from", "table.sides", state.rs.rules["table.sides"].cite)
            raise InputError(f"{C.SEATS[seat]} bid {state.bids[seat]} beside {C.SEATS[partner]}'s "
                             f"{state.bids[partner]}: no cards are passed for it here", f"{field}.from",
                             *_exchange_rule(state, seat))
    for seat in state.exchange_seats():
        if seat not in given:
            raise InputError(f"{C.SEATS[seat]}'s {state.bids[seat]} passes {state.exchange_count(seat)} card(s) to "
                             "the partner and takes as many back: the exchanges leave it out", "exchanges",
                             *_exchange_rule(state, seat))
        _pass_cards(state, seat, *given[seat])


def _exchanges_given(value, table: C.Table) -> dict[int, tuple[str, Mapping]]:
    """The exchanges of a request by the seat that passes (each with its field path)."""
    if not isinstance(value, list):
        raise InputError('expected a list of exchanges such as [{"from": "N", "gave": ["AS"], "received": ["2C"]}]',
                         "exchanges")
    given: dict[int, tuple[str, Mapping]] = {}
    for i, item in enumerate(value):
        field = f"exchanges[{i}]"
        F.known_fields(F.obj(item, field), ("from", "gave", "received"), field, "an exchange")
        seat = F.seat_of(F.get(item, "from", field), f"{field}.from", table)
        if seat in given:
            raise InputError(f"{C.SEATS[seat]} passes cards once (also at {given[seat][0]})", f"{field}.from")
        given[seat] = (field, item)
    return given


def _exchange_rule(state: E.HandState, seat: int) -> tuple[str, str | None]:
    """The rule that decides ``seat``'s exchange (by its bid) and its citation."""
    rule = "blind_nil.exchange" if state.bids[seat].kind == E.BLIND_NIL else "nil.exchange"
    return rule, state.rs.rules[rule].cite


def _pass_cards(state: E.HandState, seat: int, field: str, item: Mapping) -> None:
    """``seat`` passes the cards ``gave`` and takes ``received``: as many as its bid's exchange, each given from
    its hand and each received from its partner's before the pass."""
    count, sides = state.exchange_count(seat), ((seat, "gave"), (state.table.opposite(seat), "received"))
    cards = [F.cards_of(F.get(item, key, field), f"{field}.{key}", state.rs) for _, key in sides]
    for (holder, key), held in zip(sides, cards):
        if len(held) != count:
            raise InputError(f"{len(held)} card(s) {key}; {C.SEATS[seat]}'s {state.bids[seat]} exchanges {count}",
                             f"{field}.{key}", *_exchange_rule(state, seat))
        missing = [C.card_name(c) for c in held if not (state.hands[holder] >> c) & 1]
        if missing:
            raise InputError(f"{', '.join(missing)} not in {C.SEATS[holder]}'s hand", f"{field}.{key}")
    state.exchange(seat, *cards)


def _flat_play(play) -> list[tuple[object, str]]:
    """The cards played with their field paths: a flat list, or a list of tricks."""
    if not isinstance(play, list):
        raise InputError("expected the cards played, in order, as a list", "play")
    if play and all(isinstance(t, list) for t in play):  # a list of tricks
        return [(card, f"play[{i}][{j}]") for i, t in enumerate(play) for j, card in enumerate(t)]
    return [(item, f"play[{i}]") for i, item in enumerate(play)]


def _replay_card(state: E.HandState, card: int, field: str, reneges: list[int], irregular: list[dict]) -> None:
    """The seat to play plays ``card``.  An irregular card is judged by the procedure
    (``HandState.irregularity``): refused, a renege of its seat, or a card that stands; the
    last two are recorded in ``irregular`` with their kind and the rules that decide them."""
    seat = state.to_play
    if not (state.hands[seat] >> card) & 1:
        raise InputError(f"{C.card_name(card)} is not in {C.SEATS[seat]}'s hand", field)
    found = state.irregularity(card)
    if found is not None:
        if found["ruling"] == "refused":
            raise _refused_card(state, seat, card, found, field)
        irregular.append({"field": field, "seat": C.SEATS[seat], **found})
        if found["renege"] and seat not in reneges:
            reneges.append(seat)
    state.play(card)


def _refused_card(state: E.HandState, seat: int, card: int, found: dict, field: str) -> InputError:
    """The refusal of an irregular card: why, in a player's words, then its kind and the rule that refuses it."""
    broken = found["broken"] or {"rule": None, "cite": None}
    by = found["decided_by"][0]
    ruling = f"{found['what']}, refused under {by['rule']} ({by['cite'] or 'not stated'})"
    step = next((s for s in state.legal_cards(explain=True).steps if s["rule"] == broken["rule"]), None)
    words = (_card_refusal(state.rs, state, seat, card, step) if step
             else f"{C.SEATS[seat]} may not play {found['card']} here")
    return InputError(f"{words} ({ruling})", field, broken["rule"], broken["cite"])


def _card_refusal(rs: Ruleset, state: E.HandState, seat: int, card: int, rule: dict) -> str:
    """Why ``seat`` may not play ``card``, in a player's words ("South: 5♦ may not be played: clubs were
    led and ...")."""
    suits = [_suit(rs, c) for c in C.iter_cards(state.hands[seat])]
    led, trump = _suit(rs, state.trick[0]) if state.trick else "", _suit(rs, None)
    facts = R.play_facts(C.card_name(card), rule["value"], suits, led, trump, state.broken, state.number)
    case = R.play_case(rule["rule"], _suit(rs, card), suits, led, trump, state.broken)
    return f"{R.SEAT_NAMES[C.SEATS[seat]]}: " + R.reason(rule["rule"], facts, refused=True, case=case)


def answer_score(rs: Ruleset, req: Mapping, on_card: CardHook | None = None) -> dict:
    """Score one hand: points line by line with citations, new totals, and the game's state (``on_card``: a
    replayed play's hook, called with the hand's state before each card, as ``app.audit`` follows it)."""
    return _scored(rs, req, on_card)[0]


def _scored(rs: Ruleset, req: Mapping, on_card: CardHook | None = None,
            history: E.GameHistory = E.NO_HISTORY) -> tuple[dict, E.GameHistory]:
    """``answer_score``'s answer after the game's hands before it (``history``, as ``answer_game`` keeps it), and
    the history with this hand added."""
    table = C.table_of(rs.params)
    bids = F.per_seat(F.get(req, "bids", ""), "bids", F.bid_of, table)
    scores, bags = F.scores_before(req, table)
    dealer = F.seat_of(req["dealer"], "dealer", table) if req.get("dealer") is not None else None
    _validate_bids(rs, bids, scores, bags, dealer)
    bids = _raised(rs, req, bids, dealer, scores, bags)
    irregular: list[dict] = []
    tricks, reneges, last = _hand_tricks(rs, req, bids, irregular, on_card)
    reneges += _renege_events(req, table)
    try:
        results = E.score_hand(rs, bids, tricks, scores, bags, reneges, last)
    except GameError as exc:
        raise InputError(exc.message, exc.field, exc.rule, exc.cite) from None
    _within_bounds(rs, results)
    new_scores = tuple(r.score for r in results)
    new_bags = tuple(r.bags for r in results)
    hands = F.whole(req.get("hands_played", 0), "hands_played", 0, 10_000) + 1
    history = history.after(results)
    game = E.game_status(rs, new_scores, new_bags, hands, explain=True, history=history)
    if game["over"] and game.get("rule", {}).get("rule") == "game.mercy":
        game["reason"] = game_end(rs, game, new_scores) or _history_end(rs, history) or game["reason"]
    names = [str(b) for b in bids]
    explanation = [step for t, r in enumerate(results) for step in _team_steps(rs, bids, names, t, r)]
    target = rs.params["game.target"]
    for step in game["explanation"]:
        step["reason"] = R.game_reason(step["rule"], new_scores, target, step["value"],
                                       _target_case(rs, step, new_scores, new_bags, hands), table.side_names)
    explanation += game.pop("explanation")
    out = {"variant": rs.id, "bids": dict(zip(C.SEATS, names)), "tricks": dict(zip(C.SEATS, tricks)),
           "teams": {table.side_names[t]: r.as_dict() for t, r in enumerate(results)},
           "game": game, "explanation": explanation}
    if irregular:
        out["irregularities"] = irregular
    return out, history


_HISTORY_NAMES = frozenset(f"{side}.{name}" for side in ("ns", "ew") for name in ("contract", "made", "sets",
                                                                                    "sets_in_a_row"))


def _history_end(rs: Ruleset, history: E.GameHistory) -> str | None:
    """Why the game ended where its end rule reads the game so far: each side's sets and its contract this
    hand, in words (None where the rule reads none of them)."""
    if not rs.rules["game.mercy"].names & _HISTORY_NAMES:
        return None
    sides = []
    for t, team in enumerate(C.table_of(rs.params).side_names):
        made = "made" if history.made[t] else "failed"
        contract = f"bid {history.contracts[t]} and {made} it" if history.contracts[t] else "had no contract"
        sides.append(f"{team} {contract} this hand, set {history.sets[t]} time(s) in the game "
                     f"({history.streaks[t]} in a row)")
    return "the game ends on the hands so far (game.mercy): " + "; ".join(sides)


def _target_case(rs: Ruleset, step: dict, scores: tuple[int, int], bags: tuple[int, int], hands: int) -> str | None:
    """``not_past`` where the target is not reached although a side is on it and one point more would
    reach it (these rules end the game only above the target), else None."""
    high = max(scores)
    if step["rule"] != "game.target_reached" or step["value"] or high != rs.params["game.target"]:
        return None
    above = tuple(s + 1 if s == high else s for s in scores)
    past = E.game_status(rs, above, bags, hands, explain=True)["explanation"][0]["value"]
    return "not_past" if past else None


def _hand_tricks(rs: Ruleset, req: Mapping, bids: list[E.Bid], irregular: list[dict],
                 on_card: CardHook | None = None) -> tuple[list[int], list[int], tuple | None]:
    """Tricks per seat, the reneges found and the last trick: replayed from the deal and play (the
    irregular cards found go to ``irregular``), or as given."""
    size = rs.params["deal.hand_size"]
    for key in ("exchanges", "kitty", "discards"):
        if req.get("deal") is None and req.get(key) is not None:
            raise InputError(f"the {key} go with the deal and play" if key != "kitty" else
                             "the kitty goes with the deal and play", key)
    if req.get("deal") is not None or req.get("play") is not None:
        if req.get("tricks") is not None:
            raise InputError("give either tricks per seat or the deal and play, not both", "tricks")
        if req.get("deal") is None or req.get("play") is None:
            raise InputError("the deal and the play go together", "deal" if req.get("deal") is None else "play")
        tricks, reneges, last, unplayed = _replay(rs, req, bids, irregular, on_card)
        return (_fill_dead_hand(tricks, unplayed, reneges, bids) if unplayed else tricks), reneges, last
    tricks = F.per_seat(F.get(req, "tricks", ""), "tricks", lambda v, f: F.whole(v, f, 0, size),
                        C.table_of(rs.params))
    if sum(tricks) != size:
        raise InputError(f"tricks add up to {sum(tricks)}; a hand has {size}", "tricks")
    return tricks, [], _last_trick(rs, req)


def _renege_events(req: Mapping, table: C.Table) -> list[int]:
    """The seats of the renege events a request reports."""
    events = req.get("events", [])
    if not isinstance(events, list):
        raise InputError("expected a list of events such as [{\"type\": \"renege\", \"seat\": \"E\"}]", "events")
    seats = []
    for i, event in enumerate(events):
        event = F.obj(event, f"events[{i}]")
        if event.get("type") != "renege":
            raise InputError("the only event is {\"type\": \"renege\", \"seat\": …}", f"events[{i}].type")
        seats.append(F.seat_of(F.get(event, "seat", f"events[{i}]"), f"events[{i}].seat", table))
    return seats


def _team_steps(rs: Ruleset, bids: list[E.Bid], names: list[str], t: int, result: E.TeamResult) -> list[dict]:
    """A partnership's part of the explanation: its contract, how its nil bidders' tricks count, its lines."""
    table = C.table_of(rs.params)
    team = table.side_names[t]
    steps = []
    words = tuple(str(b) for b in bids)
    for line, facts in zip(result.lines, result.facts):
        line["reason"] = R.line_reason(line["rule"], team, line["points"], R.facts_key(facts), words)
    members = table.members(t)
    regular = [s for s in members if bids[s].kind == E.REGULAR]
    for seat in (s for s in regular if bids[s].n == 0):     # a zero: the rule that makes it a bid, not a nil
        step = rs.step("bid.zero", True, f"{C.SEATS[seat]}'s zero is an ordinary bid of no tricks")
        step["team"] = team
        step["reason"] = f"{R.SEAT_NAMES[C.SEATS[seat]]} bid zero: a contract of no tricks, not a nil"
        steps.append(step)
    if regular:
        step = rs.step("bid.team_contract", result.contract, " + ".join(f"{C.SEATS[s]} {names[s]}" for s in regular))
        step["team"] = team     # rs.step gives a fresh record
        step["reason"] = R.contract_reason(team, step["why"], result.contract, not table.partners)
        steps.append(step)
    if any(bids[s].is_nil for s in members):
        for rule, why in (("nil.tricks_count", "whether the nil bidder's tricks count toward the contract"),
                          ("nil.tricks_bags", "whether the nil bidder's tricks count as overtricks (bags)")):
            step = rs.step(rule, rs.params[rule], why)
            step["team"] = team
            step["reason"] = R.setting_reason(rule, team, step["value"], not table.partners)
            steps.append(step)
    return steps + [{**line, "team": team} for line in result.lines]    # the lines also go out under "teams"


def _within_bounds(rs: Ruleset, results) -> None:
    """Scores and bags stay within ``MAX_CONTEXT_INT``: the rules' arithmetic is bounded for numbers of
    that size, and a game that multiplies its scores hand after hand is refused, naming the rule."""
    for t, r in enumerate(results):
        if max(abs(r.score), abs(r.bags), abs(r.points)) > MAX_CONTEXT_INT:
            line = max(r.lines, key=lambda ln: abs(ln.get("points") or 0), default={})
            side = C.table_of(rs.params).side_names[t]
            raise InputError(f"{side}'s score or bags would exceed {MAX_CONTEXT_INT:,} (the rules' limit)",
                             "variant", line.get("rule"), line.get("cite"))


def _fill_dead_hand(tricks: list[int], fill: int, reneges: list[int], bids: list[E.Bid]) -> list[int]:
    """Unplayed tricks of a hand ended by a forfeit renege, credited to the side that did not renege
    (it scores its bid in any case; the count only matters for the 13-trick total), to a partner who
    did not bid nil where there is one (a nil is judged on the tricks taken before the renege)."""
    out = list(tricks)
    seats = len(tricks)
    innocent = [(reneges[0] + k) % seats for k in range(1, seats) if seats != 4 or k != 2]
    seat = next((s for s in innocent if not bids[s].is_nil), innocent[0])
    out[seat] += fill
    return out


def _last_trick(rs: Ruleset, req: Mapping) -> tuple[int, list[int]] | None:
    lt = req.get("last_trick")
    if lt is None:
        return None
    lt = F.obj(lt, "last_trick")
    table = C.table_of(rs.params)
    winner = F.seat_of(F.get(lt, "winner", "last_trick"), "last_trick.winner", table)
    seen: dict = {}
    by_seat = F.per_seat(F.get(lt, "cards", "last_trick"), "last_trick.cards",
                         lambda v, f: F.cards_of([v], f, rs, seen)[0], table)
    return winner, by_seat + [0] * (4 - table.seats)


def answer_game(rs: Ruleset, req: Mapping) -> dict:
    """Score a list of hands in sequence: the running sheet and the result."""
    hands = F.get(req, "hands", "")
    if not isinstance(hands, list) or not hands:
        raise InputError("expected a non-empty list of hands", "hands")
    if len(hands) > 500:
        raise InputError("at most 500 hands", "hands")
    table = C.table_of(rs.params)
    names = table.side_names
    scores, bags = F.scores_before(req, table)
    sheet = []
    history = E.NO_HISTORY
    status: dict = {"over": False, "winner": None}
    for i, hand in enumerate(hands):
        hand = _game_hand(hand, i)
        if status["over"]:
            raise InputError(f"the game already ended after hand {i} ({status['winner']} won)", f"hands[{i}]")
        sub = F.present(hand)
        sub["before"] = {names[t]: {"score": scores[t], "bags": bags[t]} for t in range(table.sides)}
        sub["hands_played"] = i
        try:
            answer, history = _scored(rs, sub, history=history)
        except InputError as exc:
            raise InputError(exc.message, f"hands[{i}].{exc.field}" if exc.field else f"hands[{i}]",
                             exc.rule, exc.cite, exc.details) from None
        scores = tuple(answer["teams"][t]["score"] for t in names)
        bags = tuple(answer["teams"][t]["bags"] for t in names)
        status = answer["game"]
        sheet.append({"hand": i + 1, **{t: {k: answer["teams"][t][k] for k in ("points", "bags_added", "score", "bags")}
                                        for t in names}, "lines": answer["explanation"], "game": status})
    result = {**status, "after_hand": len(hands),
              "scores": {t: {"score": scores[k], "bags": bags[k]} for k, t in enumerate(names)}}
    return {"variant": rs.id, "sheet": sheet, "result": result}


_POSITION = ("hands", "leader", "trick", "broken", "deal", "dealer", "play", "budget")
FIELDS: dict[str, tuple[str, ...]] = {       # the fields each kind reads (and 'variant' or 'variants')
    "trick": ("leader", "cards", "number"), "legal": ("hand", "trick", "number", "broken"),
    "bid": ("seat", "bid", "dealer", "bids", "hand", "before"),
    "score": ("bids", "raises", "tricks", "deal", "kitty", "discards", "exchanges", "play", "dealer", "before",
              "hands_played", "last_trick", "events"),
    "game": ("hands", "before"), "solve": _POSITION, "claim": (*_POSITION, "claim"), "nil": (*_POSITION, "nil"),
}
def _game_hand(hand, i: int) -> Mapping:
    """A game's hand ``i``: a score request's fields, less those the game sets (the scores before it)."""
    hand = F.obj(hand, f"hands[{i}]")
    for key in ("before", "hands_played"):
        if key in hand:
            raise InputError(f"a game's hand takes no '{key}': each hand starts from the scores the hands "
                             "before it leave (the game's own 'before' is its start)", f"hands[{i}].{key}")
    F.known_fields(hand, FIELDS["score"], f"hands[{i}]", "a game's hand")
    return hand


REQUIRED: dict[str, tuple[str, ...]] = {     # fields each kind needs, whatever the variant
    "trick": ("leader", "cards"), "legal": ("hand",), "bid": ("seat", "bid"), "score": ("bids",), "game": ("hands",),
    "solve": (), "claim": ("claim",), "nil": ("nil",),
}
KINDS: dict[str, Callable[[Ruleset, Mapping], dict]] = {
    "trick": answer_trick, "legal": answer_legal, "bid": answer_bid, "score": answer_score, "game": answer_game,
    **claims.KINDS,
}


def with_readings(rs: Ruleset, answer_: dict) -> dict:
    """``answer_`` with a ``readings`` note for each rule it applied whose value is a reading (a clause
    marked ambiguous, unspecified or conflicting, or a rule without a source): the clause and the
    alternative."""
    notes = readings_for(rs, values_of(answer_, "rule"))
    if notes:
        answer_["readings"] = notes
    return answer_


_SCALARS = frozenset({str, int, bool, float, type(None)})


def values_of(answer_: object, key: str) -> set[str]:
    """Every string value of ``key`` anywhere in an answer (e.g. every ``rule`` or ``cite`` of its trail)."""
    found: set[str] = set()
    stack = [answer_]
    while stack:
        item = stack.pop()
        if type(item) is dict or isinstance(item, Mapping):
            value = item.get(key)
            if isinstance(value, str):
                found.add(value)
            item = item.values()
        for child in item:      # only objects and lists are stacked: most of an answer is leaves
            if type(child) in _SCALARS:
                continue
            if type(child) is dict or type(child) is list or isinstance(child, (Mapping, list)):
                stack.append(child)
    return found
