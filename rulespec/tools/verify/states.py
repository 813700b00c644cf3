"""Explore a ruleset's reachable states and record what the engine says there.

Three explorers feed one ``Evidence``: seeded random games, Hypothesis-guided
deals and play (which also shrinks each problem to a minimal example), and
exhaustive search of the last few tricks of recorded hands.  At every
decision the engine's own answer is kept: legal cards with their conflicts and
dead ends, refused bids, score lines and game status.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from collections.abc import Sequence

from ...app.progress import Progress, counted
from ...core import cards as C
from ... import game as E
from ...game import BLIND, BLIND_NIL, REGULAR, Bid
from ...game.fused import draw_cards
from ...model.ruleset import Ruleset
from ...errors import VerifyError
from .bidding import DeadBid, reads_scores, search_bidding

PLAY_CAP, BID_CAP = 3000, 1500
# the rule that admits a bid of each kind (regular bids: the contract they form)
_KIND_RULE = {REGULAR: "bid.team_contract", "nil": "nil.allowed", BLIND_NIL: "blind_nil.allowed",
              BLIND: "blind_bid.allowed"}


@dataclass(frozen=True)
class PlayState:
    seat: int
    hand: int
    trick: tuple[int, ...]
    number: int
    broken: bool
    played: int


@dataclass(frozen=True)
class BidState:
    seat: int
    hand: int
    dealer: int
    bids: tuple
    scores: tuple[int, int]
    bags: tuple[int, int]


@dataclass
class Outcome:
    """A scored hand: bids, tricks per seat, the totals before, the results."""
    bids: tuple[Bid, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, int]
    bags: tuple[int, int]
    last: tuple[int, list[int]] | None
    results: list


@dataclass
class Event:
    """A dead end or conflict met in one state."""
    kind: str                  # "dead_end" or "conflict"
    phase: str                 # "play", "bid" or "game_end"
    rules: tuple[str, ...]
    why: str
    state: dict
    where: PlayState | BidState | None = None  # the engine state, for reducing to a core

    @property
    def key(self) -> tuple:
        return self.kind, self.phase, self.rules


@dataclass
class Evidence:
    """Everything the explorers saw."""
    rs: Ruleset
    events: dict[tuple, Event] = field(default_factory=dict)
    counts: Counter = field(default_factory=Counter)
    minimal: dict[tuple, Event] = field(default_factory=dict)
    triggers: Counter = field(default_factory=Counter)
    play_states: list[PlayState] = field(default_factory=list)
    bid_states: list[BidState] = field(default_factory=list)
    tricks: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    game_states: list[tuple[tuple[int, int], tuple[int, int], int]] = field(default_factory=list)
    games: list[list[tuple[int, int, int, int, int]]] = field(default_factory=list)  # totals, outcome index
    game_lengths: list[int] = field(default_factory=list)
    unfinished: int = 0
    hands: int = 0
    endgame_k: int = 0
    endgame_cap: int = 0
    endgame_roots: list = field(default_factory=list)   # HandState copies
    endgame_nodes: int = 0
    notes: list[str] = field(default_factory=list)
    bidding: dict = field(default_factory=dict)     # what the exhaustive bidding search did (``bidding``)


class _Found(Exception):
    def __init__(self, event: Event):
        self.event = event


# --------------------------------------------------------------------------- choosers
class RandomChooser:
    """Uniform random legal choices from a seeded generator."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def pick(self, n: int) -> int:
        return self.rng.randrange(n)

    def sample(self, items: list[int], count: int) -> list[int]:
        return self.rng.sample(items, count)


class ScriptChooser:
    """Choices read from a list of indices (Hypothesis draws and shrinks it)."""

    def __init__(self, script: Sequence[int]):
        self.script, self.at = list(script), 0

    def pick(self, n: int) -> int:
        value = self.script[self.at] if self.at < len(self.script) else 0
        self.at += 1
        return value % n

    def sample(self, items: list[int], count: int) -> list[int]:
        return items[:count]


# --------------------------------------------------------------------------- recorder
class Recorder:
    """Feeds an Evidence; raises ``_Found`` when ``target`` (an event key, or
    ``"any"``) is met, so a Hypothesis predicate can stop early."""

    def __init__(self, ev: Evidence, target: tuple | str | None = None):
        self.ev, self.target = ev, target
        self.context: dict = {}  # the deal and totals of the hand being played

    def event(self, event: Event) -> None:
        ev = self.ev
        event.state.update({k: v for k, v in self.context.items() if k not in event.state})
        ev.counts[event.key] += 1
        ev.events.setdefault(event.key, event)
        if self.target == "any" or self.target == event.key:
            raise _Found(event)

    def trigger(self, *names: str) -> None:
        self.ev.triggers.update(names)


