"""The rule slots a variant fills, and the context each rule is evaluated in.

Every rule of every variant is one of these slots.  A slot has a result type
and a context: the dotted names its expression may use (besides parameter
rules, which every expression may name, e.g. ``nil.value``).  The compiler
checks names and types against this schema; the engine supplies the context
values in the order listed here.
"""
from __future__ import annotations

from dataclasses import dataclass

# Value types of the rules language.
INT, BOOL, CARD, SUIT, CARDS, SEAT, TEAM, BIDKIND, LIST, ENUM = (
    "number", "boolean", "card", "suit", "card set", "seat", "team", "bid kind", "list", "choice")
ANY = "value"  # a variant's own parameter: any constant type

BID_KINDS = ("regular", "nil", "blind_nil", "blind", "pending")

# --- contexts: dotted name -> type, in the engine's argument order ----------
_TEAM_BASICS = {
    "team.score": INT, "team.bags": INT, "opponents.score": INT, "opponents.bags": INT,
}
_TEAM_HAND = {
    **_TEAM_BASICS,
    "team.contract": INT,        # regular (or blind team) contract, 0 if none
    "team.blind": BOOL,          # the contract is a blind team bid (blind 6/7/8)
    "team.tricks": INT,          # all tricks taken by the partnership
    "team.regular_tricks": INT,  # tricks of the partners who made a regular bid
    "team.nil_tricks": INT,      # tricks of nil and blind-nil bidders
    "team.won": INT,             # tricks that count toward the contract
    "team.made": BOOL,           # contract made (false when there is no contract)
    "team.overtricks": INT,      # tricks beyond the contract when made (a nil bidder's where nil.tricks_bags;
                                 # beyond 0 where both partners bid nil), else 0
    "team.nil_count": INT,       # nil and blind-nil bids in the team
    "team.nil_made": INT,        # of which successful
}
CONTEXTS: dict[str, dict[str, str]] = {
    "param": {},
    "deck": {"all_cards": CARDS, "jokers": CARDS},
    "card": {"card": CARD, "all_cards": CARDS, "jokers": CARDS},
    "seating": {"dealer": SEAT},
    "bid": {
        "hand": CARDS, "seat": SEAT, "dealer": SEAT, "position": INT,
        "partner.kind": BIDKIND, "partner.n": INT, "bid.n": INT, **_TEAM_BASICS,
    },
    "table_bid": {
        "hand": CARDS, "seat": SEAT, "dealer": SEAT, "position": INT,
        "partner.kind": BIDKIND, "partner.n": INT, "bid.n": INT, **_TEAM_BASICS,
        "bid.tricks": INT,          # the tricks this bid names (a regular or blind bid's number; 0 for a nil)
        "bids.made": INT,           # how many seats have bid before this one (0 to the seats less one)
        "bids.total": INT,          # the tricks those bids name together (nils count 0)
        "opponents.bids": INT,      # how many of the other sides have bid (partners: 0 to 2)
        "opponents.tricks": INT,    # the tricks the other side's bids name so far
    },
    "team_bid": {
        "team.regular_sum": INT, "team.regular_count": INT, "team.nil_count": INT,
        "team.blind_nil_count": INT, "team.blind_count": INT, **_TEAM_BASICS,
    },
    "play": {
        "hand": CARDS, "trick.cards": CARDS, "trick.led_suit": SUIT, "trick.number": INT,
        "trick.position": INT, "leading": BOOL, "trump_broken": BOOL, "played": CARDS,
    },
    "break": {
        "card": CARD, "hand": CARDS, "leading": BOOL, "trick.led_suit": SUIT, "trick.number": INT,
    },
    "trick": {"trick.cards": CARDS, "trick.led_suit": SUIT, "trick.number": INT, "trick.lead": CARD},
    "team_hand": dict(_TEAM_HAND),
    "nil_hand": {**_TEAM_HAND, "player.tricks": INT, "player.blind": BOOL},
    "bonus_hand": {
        **_TEAM_HAND, "last_trick.won": BOOL, "last_trick.winning_card": CARD,
        "last_trick.team_cards": CARDS,     # cards the partnership played to the last trick
        "last_trick.nil_cards": CARDS,      # of which played by its nil or blind-nil bidders
    },
    "game": {
        "ns.score": INT, "ns.bags": INT, "ew.score": INT, "ew.bags": INT,
        # the highest score, the lowest, the leader's margin over the next side (two sides: high - low), hands played
        "high.score": INT, "low.score": INT, "lead": INT, "hands": INT,
        # the side with the highest score alone (none: tied for it); with each player alone, a side is a player
        # (ns.* and ew.* are the partnerships', only where there are partners)
        "high.side": TEAM,
        # the game so far, this hand included: each side's contract this hand (0: none), whether it made it,
        # how many hands it has been set in the game and in a row up to this one
        "ns.contract": INT, "ew.contract": INT, "ns.made": BOOL, "ew.made": BOOL,
        "ns.sets": INT, "ew.sets": INT, "ns.sets_in_a_row": INT, "ew.sets_in_a_row": INT,
    },
}


