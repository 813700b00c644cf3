"""One hand played in lockstep by another engine and by a variant's ``HandState``, compared at every state.

The table is the variant's (``core.cards.table_of``: 2 to 6 seats, in partnerships or each alone).  At
each decision the seat to act and the legal bids or cards are compared (and, where the engine has those
steps, the raises open to a nil bidder's partner and the blind-nil exchanges; where the book draws the
hands, the seat at each turn of the draw); after each trick its winner; after the hand each side's points
(a partnership's, or a player's where each plays alone), the bags held and the end of the game.  A
difference is a *finding*: its stage and kind, the variant's rules that decide the point (see
``docs/conformance.md``), and the situation as a scenario input with both answers.  The move made is one
both allow (the engine's own in a recorded hand): the hand stays one the rule book can reach while the
engine is never asked to make a move it forbids.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...core import cards as C
from ...errors import EngineError
from ...game import (BLIND_NIL, NIL, REGULAR, Bid, HandState, applicable_constraints, bid_refusals, game_status,
                     team_refusals)
from ...game.fused import draw_cards
from ...game.policies import discard_of, keep_of
from ...model.ruleset import Ruleset
from ..diff.deals import Deal
from .protocol import EngineHand, HandResult

STAGES = ("turn", "bid", "raise", "exchange", "legal", "trick", "score", "bags", "game")
STAGE_TITLES = {"turn": "seat to act (or to draw)", "bid": "legal bids", "raise": "raises after a partner's nil",
                "exchange": "blind-nil exchange", "legal": "legal cards", "trick": "trick winner",
                "score": "hand score", "bags": "bags after the hand", "game": "game over/winner"}
KINDS = {"turn": ("seat",), "bid": ("engine_forbids", "engine_allows"), "raise": ("engine_forbids", "engine_allows"),
         "exchange": ("exchange",), "legal": ("engine_forbids", "engine_allows"),
         "trick": ("winner",), "score": ("points",), "bags": ("bags",), "game": ("end",)}
KIND_TITLES = {"seat": "another seat acts", "engine_forbids": "the engine forbids what the book allows",
               "engine_allows": "the engine allows what the book forbids", "winner": "another seat wins the trick",
               "exchange": "other seats exchange, or another number of cards", "points": "other points",
               "bags": "other bags", "end": "another game status"}
TURN_ORDER = "(order of play)"
NO_LINE = "(a score line the book does not have)"


@dataclass
class Finding:
    """One difference: where, which rules of the variant decide it, and the situation that shows it."""
    stage: str
    kind: str
    rules: list[str]
    note: dict
    example: dict | None = None      # {kind, input, book, engine}: a scenario input and both answers
    lines: tuple[tuple[str, int], ...] | None = None   # a side's score lines (rule, points), for ``score``
    delta: int = 0                                     # the book's points minus the engine's, for ``score``


def _bid_json(bid: Bid):
    return "nil" if bid.kind == "nil" else bid.n if bid.kind == "regular" else str(bid)


def _before_json(table: C.Table, before) -> dict:
    scores, bags = (table.padded(values) for values in before)
    return {side: {"score": scores[i], "bags": bags[i]} for i, side in enumerate(table.side_names)}


def score_lines(result) -> tuple[tuple[str, int], ...]:
    """A side's score lines as (rule, points)."""
    return tuple((line["rule"], line["points"]) for line in result.lines if line.get("rule"))


def score_credit(lines, delta: int, cleared: set) -> list[str]:
    """The rules that decide a score the engine makes ``delta`` points lower than the book: the book's
    line worth exactly ``delta`` (the engine leaves it out), else the side's lines that never appeared,
    with the same points, in a side's score the engine agreed with, else a line the book does not have."""
    exact = {rule for rule, points in lines if points == delta}
    return sorted(exact or {rule for rule, points in lines if (rule, points) not in cleared}) or [NO_LINE]