def _play_state_dict(rs: Ruleset, st: PlayState, leader: int, legal: int) -> dict:
    return {"seat": C.SEATS[st.seat], "trick_number": st.number,
            "hand": C.card_names(st.hand),
            "trick": [{"seat": C.SEATS[(leader + i) % rs.params["table.seats"]], "card": C.card_name(c)}
                      for i, c in enumerate(st.trick)],
            "trumps_broken": st.broken, "engine_allows": C.card_names(legal)}


def decide_card(rs: Ruleset, rec: Recorder, st: PlayState, leader: int) -> int:
    """Legal cards in one play state, with every clash and dead end recorded."""
    legal = E.legal_cards(rs, st.hand, st.trick, st.number, st.broken, st.played, explain=True)
    ev = rec.ev
    if len(ev.play_states) < PLAY_CAP:
        ev.play_states.append(st)
    rec.trigger(*(step["rule"] for step in legal.steps))
    for clash in legal.conflicts:
        rec.trigger(*clash["rules"])
        rec.event(Event("conflict", "play", tuple(clash["rules"]), clash["why"],
                        _play_state_dict(rs, st, leader, legal.cards), st))
    for dead in legal.dead_ends:
        rec.trigger(dead["rule"])
        rec.event(Event("dead_end", "play", (dead["rule"],), dead["why"],
                        _play_state_dict(rs, st, leader, legal.cards), st))
    return legal.cards


def _bid_event(rs: Ruleset, rec: Recorder, st: BidState) -> None:
    """No candidate bid is legal: a dead end, with every rule that refused one."""
    refused: dict[str, list[str]] = {}
    for bid in E.bid_candidates(rs):
        for step in E.bid_refusals(rs, st.seat, bid, hand=st.hand, dealer=st.dealer, bids=list(st.bids),
                                   scores=st.scores, bags=st.bags):
            refused.setdefault(step["rule"], []).append(str(bid))
    state = {"seat": C.SEATS[st.seat], "hand": C.card_names(st.hand), "dealer": C.SEATS[st.dealer],
             "bids_so_far": {C.SEATS[s]: str(b) for s, b in enumerate(st.bids) if b is not None},
             "scores": by_side(rs, st.scores), "refused": refused}
    rec.event(Event("dead_end", "bid", tuple(sorted(refused)), "no bid is allowed", state, st))


def decide_bid(rs: Ruleset, rec: Recorder, chooser, st: BidState) -> Bid | None:
    ev = rec.ev
    if len(ev.bid_states) < BID_CAP:
        ev.bid_states.append(st)
    options = E.legal_bids(rs, st.seat, st.hand, st.dealer, list(st.bids), st.scores, st.bags)
    if not options:
        _bid_event(rs, rec, st)
        return None
    if len(options) < len(E.bid_candidates(rs)):
        for bid in E.bid_candidates(rs):
            if bid not in options:
                steps = E.bid_refusals(rs, st.seat, bid, hand=st.hand, dealer=st.dealer, bids=list(st.bids),
                                       scores=st.scores, bags=st.bags)
                rec.trigger(*(s["rule"] for s in steps))
    bid = options[chooser.pick(len(options))]
    rec.trigger(_KIND_RULE[bid.kind])
    return bid


# --------------------------------------------------------------------------- one hand
def _score(rs: Ruleset, rec: Recorder, bids: list[Bid], tricks: list[int], scores, bags, last) -> list:
    """Score a hand and note which scoring rules decided something."""
    table = C.table_of(rs.params)
    scores, bags = table.padded(scores), table.padded(bags)
    results = E.score_hand(rs, bids, tricks, scores, bags, last_trick=last)
    for team, res in enumerate(results):
        _note_team(rs, rec, team, res, bids, tricks, bags)
    mode = rs.params["renege.mode"]
    if mode != "none":  # reneges are not played; score each hand once more as if North had reneged
        alt = E.score_hand(rs, bids, tricks, scores, bags, reneges=(0,), last_trick=last)
        if [r.as_dict() for r in alt] != [r.as_dict() for r in results]:
            rec.trigger("renege.mode", *(("renege.transfer_tricks",) if mode == "transfer" else ()))
        rec.trigger(*(line["rule"] for r in alt for line in r.lines if line["rule"].startswith("renege.")))
        if mode == "transfer" and alt[1].bags_added:   # the tricks given to East-West count as their bags
            rec.trigger("renege.victim_bags")
    return results