@dataclass(frozen=True)
class Slot:
    """A rule a variant sets: its name, type, context and meaning; the values it may take (an ``ENUM``'s
    ``options``); its ``neutral`` value, taken where no variant of a chain sets it (so a new slot leaves every
    variant as it was); the ``words`` of the score line it gives; and, for the test that every back end honours
    it (``tests/test_every_slot.py``), a ``probe``: a value that changes what it does where its type's own change
    would not (a number moved by 3, a boolean negated, a set of cards without the hearts), with the other rules
    it needs to be reached (``probe_with``)."""
    name: str
    type: str
    context: str
    doc: str
    options: tuple[str, ...] = ()
    probe: str | None = None
    probe_with: tuple[tuple[str, str], ...] = ()
    neutral: str | None = None      # the value where no variant sets it (what the game did before the slot was)
    words: str | None = None        # a score line's short note, from the facts its note gives (``str.format``)


_SLOTS = [
    # deck and cards
    Slot("deck.cards", CARDS, "deck", "the cards in the pack", probe="all_cards",
         probe_with=(("card.suit", "if card == BJ or card == LJ then spades else card.natural_suit"),)),
    Slot("card.suit", SUIT, "card", "the suit a card belongs to for following suit and trumping",
         probe="if card == 2D then spades else card.natural_suit"),
    Slot("card.power", INT, "card", "rank of a card within its suit (higher beats lower)",
         probe="if card.rank == 14 then 1 else card.rank"),
    Slot("trump.suit", SUIT, "param", "the trump suit", probe="hearts"),
    # the table
    Slot("table.seats", INT, "param",
         "how many players sit at the table, 2 to 6: 4 (seats N E S W), 3 (N E S), 2 (N E), 5 (N E S W X) or 6 "
         "(N E S W X Y), clockwise in that order",
         neutral="4", probe="3", probe_with=(("table.sides", "alone"), ("deal.hand_size", "13"),
                                             ("game.winner", "high.side"))),
    Slot("table.sides", ENUM, "param",
         "who scores together: partners (each player with the one opposite: N with S and E with W at four "
         "seats; N with W, E with X and S with Y at six; four or six seats only) or alone (each player for "
         "himself: scores, bags, nils and the game's end per player)",
         options=("partners", "alone"), neutral="partners", probe="alone",
         probe_with=(("game.winner", "high.side"),)),
    # deal
    Slot("deal.hand_size", INT, "param", "cards dealt to each player", probe="12"),
    Slot("deal.next_dealer", SEAT, "seating", "who deals the next hand", probe="right_of(dealer)"),
    Slot("deal.first_bidder", SEAT, "seating", "who bids first", probe="partner_of(dealer)"),
    Slot("deal.kitty", INT, "param",
         "cards of the pack left over once each player is dealt deal.hand_size (the kitty): the dealer takes "
         "them and discards as many before the bids; the discards count for nobody (0: no kitty)", neutral="0",
         probe="2", probe_with=(("deck.cards", "all_cards"),
                                ("card.suit", "if card == BJ or card == LJ then spades else card.natural_suit"))),
    Slot("deal.draw", BOOL, "param",
         "the hands are drawn, not dealt: from the shuffled pack (the stock), each player in turn from the dealer's "
         "left looks at the top card and keeps it (the next card is discarded) or discards it (and keeps the "
         "next), until each holds deal.hand_size; the discards and any cards left count for nobody",
         neutral="false", probe="true", probe_with=(("deal.hand_size", "6"),)),
    # bidding
    Slot("bid.regular_min", INT, "bid", "smallest regular (non-nil) bid a player may make"),
    Slot("bid.regular_max", INT, "bid", "largest regular bid a player may make", probe="5"),
    Slot("nil.allowed", BOOL, "bid", "whether this player may bid nil",
         probe_with=(("bid.team_max", "26"),)),
    Slot("blind_nil.allowed", BOOL, "bid", "whether this player may bid blind nil"),
    Slot("blind_bid.allowed", BOOL, "bid", "whether the team may bid blind bid.n tricks as a team"),
    Slot("bid.zero", BOOL, "param",
         "whether a player may bid zero tricks as an ordinary contract, no nil (written 'zero'; it scores as "
         "any contract does)", neutral="false"),
    Slot("bid.table_valid", BOOL, "table_bid",
         "any condition on a bid given every bid so far and the order of bidding (e.g. the bids may not total "
         "13)", neutral="true", probe="bid.tricks <= bids.total - opponents.tricks + opponents.bids + bids.made + 3"),
    Slot("bid.team_min", INT, "team_bid", "smallest team contract when the team has a regular bid"),
    Slot("bid.team_max", INT, "team_bid", "largest team contract", probe="9",
         probe_with=(("bid.regular_max", "6"),)),
    Slot("bid.team_valid", BOOL, "team_bid", "any further condition on a team's pair of bids",
         probe="team.regular_sum != 5"),
    Slot("bid.team_contract", INT, "team_bid", "the contract the team plays for, from its regular bids",
         probe_with=(("bid.team_max", "30"),)),
    Slot("nil.partner_may_raise", BOOL, "param",
         "whether a nil bidder's partner who already bid may raise that bid"),
    Slot("raise.by", INT, "param",
         "the most tricks a seat may add to its own regular bid in the raise round once every seat has bid, in "
         "bidding order (0: no raise round)", neutral="0", probe="2", probe_with=(("raise.allowed", "true"),)),
    Slot("raise.allowed", BOOL, "bid",
         "whether this seat may raise its regular bid (bid.n) in the raise round (e.g. partner.kind == nil: the "
         "partner of a nil bidder)", neutral="false", probe="true", probe_with=(("raise.by", "1"),)),
    Slot("blind_nil.exchange", INT, "param", "cards exchanged between a blind-nil bidder and partner",
         probe="2", probe_with=(("blind_nil.allowed", "true"),)),
    Slot("nil.exchange", INT, "param",
         "cards an ordinary nil bidder whose partner bid a number exchanges with that partner after the bids "
         "(0: none)", neutral="0", probe="2"),
    # play
    Slot("play.lead", CARDS, "play", "cards a player may lead"),
    Slot("play.follow", CARDS, "play", "cards a player may play when not leading"),
    Slot("play.first_lead", CARDS, "play", "cards allowed to open the first trick"),
    Slot("play.first_trick_trump", CARDS, "play", "cards allowed on the first trick as to trumps"),
    Slot("play.first_trick_suit", CARDS, "play", "cards the first trick demands (e.g. lowest club)"),
    Slot("trump.breaks", BOOL, "break", "whether playing this card breaks trumps"),
    Slot("play.first_leader", SEAT, "seating", "who leads the first trick", probe="partner_of(dealer)"),
    Slot("play.first_leader_by", ENUM, "param",
         "how the first leader is found once the bids are in: seat (rule play.first_leader), card (the holder "
         "of play.first_leader_card when play begins) or high_bid (the highest bidder, the first of equal bids "
         "in bidding order)", options=("seat", "card", "high_bid"), neutral="seat", probe="high_bid"),
    Slot("play.first_leader_card", CARD, "param",
         "the card whose holder leads the first trick where play.first_leader_by is card (no one holds it: "
         "rule play.first_leader)", neutral="2C", probe="AS", probe_with=(("play.first_leader_by", "card"),)),
    # trick
    Slot("trick.winner", CARD, "trick", "the card that wins a complete trick",
         probe="if trick.cards.has(trump.suit) then lowest(trick.cards & trump.suit) "
               "else highest(trick.cards & trick.led_suit)"),
    # hand scoring
    Slot("nil.tricks_count", BOOL, "param",
         "whether a nil bidder's tricks count toward the partnership's contract"),
    Slot("nil.tricks_bags", BOOL, "param",
         "whether a nil bidder's tricks count as the partnership's overtricks (bags)"),
    Slot("scoring.made", INT, "team_hand", "points for a regular contract made"),
    Slot("scoring.set", INT, "team_hand", "points for a regular contract set (failed)"),
    Slot("scoring.overtrick_points", INT, "team_hand", "points for each overtrick"),
    Slot("scoring.bags", INT, "team_hand", "bags the team adds this hand"),
    Slot("blind_bid.made", INT, "team_hand", "points for a blind team bid made",
         probe_with=(("blind_bid.allowed", "true"),)),
    Slot("blind_bid.set", INT, "team_hand", "points for a blind team bid set",
         probe_with=(("blind_bid.allowed", "true"),)),
    Slot("nil.made", INT, "nil_hand", "points for a successful nil"),
    Slot("nil.failed", INT, "nil_hand", "points for a failed nil"),
    Slot("blind_nil.made", INT, "nil_hand", "points for a successful blind nil",
         probe_with=(("blind_nil.allowed", "true"),)),
    Slot("blind_nil.failed", INT, "nil_hand", "points for a failed blind nil",
         probe_with=(("blind_nil.allowed", "true"),)),
    Slot("bonus.last_trick", INT, "bonus_hand", "bonus points tied to the last trick"),
    Slot("bags.limit", INT, "param", "bags that trigger a penalty (0: no bag rule)"),
    Slot("bags.penalty", INT, "param", "points added when the bag limit is reached (negative)"),
    Slot("bags.carry", BOOL, "param", "bags beyond the limit carry over (else they reset to 0)"),
    Slot("renege.mode", ENUM, "param",
         "what a called renege does: none (not a scoring event), forfeit (offenders set, "
         "opponents make their bid, hand ends) or transfer (tricks move to the opponents)",
         options=("none", "forfeit", "transfer")),
    Slot("renege.transfer_tricks", INT, "param", "tricks moved per renege in transfer mode",
         probe_with=(("renege.mode", "transfer"),)),
    Slot("renege.lead", BOOL, "param",
         "whether leading a trump before trumps are broken is a renege (else an irregular card: play.irregular)"),
    Slot("play.irregular", ENUM, "param",
         "what a recorded card does that breaks a play rule but is not a renege: refused (the play is not "
         "accepted) or stands (it is played, without penalty)", options=("refused", "stands")),
    Slot("renege.victim_bags", BOOL, "param",
         "whether the renege's victims' overtricks count as bags (forfeit: the innocent side's; "
         "transfer: the side given the tricks)",
         probe_with=(("renege.mode", "transfer"),)),
    # game
    Slot("game.target", INT, "param", "the points total that ends the game"),
    Slot("game.target_reached", BOOL, "game", "whether a score has reached the target"),
    Slot("game.mercy", BOOL, "game", "any other condition that ends the game (lead, floor)"),
    Slot("game.winner", TEAM, "game", "the winner once the game is over (none: tied, play on)",
         probe="if ns.score > ew.score then EW else if ew.score > ns.score then NS else none"),
]

SLOTS: dict[str, Slot] = {slot.name: slot for slot in _SLOTS}

# Legal-play constraints, in priority order: when two of them cannot both be
# honoured the earlier one is applied and the clash is reported as a conflict.
PLAY_CONSTRAINTS = ("play.lead", "play.follow", "play.first_lead",
                    "play.first_trick_trump", "play.first_trick_suit")