class Lockstep:
    """A hand of ``deal`` under ``rs`` and in the engine's ``hand``, the moves chosen by ``policy``."""

    def __init__(self, rs: Ruleset, deal: Deal, hand: EngineHand, policy, hands_played: int = 1):
        self.rs, self.deal, self.eng, self.policy = rs, deal, hand, policy
        self.table = C.table_of(rs.params)
        self.book = HandState(rs, list(deal.hands), deal.dealer, *deal.before)   # drawn: again from the draw
        self.hands_played = hands_played
        self.findings: list[Finding] = []
        self.states: Counter[str] = Counter()
        self.after: tuple[tuple[int, ...], tuple[int, ...]] | None = None   # the book's totals after the hand
        self.over = False
        self.engine_tricks = [0] * self.table.seats    # tricks per seat by the engine's winners
        self.cleared: set[tuple[str, int]] = set()   # score lines of sides the engine scores as the book does

    def run(self) -> Lockstep:
        """Play and compare the whole hand (a hand whose seat to act differs stops there)."""
        if self._draw() and self._kitty() and self._bids() and self._exchange() and self._play():
            self._score()
        return self

    # ------------------------------------------------------------------ helpers
    def _find(self, stage: str, kind: str, rules, note: dict, example: dict | None = None, lines=None,
              delta: int = 0) -> None:
        self.findings.append(Finding(stage, kind, sorted(set(rules)), note, example, lines, delta))

    def _turn(self, seat: int, rule: str) -> bool:
        self.states["turn"] += 1
        theirs = self.eng.to_act()
        if theirs == seat:
            return True
        self._find("turn", "seat", [rule], {"book": C.SEATS[seat], "engine": C.SEATS[theirs]})
        return False

    # ------------------------------------------------------------------ the draw
    def _draw(self) -> bool:
        """The hands drawn from the deal's stock (``deal.draw``): the book's draw (the form's ``draw_hands``), the
        runner's player choosing at each turn and the engine told by its ``draw`` step (without it, the variant
        cannot be played); the seat at each turn is compared, and a draw whose seat differs stops the hand."""
        rs, deal = self.rs, self.deal
        if not rs.params["deal.draw"]:
            return True
        step = getattr(self.eng, "draw", None)
        if step is None:
            raise EngineError(f"the engine has no draw step (draw): variant '{rs.id}' draws its hands from the stock "
                              f"(deal.draw @ {rs.rules['deal.draw'].cite}), so it cannot play it")
        if deal.stock is None:
            raise EngineError(f"variant '{rs.id}' draws its hands from the stock, and the deal has none")
        in_step = [True]

        def keep(seat: int, card: int, hand: int, turn: int) -> int:
            choice = keep_of(self.policy, rs, seat, card, hand, turn)
            if in_step[0] and self._turn(seat, "deal.draw"):
                step(bool(choice))
            else:
                in_step[0] = False
            return choice

        hands, _ = draw_cards(rs)(deal.stock, deal.dealer, keep)
        self.book = HandState(rs, hands, deal.dealer, *deal.before)
        return in_step[0]

    # ------------------------------------------------------------------ the kitty
    def _kitty(self) -> bool:
        """The dealer's kitty (``deal.kitty``), before the bids: the runner's player discards from the book's
        hand and both sides are told (the engine by its ``take_kitty`` step: without it, the variant cannot be
        played, and the run stops saying so)."""
        count = self.rs.params["deal.kitty"]
        if not count:
            return True
        take = getattr(self.eng, "take_kitty", None)
        if take is None:
            raise EngineError(f"the engine has no discard step (take_kitty): variant '{self.rs.id}' deals a kitty of "
                              f"{count} cards that the dealer takes and discards from before the bids (deal.kitty @ "
                              f"{self.rs.rules['deal.kitty'].cite}), so it cannot play it")
        book = self.book
        kitty = book.kitty_cards()
        discard = discard_of(self.policy, self.rs, book.dealer, book.hands[book.dealer] | kitty, count)
        book.take_kitty(discard)
        take(kitty, list(discard))
        return True

    # ------------------------------------------------------------------ bids
    def _unexchanged_kinds(self) -> set[str]:
        """The bid kinds the player does not choose: without the engine's exchange step, no hand may need one
        (docs/conformance.md), so neither blind nil nor nil where the book passes cards for it."""
        if hasattr(self.eng, "exchanges"):
            return set()
        return {kind for kind, rule in ((BLIND_NIL, "blind_nil.exchange"), (NIL, "nil.exchange"))
                if self.rs.params[rule]}

    def _bids(self) -> bool:
        book, rs = self.book, self.rs
        if hasattr(self.policy, "observe_scores"):
            self.policy.observe_scores(self.deal.before[0])
        passing = self._unexchanged_kinds()
        for _ in range(self.table.seats):
            seat = book.bidder
            if not self._turn(seat, "deal.first_bidder"):
                return False
            mine, theirs = book.legal_bids(), self.eng.legal_bids()
            if theirs is not None:
                self.states["bid"] += 1
                self._compare_bids(seat, mine, theirs)
            choice = self.eng.chosen()
            if choice is None:
                both = [b for b in mine if (theirs is None or b in theirs) and b.kind not in passing]
                options = both or theirs or mine
                if not options:
                    raise EngineError(f"{C.SEATS[seat]} has no bid both sides allow")
                choice = self.policy.bid(rs, seat, options, book.hands[seat])
            raises = book.bid(choice)
            self.eng.bid(choice)
            self._raise(seat, choice, raises)
        return True

    def _raise(self, seat: int, bid: Bid, mine: list[Bid]) -> None:
        """After ``seat``'s nil, its partner having bid a number: the raises each side allows the partner,
        compared where the engine has the step (``raise_options``), and one both allow is made (the runner's
        player chooses; staying at the present bid is one of the choices).  Without the step none is made."""
        book, partner = self.book, self.table.partner(seat)
        ask = getattr(self.eng, "raise_options", None)
        if ask is None or partner is None or not bid.is_nil:
            return
        present = book.bids[partner]
        if present is None or present.kind != REGULAR:
            return
        theirs = list(ask(partner))
        self.states["raise"] += 1
        self._compare_raises(seat, partner, bid, mine, theirs)
        both = [b for b in mine if b in theirs]
        if any(b != present for b in both):
            choice = self.policy.raise_bid(self.rs, partner, both, book.hands[partner])
            book.raise_bid(partner, choice)
            self.eng.raise_bid(partner, choice)

    def _compare_raises(self, seat: int, partner: int, bid: Bid, mine: list[Bid], theirs: list[Bid]) -> None:
        """Raises one side allows ``partner``, the partner of ``seat`` (who bid ``bid``), and the other does not
        (the present bid left out): the rule that refuses or allows them."""
        book = self.book
        present = book.bids[partner]
        for kind, extra in (("engine_allows", [b for b in theirs if b not in mine and b != present]),
                            ("engine_forbids", [b for b in mine if b not in theirs and b != present])):
            if not extra:
                continue
            rules = ["nil.partner_may_raise"]
            if kind == "engine_allows" and self.rs.params["nil.partner_may_raise"]:
                rules = [name for b in extra for name in
                         team_refusals(self.rs, (b, bid), book.scores, book.bags, self.table.side_of(seat),
                                       explain=False)]
            self._find("raise", kind, rules or ["nil.partner_may_raise"],
                       {"seat": C.SEATS[partner], "nil": C.SEATS[seat], "present": str(present),
                        "bids": [str(b) for b in extra]})

    def _exchange(self) -> bool:
        """The exchanges (blind nil, nil pass), where the engine has the step (``exchanges``): the same seats
        passing the same numbers of cards, then the cards (chosen by the runner's player from the book's hands) passed
        in both.  Exchanges that differ stop the hand there: the hands held would no longer be the same."""
        ask = getattr(self.eng, "exchanges", None)
        if ask is None:
            return True
        book, rs = self.book, self.rs
        mine = [(seat, book.exchange_count(seat)) for seat in book.exchange_seats()]
        theirs = [(int(seat), int(n)) for seat, n in ask()]
        if not (mine or theirs):
            return True
        self.states["exchange"] += 1
        if mine != theirs:
            seats = {seat for seat, _ in set(mine) ^ set(theirs)}
            rules = sorted({"blind_nil.exchange" if book.bids[seat].kind == BLIND_NIL else "nil.exchange"
                            for seat in seats})
            self._find("exchange", "exchange", rules,
                       {"book": [f"{C.SEATS[s]} passes {n}" for s, n in mine],
                        "engine": [f"{C.SEATS[s]} passes {n}" for s, n in theirs]})
            return False
        for seat, count in mine:        # (exchanges are between partners: none where each plays alone)
            partner = book.table.opposite(seat)
            give = self.policy.exchange(rs, seat, book.hands[seat], count)
            back = self.policy.exchange(rs, partner, book.hands[partner], count)
            book.exchange(seat, give, back)
            self.eng.exchange(seat, list(give), list(back))
        return True

    def _compare_bids(self, seat: int, mine: list[Bid], theirs: list[Bid]) -> None:
        book = self.book
        ask = dict(hand=book.hands[seat], dealer=book.dealer, bids=book.bids, scores=book.scores, bags=book.bags)
        for kind, extra, allowed in (("engine_allows", [b for b in theirs if b not in mine], False),
                                     ("engine_forbids", [b for b in mine if b not in theirs], True)):
            if not extra:
                continue
            rules = []
            for bid in extra:
                checked: list = []
                refusals = bid_refusals(self.rs, seat, bid, checked=checked, **ask)
                rules += [refusals[0]["rule"]] if refusals else [step["rule"] for step in checked]
            situation = {"seat": C.SEATS[seat], "bid": _bid_json(extra[0]), "dealer": C.SEATS[book.dealer],
                         "bids": {C.SEATS[s]: _bid_json(b) for s, b in enumerate(book.bids) if b is not None},
                         "before": _before_json(self.table, (book.scores, book.bags))}
            self._find("bid", kind, rules, {"seat": C.SEATS[seat], "bids": [str(b) for b in extra]},
                       {"kind": "bid", "input": situation, "book": {"allowed": allowed},
                        "engine": {"allowed": not allowed}})

    # ------------------------------------------------------------------ play
    def _play(self) -> bool:
        book = self.book
        for number in range(1, book.size + 1):
            for position in range(self.table.seats):
                rule = TURN_ORDER if position else "play.first_leader" if number == 1 else "trick.winner"
                if not self._turn(book.to_play, rule):
                    return False
                self._card(book.to_play)
            self.engine_tricks[self._trick()] += 1
        return True

    def _card(self, seat: int) -> None:
        book, rs = self.book, self.rs
        mine, theirs = rs.deck & book.legal(seat), self.eng.legal_cards()
        self.states["legal"] += 1
        if mine != theirs:
            self._compare_cards(seat, mine, theirs)
        card = self.eng.chosen()
        if card is None:
            options = mine & theirs or theirs
            if not options:
                raise EngineError(f"the engine gives {C.SEATS[seat]} no legal card")
            card = self.policy.play(rs, seat, options, book.trick, book.hands[seat])
        book.play(card, seat)
        self.eng.play(card)

    def _compare_cards(self, seat: int, mine: int, theirs: int) -> None:
        book = self.book
        situation = {"hand": C.card_names(book.hands[seat]), "trick": [C.card_name(c) for c in book.trick],
                     "number": book.number, "broken": book.broken}
        answers = {"book": {"legal": C.card_names(mine)}, "engine": {"legal": C.card_names(theirs)}}
        note = {"trick": book.number, "seat": C.SEATS[seat], "broken": book.broken}
        forbidden = theirs & ~mine
        if forbidden:
            self._find("legal", "engine_allows", self._forbidding(seat, forbidden),
                       {**note, "cards": C.card_names(forbidden)}, {"kind": "legal", "input": situation, **answers})
        allowed = mine & ~theirs
        if allowed:
            self._find("legal", "engine_forbids", self._allowing(seat),
                       {**note, "cards": C.card_names(allowed)}, {"kind": "legal", "input": situation, **answers})

    def _forbidding(self, seat: int, cards: int) -> list[str]:
        """The rule that removes each card from the book's legal set (its pack, or a play constraint)."""
        book, rs = self.book, self.rs
        steps = book.legal_cards(seat, explain=True).steps
        rules = []
        for card in C.iter_cards(cards):
            name = C.card_name(card)
            if not (rs.deck >> card) & 1:
                rules.append("deck.cards")
                continue
            rules.append(next((s["rule"] for s in steps if name not in s["value"]), TURN_ORDER))
        return rules

    def _allowing(self, seat: int) -> list[str]:
        """The book's play constraints that apply here and let the cards through (the ones that narrowed the
        hand, else all that apply), with ``trump.breaks`` where one of them reads whether trumps are broken."""
        book, rs = self.book, self.rs
        steps = [s["rule"] for s in book.legal_cards(seat, explain=True).steps]
        rules = steps or list(applicable_constraints(not book.trick, book.number == 1))
        if book.broken and any("trump_broken" in rs.rules[r].names for r in rules if r in rs.rules):
            rules.append("trump.breaks")
        return rules

    def _trick(self) -> int:
        book = self.book
        leader = book.plays[-self.table.seats][0]
        cards = [C.card_name(c) for c in book.trick]
        number = book.number
        mine = book.finish_trick()
        theirs = self.eng.trick_winner()
        if theirs is None:
            return mine
        self.states["trick"] += 1
        if theirs != mine:
            situation = {"leader": C.SEATS[leader], "cards": cards, "number": number}
            self._find("trick", "winner", ["trick.winner"],
                       {"trick": number, "book": C.SEATS[mine], "engine": C.SEATS[theirs]},
                       {"kind": "trick", "input": situation, "book": {"winner": C.SEATS[mine]},
                        "engine": {"winner": C.SEATS[theirs]}})
            book.leader = theirs     # the engine's winner leads on: the hand goes on in lockstep
        return theirs

    # ------------------------------------------------------------------ score
    def _score(self) -> None:
        book = self.book
        results = book.score(tricks=self.engine_tricks, explain=True)
        self.after = (tuple(r.score for r in results), tuple(r.bags for r in results))
        status = game_status(self.rs, self.after[0], self.after[1], self.hands_played)
        self.over = status["over"]
        theirs = self.eng.result()
        if theirs is None:
            return
        situation = {"bids": {C.SEATS[s]: _bid_json(b) for s, b in enumerate(book.bids)},
                     "tricks": {C.SEATS[s]: n for s, n in enumerate(self.engine_tricks)},
                     "before": _before_json(self.table, self.deal.before)}
        if len(theirs.points) != len(results) or theirs.bags is not None and len(theirs.bags) != len(results):
            raise EngineError(f"the engine scores {len(theirs.points)} sides; variant '{self.rs.id}' scores "
                              f"{len(results)} ({', '.join(self.table.side_names)})")
        for team, mine in enumerate(results):
            self.states["score"] += 1
            if theirs.points[team] != mine.points:
                self._team_finding("score", team, mine, theirs.points[team], situation)
            else:
                self.cleared.update(score_lines(mine))
            if theirs.bags is not None:
                self.states["bags"] += 1
                if theirs.bags[team] != mine.bags:
                    self._team_finding("bags", team, mine, theirs.bags[team], situation)
        self._game(status, theirs)

    def _team_finding(self, stage: str, team: int, mine, value: int, situation: dict) -> None:
        """A side's points (``score``) or bags (``bags``) differ.  Bags: the book's bag rules that applied.
        Points: decided when the run is merged (``score_credit``), from the side's score lines."""
        name = self.table.side_names[team]
        field = "points" if stage == "score" else "bags"
        book_value = getattr(mine, field)
        rules = [] if stage == "score" else \
            [line["rule"] for line in mine.lines if str(line.get("rule")).startswith("bags.")] or ["scoring.bags"]
        who = "team" if self.table.partners else "player"
        self._find(stage, KINDS[stage][0], rules, {who: name, "book": book_value, "engine": value},
                   {"kind": "score", "input": situation, "book": {"teams": {name: {field: book_value}}},
                    "engine": {"teams": {name: {field: value}}}}, score_lines(mine) if stage == "score" else None,
                   book_value - value)

    def _game(self, status: dict, theirs: HandResult) -> None:
        if theirs.game_over is None:
            return
        self.states["game"] += 1
        mine = (status["over"], status["winner"])
        if mine != (theirs.game_over, theirs.winner if theirs.game_over else None):
            rule = (status.get("rule") or {}).get("rule")
            self._find("game", "end", [rule] if rule else ["game.target_reached", "game.mercy"],
                       {"scores": list(self.after[0]), "book": {"over": mine[0], "winner": mine[1]},
                        "engine": {"over": theirs.game_over, "winner": theirs.winner}})