def _note_team(rs: Ruleset, rec: Recorder, team: int, res: E.TeamResult, bids: list[Bid], tricks: list[int],
               bags) -> None:
    """The scoring rules that decided something in one partnership's result."""
    for line in res.lines:
        rec.trigger(line["rule"])
        for other in line.get("decided_by", ()):
            rec.trigger(other["rule"])
        if line["rule"] == "bags.penalty":
            rec.trigger("bags.limit")
            if bags[team] + res.bags_added > rs.params["bags.limit"]:
                rec.trigger("bags.carry")
    if res.bags_added:
        rec.trigger("scoring.bags")
    seats = C.table_of(rs.params).members(team)
    if any(bids[s].is_nil and tricks[s] for s in seats) and any(bids[s].kind == REGULAR for s in seats):
        rec.trigger("nil.tricks_count")
    if any(bids[s].is_nil and tricks[s] for s in seats) and res.bags_added:
        rec.trigger("nil.tricks_bags")


def play_one_hand(rs: Ruleset, rec: Recorder, chooser, hands: list[int], dealer: int,
                  scores=(0, 0), bags=(0, 0), endgame: int = 0) -> Outcome | None:
    """Bid, exchange, play and score one hand through ``HandState``, recording every decision;
    ``None`` when bidding reaches a dead end.  With ``endgame`` > 0 the position before the last
    ``endgame`` tricks is kept as a root for exhaustive search."""
    ev = rec.ev
    if rs.params["deal.draw"]:      # the hands drawn from a stock in the chooser's order, by its choices
        rec.trigger("deal.draw")
        stock = chooser.sample(C.card_list(rs.deck), rs.deck.bit_count())
        hands, _ = draw_cards(rs)(stock, dealer, lambda seat, card, hand, turn: chooser.pick(2))
    rec.context = {"deal": {C.SEATS[s]: C.card_names(hands[s]) for s in range(len(hands))},
                   "dealer": C.SEATS[dealer], "scores": by_side(rs, scores)}
    state = E.HandState(rs, hands, dealer, scores, bags)
    _kitty(rec, chooser, state)
    if not _bid_round(rs, rec, chooser, state):
        return None
    _exchange(rs, rec, chooser, state)
    while not state.over:
        if endgame and state.number == state.size - endgame + 1 and len(ev.endgame_roots) < ev.endgame_cap:
            ev.endgame_roots.append(state.copy())
        while len(state.trick) < state.table.seats:
            cards = list(C.iter_cards(decide_card(rs, rec, _play_state(state), state.leader)))
            _play(rec, state, cards[chooser.pick(len(cards))])
        trick, number = tuple(state.trick), state.number
        state.finish_trick()
        if len(ev.tricks) < PLAY_CAP:
            ev.tricks.append((number, trick))
    results = _score(rs, rec, state.bids, state.won, scores, bags, state.last)
    outcome = Outcome(tuple(state.bids), tuple(state.won), tuple(scores), tuple(bags), state.last, results)
    ev.outcomes.append(outcome)
    ev.hands += 1
    return outcome


def _bid_round(rs: Ruleset, rec: Recorder, chooser, state: E.HandState) -> bool:
    """Every seat bids as ``chooser`` picks (the nil bidder's partner may raise, then the raise round); False at a
    dead end."""
    while state.bidder is not None:
        seat = state.bidder
        bid = decide_bid(rs, rec, chooser, BidState(seat, state.hands[seat], state.dealer, tuple(state.bids),
                                                    state.scores, state.bags))
        if bid is None:
            return False
        raises = state.bid(bid)
        if raises:
            rec.trigger("nil.partner_may_raise")
            state.raise_bid(state.table.opposite(seat), raises[chooser.pick(len(raises))])
    for seat in state.bidding_order():        # the raise round (raise.by), where the variant has one
        raises = state.round_raise_options(seat)
        if raises:
            rec.trigger("raise.by", "raise.allowed")
            state.raise_bid(seat, raises[chooser.pick(len(raises))])
    return True


def _kitty(rec: Recorder, chooser, state: E.HandState) -> None:
    """The dealer takes the kitty (``deal.kitty``) and discards the cards ``chooser`` picks."""
    kitty = state.kitty_cards()
    if kitty:
        rec.trigger("deal.kitty")
        held = state.hands[state.dealer] | kitty
        state.take_kitty(chooser.sample(list(C.iter_cards(held)), state.rs.params["deal.kitty"]))


def _exchange(rs: Ruleset, rec: Recorder, chooser, state: E.HandState) -> None:
    """Blind-nil bidders, nil bidders beside a number (``nil.exchange``) and their partners pass the cards
    ``chooser`` picks."""
    for seat in state.exchange_seats():
        count = state.exchange_count(seat)
        rec.trigger("blind_nil.exchange" if state.bids[seat].kind == E.BLIND_NIL else "nil.exchange")
        give = chooser.sample(list(C.iter_cards(state.hands[seat])), count)
        back = chooser.sample(list(C.iter_cards(state.hands[state.table.opposite(seat)])), count)
        state.exchange(seat, give, back)


def _play_state(state: E.HandState) -> PlayState:
    seat = state.to_play
    return PlayState(seat, state.hands[seat], tuple(state.trick), state.number, state.broken, state.played)


def _play(rec: Recorder, state: E.HandState, card: int) -> None:
    """The seat to play plays ``card``; breaking trumps is noted."""
    was_broken = state.broken
    state.play(card)
    if state.broken and not was_broken:
        rec.trigger("trump.breaks")


# --------------------------------------------------------------------------- game end
def check_game_state(rs: Ruleset, rec: Recorder, scores: tuple[int, int], bags: tuple[int, int],
                     hands: int) -> dict:
    """Game status after a hand; a clash between the target rule and the winner
    rule (the only team at the target is not the winner named) is a conflict."""
    ev = rec.ev
    table = C.table_of(rs.params)
    scores, bags = table.padded(scores), table.padded(bags)
    ev.game_states.append((scores, bags, hands))
    status = E.game_status(rs, scores, bags, hands, explain=True)
    steps = status["explanation"]
    reached, mercy = steps[0]["value"], steps[1]["value"]
    if reached:
        rec.trigger("game.target_reached", "game.target")
    if mercy:
        rec.trigger("game.mercy")
    if status["over"]:
        rec.trigger("game.winner")
    if reached:
        names = C.table_of(rs.params).side_names
        at_target = [t for t in range(len(names))
                     if E.game_status(rs, (scores[t],) * len(names), bags, hands,
                                      explain=True)["explanation"][0]["value"]]
        if len(at_target) == 1 and status["over"] and status["winner"] != names[at_target[0]]:
            rec.event(Event("conflict", "game_end", ("game.target_reached", "game.winner"),
                            f"only {names[at_target[0]]} reached the target but game.winner names "
                            f"{status['winner']}", {"scores": by_side(rs, scores), "bags": by_side(rs, bags)}))
    return status


def by_side(rs: Ruleset, values) -> dict:
    """Scores or bags by side's name (NS and EW, or each player alone)."""
    table = C.table_of(rs.params)
    return dict(zip(table.side_names, table.padded(values)))


# --------------------------------------------------------------------------- explorers
def random_games(rs: Ruleset, ev: Evidence, hands: int, seed: str, max_game_hands: int,
                 progress: Progress | None = None) -> None:
    """Seeded random games played in sequence, ``hands`` hands in all (each told to ``progress``)."""
    rec = Recorder(ev)
    zero = (0,) * C.table_of(rs.params).sides
    scores, bags, dealer, in_game = zero, zero, 0, 0
    game: list[tuple[int, int, int, int, int]] = []
    for index in counted(range(hands), f"{rs.id}: random hands", progress):
        rng = random.Random(f"verify:{seed}:{index}")
        deal = E.deal_cards(rs, rng)
        outcome = play_one_hand(rs, rec, RandomChooser(rng), deal, dealer, scores, bags, endgame=ev.endgame_k)
        dealer = E.seat_rule(rs, "deal.next_dealer", dealer)
        if outcome is None:
            continue
        in_game += 1
        scores = tuple(r.score for r in outcome.results)
        bags = tuple(r.bags for r in outcome.results)
        game.append((*scores[:2], *bags[:2], len(ev.outcomes) - 1))
        status = check_game_state(rs, rec, scores, bags, in_game)
        if status["over"] or in_game >= max_game_hands:
            if status["over"]:
                ev.game_lengths.append(in_game)
            else:
                ev.unfinished += 1
            ev.games.append(game)
            scores, bags, in_game, game = zero, zero, 0, []
    if game:
        ev.games.append(game)


# Starting totals for guided hands: level, and each side 200 behind (opens blind nil).
STARTS = ((0, 0), (-200, 0), (0, -200))


def _strategy(rs: Ruleset):
    from hypothesis import strategies as st
    pack = list(C.iter_cards(rs.deck))
    seats = rs.params["table.seats"]
    return st.tuples(st.permutations(pack), st.integers(0, seats - 1), st.lists(st.integers(0, 63), max_size=80),
                     st.sampled_from(STARTS))


def _run_case(rs: Ruleset, rec: Recorder, case) -> None:
    perm, dealer, script, scores = case
    size = rs.params["deal.hand_size"]
    deal = [C.mask_of(perm[i * size:(i + 1) * size]) for i in range(rs.params["table.seats"])]
    outcome = play_one_hand(rs, rec, ScriptChooser(script), deal, dealer, scores)
    if outcome is not None:
        check_game_state(rs, rec, tuple(r.score for r in outcome.results), tuple(r.bags for r in outcome.results), 1)


def _settings(examples: int, shrink: bool):
    from hypothesis import HealthCheck, Phase, settings
    phases = [Phase.generate, Phase.shrink] if shrink else [Phase.generate]
    return settings(max_examples=examples, database=None, derandomize=True, deadline=None,
                    suppress_health_check=list(HealthCheck), phases=phases)


def guided_search(rs: Ruleset, ev: Evidence, examples: int, progress: Progress | None = None) -> bool:
    """Hypothesis-generated deals, starting scores and play (each told to ``progress``); False if
    Hypothesis is missing."""
    try:
        import hypothesis
    except ImportError:
        ev.notes.append("Hypothesis is not installed: guided search and shrinking were skipped")
        return False
    rec = Recorder(ev)
    tried = 0

    def explore(case) -> bool:
        nonlocal tried
        _run_case(rs, rec, case)
        tried += 1
        if progress:
            progress(f"{rs.id}: Hypothesis hands", tried, examples)
        return False

    try:
        hypothesis.find(_strategy(rs), explore, settings=_settings(examples, shrink=False))
    except hypothesis.errors.NoSuchExample:
        pass
    return True


def minimize(rs: Ruleset, ev: Evidence, key: tuple, examples: int) -> None:
    """Shrink a state where event ``key`` happens to a minimal one (Hypothesis)."""
    import hypothesis
    scratch = Evidence(rs)

    def hits(case) -> bool:
        try:
            _run_case(rs, Recorder(scratch, key), case)
        except _Found:
            return True
        return False

    try:
        case = hypothesis.find(_strategy(rs), hits, settings=_settings(examples, shrink=True))
    except hypothesis.errors.NoSuchExample:
        return
    try:
        _run_case(rs, Recorder(scratch, key), case)
    except _Found as found:
        ev.minimal[key] = found.event


def endgames(rs: Ruleset, ev: Evidence, progress: Progress | None = None) -> None:
    """Every legal line of play from each recorded endgame root (each root told to ``progress``)."""
    rec = Recorder(ev)

    def walk(state: E.HandState) -> None:
        ev.endgame_nodes += 1
        if len(state.trick) == state.table.seats:
            last = state.number == state.size
            state.finish_trick()
            if last:
                return
        for card in C.iter_cards(decide_card(rs, rec, _play_state(state), state.leader)):
            child = state.copy()
            _play(rec, child, card)
            walk(child)

    for root in counted(ev.endgame_roots, f"{rs.id}: last tricks, every line", progress):
        walk(root.copy())


def bidding_roots(rs: Ruleset, ev: Evidence) -> list[tuple[tuple, tuple]]:
    """The totals to search every bid sequence from: 0-0, then (where a bid rule reads the scores) the guided
    hands' starting totals and every total the explorers reached, each once."""
    table = C.table_of(rs.params)
    zero = table.padded((0,) * table.sides)
    roots = {(zero, zero): None}
    if reads_scores(rs):
        for scores in STARTS:
            roots.setdefault((table.padded(scores), zero), None)
        for scores, bags, _hands in ev.game_states:
            roots.setdefault((tuple(scores), tuple(bags)), None)
    return list(roots)


def every_bid_sequence(rs: Ruleset, ev: Evidence, budget: int) -> None:
    """The exhaustive bidding search (``bidding``): its dead ends as events, each with its shortest bid
    sequence as the best example, and what it did in ``ev.bidding``."""
    search = search_bidding(rs, bidding_roots(rs, ev), budget)
    ev.bidding = search.as_dict()
    if search.method == "sampled":
        ev.notes.append("the bidding was sampled, not searched exhaustively: bid rules read the cards ("
                        + ", ".join(search.hand_rules) + ")")
    elif not search.complete:
        ev.notes.append(f"the bidding search stopped at its budget of {budget} states after "
                        f"{search.roots_searched} of {search.roots} dealer and score roots; the rest of the "
                        "bidding was sampled")
    for key, dead in search.dead.items():
        event = _dead_bid_event(rs, dead)
        ev.counts[event.key] += search.met[key]
        ev.events.setdefault(event.key, event)
        ev.minimal[event.key] = event


def _dead_bid_event(rs: Ruleset, dead: DeadBid) -> Event:
    state = {"seat": C.SEATS[dead.seat], "hand": "any (no bid rule reads the cards)",
             "dealer": C.SEATS[dead.dealer], "bid_sequence": dead.sequence,
             "bids_so_far": {C.SEATS[s]: str(b) for s, b in enumerate(dead.bids) if b is not None},
             "scores": by_side(rs, dead.scores), "bags": by_side(rs, dead.bags), "refused": dead.refused}
    where = BidState(dead.seat, 0, dead.dealer, dead.bids, dead.scores, dead.bags)
    return Event("dead_end", "bid", tuple(sorted(dead.refused)), "no bid is allowed", state, where)


@dataclass(frozen=True)
class Budget:
    """How hard to search; the defaults keep one variant to a few seconds."""
    hands: int = 300
    seed: str = "0"
    examples: int = 150
    endgame_tricks: int = 3
    endgame_roots: int = 10
    max_game_hands: int = 200
    bidding_states: int = 20_000

    def __post_init__(self):
        if (self.hands < 1 or self.examples < 0 or not 0 <= self.endgame_tricks <= 4 or self.max_game_hands < 1
                or self.bidding_states < 1):
            raise VerifyError("budget: hands >= 1, examples >= 0, endgame tricks 0..4, max game hands >= 1, "
                              "bidding states >= 1")


def sweep_game_states(rs: Ruleset, ev: Evidence) -> None:
    """Game status on a grid of totals around the target, ties and deep deficits included."""
    target = rs.params["game.target"]
    grid = sorted({0, 100, -100, 250, target - 1, target, target + 10, -target, -target - 10, 2 * target})
    rec = Recorder(ev)
    for ns in grid:
        for ew in grid:
            check_game_state(rs, rec, (ns, ew), (0, 0), 10)        # (each alone: the other players on 0)


def near_bag_limit(rs: Ruleset, ev: Evidence, count: int = 100) -> None:
    """Score recorded hands again as if both sides carried one bag short of the limit."""
    limit = rs.params["bags.limit"]
    if limit < 1:
        return
    rec = Recorder(ev)
    for o in ev.outcomes[:count]:
        _score(rs, rec, list(o.bids), list(o.tricks), o.scores, (limit - 1,) * len(o.scores), o.last)


def explore(rs: Ruleset, budget: Budget = Budget(), progress: Progress | None = None) -> Evidence:
    """Run every explorer and shrink each problem found to a minimal example (each stage's way told to
    ``progress``)."""
    ev = Evidence(rs, endgame_k=budget.endgame_tricks,
                  endgame_cap=budget.endgame_roots if budget.endgame_tricks else 0)
    sweep_game_states(rs, ev)
    random_games(rs, ev, budget.hands, budget.seed, budget.max_game_hands, progress)
    if progress:
        progress(f"{rs.id}: every bid sequence", 0, 0)
    every_bid_sequence(rs, ev, budget.bidding_states)
    near_bag_limit(rs, ev)
    guided = budget.examples > 0 and guided_search(rs, ev, budget.examples, progress)
    endgames(rs, ev, progress)
    if guided:
        shrink = [key for key in ev.events if key not in ev.minimal]   # (the bidding search's are shortest)
        for key in counted(shrink, f"{rs.id}: shrinking problems", progress):
            minimize(rs, ev, key, budget.examples)
    return ev
