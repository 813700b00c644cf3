"""The OpenAPI 3.1 document of the service: every field, every error.

Built from the same constants the code enforces (limits, problem types,
dispute kinds), so the document and the behaviour cannot drift apart.
"""
from __future__ import annotations

from rulespec.app.answers import MAX_INLINE_RULES

from rulespec.app.disputes import MAX_VARIANTS
from rulespec.app.inline import MAX_LIST_ITEMS
from rulespec.core.schema import SLOTS
from rulespec.game.bids import MAX_BID
from rulespec.game.policies import POLICIES
from rulespec.lang.compiler import MAX_RULE_CHARS
from rulespec.lang.limits import MAX_CHOICES, MAX_ID_CHARS, MAX_NAME_CHARS, MAX_NOTE_CHARS, MAX_TITLE_CHARS
from rulespec.model.variants import MAX_FILE_BYTES, bundled_ids
from rulespec.tools.diff import DiffConfig

from .bodies import MAX_DEPTH, YAML_TYPES
from .catalog import MAX_CHECK_RULES
from .diffrun import default_deals
from .problems import PROBLEM_JSON, PROBLEM_TYPES

REF = "#/components/schemas/"
SEATS = ["N", "E", "S", "W"]
TABLE_SEATS = [*SEATS, "X", "Y"]        # five and six seats go on past W (core.cards.SEATS)
TEAMS = ["NS", "EW"]
SIX_TEAMS = ["NW", "EX", "SY"]          # the partnerships of six seats, partners opposite


def ref(name: str) -> dict:
    return {"$ref": REF + name}


def obj(props: dict, required: tuple[str, ...] = (), description: str = "", **extra) -> dict:
    out = {"type": "object", "properties": props, **extra}
    if required:
        out["required"] = list(required)
    if description:
        out["description"] = description
    return out


def arr(items: dict, **extra) -> dict:
    return {"type": "array", "items": items, **extra}


def nullable(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}]}


def per(keys: list[str], value: dict, description: str = "") -> dict:
    return obj({k: value for k in keys}, tuple(keys), description)


STR, INT, BOOL, ANY = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}, {}
CHOOSE = {"oneOf": [{"required": ["variant"]}, {"required": ["variants"]}]}   # a variant, or several
ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"
RULE_NAME = {"type": "string", "pattern": r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$", "maxLength": MAX_NAME_CHARS}
YAML_TEXT = {"type": "string", "minLength": 1, "maxLength": MAX_FILE_BYTES,
             "description": "a house rule's YAML: a mapping with at least 'id' and 'extends' or every rule"}


def _schemas(max_deals: int, time_limit: float) -> dict:
    """Every schema; a compare request's input is the request of its kind, without variant(s)."""
    schemas = {**_base_schemas(max_deals, time_limit), **_solve_schemas()}
    for name in [f"{kind.title()}Request" for kind in KIND_DOCS] + ["HandScore", "InlineVariant"]:
        _null_is_absent(schemas[name])
    branches = []
    for kind in (*KIND_DOCS, *SOLVE_DOCS):
        request = schemas[f"{kind.title()}Request"]
        rest = [part for part in request.get("allOf", ()) if part != CHOOSE]
        schemas[f"{kind.title()}Input"] = {
            **{k: v for k, v in request.items() if k not in ("oneOf", "allOf", "properties", "description")},
            **({"allOf": rest} if rest else {}),
            "properties": {k: v for k, v in request["properties"].items() if k not in ("variant", "variants")},
            "description": f"{request.get('description', kind)} (the input of a compare request)"}
        branches.append(obj({"kind": {"const": kind}, "input": ref(f"{kind.title()}Input")},
                            ("input",) if kind == "score" else ("kind", "input")))
    compare = schemas["CompareRequest"]
    compare["properties"]["input"] = {"type": "object", "description": "the request of that kind, without variant(s)"}
    compare["oneOf"] = branches
    return schemas


def _null_is_absent(request: dict) -> None:
    """An optional field may be null: the service reads null as leaving the field out."""
    required = set(request.get("required", ()))
    for name, schema in request["properties"].items():
        if name not in required and name not in ("variant", "variants"):
            request["properties"][name] = nullable(schema)


def _base_schemas(max_deals: int, time_limit: float) -> dict:
    card = {"type": "string", "pattern": r"^((10|[2-9TJQKA])[CDHS♣♦♥♠]|BJ|LJ)$",
            "description": "rank then suit: 'AS', '10H' or 'TH', 'Q♦'; jokers 'BJ' (big) and 'LJ' (little), "
                           "where the variant's pack has them (lower case and suit-first are also read)",
            "examples": ["AS", "10H", "Q♦", "BJ"]}
    seat = {"enum": TABLE_SEATS, "description": "N, E, S or W, clockwise (the words north … west are also read); "
                                                "at five and six seats X and Y follow W"}
    bid = {"anyOf": [{"type": "integer", "minimum": 0, "maximum": MAX_BID},
                     {"type": "string", "pattern": r"^([0-9]{1,2}|nil|blind nil|blind [0-9]{1,2})$"}],
           "description": "a number of tricks, 0 or 'nil', 'blind nil', or a blind team bid 'blind N'",
           "examples": [4, "nil", "blind nil", "blind 7"]}
    cite = nullable({"type": "string", "description": "document id and clause, e.g. '004 §Nil'"})
    citation = obj({"rule": STR, "cite": cite, "note": STR, "inherited_from": STR}, ("rule", "cite"),
                   "a rule's citation: the clause, or (null) a note that the document is silent")
    step = obj({"rule": nullable(STR), "cite": cite, "value": ANY, "why": STR, "reason": STR, "points": INT,
                "team": {"enum": TEAMS}, "note": STR, "inherited_from": STR,
                "decided_by": arr(ref("Citation"), description="the other rules whose value decided this line "
                                                               "(e.g. a renege mode, a parameter it names)")},
               ("rule", "cite"),
               "one line of an explanation: the rule applied, its citation (null where the document is "
               "silent; then 'note' says so), the value it gave, and why; 'reason' says it in a player's words "
               "(why the rule applied, or for a refusal why not); 'inherited_from' names the "
               "variant that wrote an inherited rule; scoring lines carry 'points' (and 'team')")
    reading = obj({"rule": STR, "clause": nullable(STR), "cite": cite,
                   "status": nullable({"enum": ["ambiguous", "unspecified", "conflicting"]}),
                   "reading": STR, "alternative": nullable(STR)},
                  ("rule", "clause", "cite", "status", "reading", "alternative"),
                  "a rule this answer applied whose value is a reading of an ambiguous, silent or conflicting "
                  "clause (or a rule written without a source): the clause, the reading encoded and the "
                  "alternative a table could choose")
    irregularity = obj({"field": STR, "seat": ref("Seat"), "card": STR,
                        "kind": {"enum": ["renounce", "trump_lead", "first_trick", "other"]}, "what": STR,
                        "broken": nullable(ref("Citation")), "renege": BOOL,
                        "ruling": {"enum": ["renege", "refused", "stands"]}, "decided_by": arr(ref("Citation"))},
                       ("field", "seat", "card", "kind", "what", "broken", "renege", "ruling", "decided_by"),
                       "a card played against a play rule that the variant lets stand or scores as a renege: the "
                       "rule it broke and the rules that decide the ruling")
    readings = {"readings": arr(ref("Reading"), description="the readings this answer rests on (left out when "
                                                            "none)")}
    variant_id = {"type": "string", "pattern": ID_PATTERN, "maxLength": MAX_ID_CHARS}
    variant_ref = {"anyOf": [{"enum": bundled_ids()}, ref("InlineVariant"), ref("InlineYaml")],
                   "description": "a bundled variant id (GET /v1/variants), an inline house rule, or a house "
                                  "rule's own YAML text as {\"yaml\": ...}"}
    scalar_value = [INT, BOOL, {"type": "string", "maxLength": MAX_RULE_CHARS}, arr(INT, maxItems=MAX_LIST_ITEMS)]
    rule_value = {"anyOf": [*scalar_value, ref("RuleObject")]}
    before = obj({t: obj({"score": {"type": "integer", "minimum": -100_000, "maximum": 100_000},
                          "bags": {"type": "integer", "minimum": 0, "maximum": 1000}},
                         additionalProperties=False) for t in TEAMS},
                 description="the scores and bags before this hand (default 0)", additionalProperties=False)
    variant_choice = {"variant": ref("VariantRef"),
                      "variants": arr(ref("VariantRef"), minItems=1, maxItems=MAX_VARIANTS,
                                      description="rule under several variants side by side "
                                                  "(answer as POST /v1/compare)")}
    choose = CHOOSE
    hand_score = obj({"bids": per(SEATS, bid), "tricks": per(SEATS, {"type": "integer", "minimum": 0, "maximum": 13},
                                                            "tricks taken by each seat; they sum to the hand size"),
                      "deal": {"anyOf": [
                          per(SEATS, arr(ref("Card"), maxItems=27), "the hands as dealt (drawn: once drawn)"),
                          obj({"stock": arr(ref("Card"), maxItems=54,
                                            description="the shuffled pack, top card first, each card once"),
                               "kept": arr(BOOL, maxItems=54, description="each turn's choice in order: true, the "
                                                                          "drawer kept the top card; false, the next")},
                              ("stock", "kept"), "where the variant draws its hands (deal.draw): the stock and the "
                              "draw's choices, from which the hands are drawn", additionalProperties=False)]},
                      "raises": obj({seat: bid for seat in SEATS}, (), "where the variant has a raise round "
                                    "(raise.by): the seats that raised once every seat had bid, each to its new bid"),
                      "kitty": arr(ref("Card"), maxItems=54,
                                   description="with deal, where the variant deals a kitty (deal.kitty): the pack's "
                                               "cards the deal left over, which the dealer takes before the bids"),
                      "discards": arr(ref("Card"), maxItems=54,
                                      description="with kitty: the cards the dealer discards from its hand and the "
                                                  "kitty (as many as the kitty; they count for nobody)"),
                      "exchanges": arr(obj({"from": ref("Seat"), "gave": arr(ref("Card"), maxItems=13),
                                            "received": arr(ref("Card"), maxItems=13)}, ("from", "gave", "received"),
                                           additionalProperties=False), maxItems=4,
                                       description="with deal: the cards passed after the bids (a blind nil's "
                                                   "exchange, the nil pass), each checked against the variant's; "
                                                   "left out, the deal is taken as the hands played"),
                      "play": {"anyOf": [arr(ref("Card"), maxItems=60), arr(arr(ref("Card"), maxItems=4), maxItems=15)],
                               "description": "every card played, in order (flat, or one list per trick); "
                                              "the tricks, reneges and last trick are derived from it"},
                      "dealer": ref("Seat"), "before": ref("Before"),
                      "hands_played": {"type": "integer", "minimum": 0, "maximum": 10_000},
                      "last_trick": obj({"winner": ref("Seat"), "cards": per(SEATS, ref("Card"))},
                                        ("winner", "cards"), "for a last-trick bonus"),
                      "events": arr(obj({"type": {"const": "renege"}, "seat": ref("Seat")}, ("type", "seat")),
                                    maxItems=8, description="reneges found after the hand")},
                     ("bids",), "one hand: bids, and either tricks per seat or the deal (with the dealer) and play")
    given, absent = {"not": {"type": "null"}}, {"type": "null"}      # (a null field is one left out)
    hand_score["oneOf"] = [{"required": ["tricks"], "properties": {"tricks": given, "deal": absent, "play": absent}},
                           {"required": ["deal", "play", "dealer"],
                            "properties": {"deal": given, "play": given, "dealer": given, "tricks": absent}}]
    team_result = obj({"points": INT, "bags_added": INT, "score": INT, "bags": INT, "lines": arr(ref("Step"))},
                      ("points", "bags_added", "score", "bags", "lines"))
    game_status = obj({"over": BOOL, "winner": nullable({"enum": TEAMS}), "reason": STR, "rule": ref("Step")},
                      ("over", "winner", "reason"))
    problem = obj({"type": {"type": "string", "format": "uri-reference"}, "title": STR, "status": INT,
                   "detail": STR, "instance": STR,
                   "field": {"type": "string", "description": "path of the offending input, e.g. 'bids.N', "
                                                            "'play[12]', 'deal.W', 'variants[1].rules.nil.made'"},
                   "rule": nullable(STR), "cite": cite,
                   "problems": arr(ref("RulesProblem")), "known": arr(STR)},
                  ("type", "title", "status", "detail"), "RFC 9457 problem details")
    rule_entry = obj({"name": STR, "text": STR, "type": STR, "cite": cite, "origin": STR, "inherited": BOOL,
                      "note": nullable(STR), "unspecified": nullable(STR), "choices": nullable(arr(ANY)),
                      "parameter": BOOL, "doc": STR, "citation_note": STR},
                     ("name", "text", "type", "cite", "origin", "inherited", "note", "unspecified", "choices"),
                     "a rule in force: its DSL text, citation (or why the document is silent), the variant "
                     "that wrote it, and the choices tables make")
    summary_props = {"id": STR, "title": STR, "doc": STR, "extends": nullable(STR), "chain": arr(STR),
                     "rule_count": INT, "own_rule_count": INT,
                     "table": obj({"seats": {"type": "integer", "minimum": 2, "maximum": 6},
                                   "sides": arr(STR)}, ("seats", "sides"),
                                  "who sits at the table: its seats (N E S W, the first 2, 3 or 4) and the sides "
                                  "that score (NS and EW, or each seat alone)")}
    detail = obj({**summary_props, "notes": STR, "source": {"type": "object"}, "rules": arr(ref("RuleEntry"))},
                 ("id", "title", "doc", "extends", "chain", "rules"))
    kind_answers = {k: ref(f"{k.title()}Answer") for k in (*KIND_DOCS, *SOLVE_DOCS)}
    return {
        "Card": card, "Seat": seat, "Bid": bid, "Step": step, "Citation": citation, "Reading": reading,
        "Irregularity": irregularity, "Before": before,
        "VariantRef": variant_ref,
        "RuleObject": obj({"value": {"anyOf": scalar_value}, "cite": nullable(STR), "note": nullable(STR),
                           "unspecified": nullable(STR), "choices": nullable(arr(ANY, maxItems=MAX_CHOICES))},
                          ("value",), "a rule with its citation (or why the document is silent); null is left out",
                          additionalProperties=False),
        "InlineVariant": obj(
            {"extends": {"enum": bundled_ids(), "description": "a bundled variant id (no file paths)"},
             "id": {**variant_id, "not": {"enum": bundled_ids()},
                    "description": "the house rule's own id (default 'inline', 'inline-N' in variants[N]); "
                                   "never a bundled id"},
             "title": {"type": "string", "maxLength": MAX_TITLE_CHARS},
             "notes": {"type": "string", "maxLength": MAX_NOTE_CHARS},
             "rules": {"type": "object", "maxProperties": MAX_INLINE_RULES, "additionalProperties": rule_value,
                       "propertyNames": {"anyOf": [{"enum": list(SLOTS)}, RULE_NAME]},
                       "description": f"rule name -> value, DSL text (≤ {MAX_RULE_CHARS} characters, optionally "
                                      f"'… @ DOC §Clause') or {{value, cite, …}}; at most {MAX_INLINE_RULES}; "
                                      "uncited rules cite 'house §<rule>'"},
             "params": {"type": "object", "maxProperties": MAX_INLINE_RULES, "additionalProperties": rule_value,
                        "propertyNames": RULE_NAME,
                        "description": "the house rule's own named constants"}},
            ("extends",), "a house rule sent with the request", additionalProperties=False),
        "InlineYaml": obj({"yaml": {"type": "string", "minLength": 1, "maxLength": MAX_FILE_BYTES,
                                    "description": "the variant file's text, as POST /v1/variants/check takes it"}},
                          ("yaml",), "a house rule's own YAML file sent with the request",
                          additionalProperties=False),
        "TrickRequest": obj({**variant_choice, "leader": ref("Seat"),
                             "cards": arr(ref("Card"), minItems=4, maxItems=4,
                                          description="in play order, leader first"),
                             "number": {"type": "integer", "minimum": 1, "maximum": 13, "default": 1}},
                            ("leader", "cards"), "who wins a complete trick", **choose),
        "LegalRequest": obj({**variant_choice, "hand": arr(ref("Card"), minItems=1, maxItems=13),
                             "trick": arr(ref("Card"), maxItems=3, description="cards already played to this trick"),
                             "number": {"type": "integer", "minimum": 1, "maximum": 13, "default": 1,
                                        "description": "the trick's number; the hand holds 14 - number cards"},
                             "broken": {"type": "boolean", "default": False, "description": "trumps broken"}},
                            ("hand",), "which cards may be played now", **choose),
        "BidRequest": obj({**variant_choice, "seat": ref("Seat"), "bid": ref("Bid"), "dealer": ref("Seat"),
                           "bids": obj({s: ref("Bid") for s in SEATS}, description="bids already made"),
                           "hand": arr(ref("Card"), maxItems=13), "before": ref("Before")},
                          ("seat", "bid"), "may this seat make this bid", **choose),
        "ScoreRequest": {**{k: v for k, v in hand_score.items() if k != "oneOf"},
                         "properties": {**hand_score["properties"], **variant_choice},
                         "allOf": [{"oneOf": hand_score["oneOf"]}, choose]},
        "GameRequest": obj({**variant_choice, "before": ref("Before"),
                            "hands": arr(ref("HandScore"), minItems=1, maxItems=500)},
                           ("hands",), "a whole game's hands, scored in sequence", **choose),
        "HandScore": hand_score,
        "CompareRequest": obj({"variants": arr(ref("VariantRef"), minItems=1, maxItems=MAX_VARIANTS),
                               "kind": {"enum": list(kind_answers), "default": "score"},
                               "input": {"type": "object", "description": "the request of that kind, "
                                                                         "without variant(s)"}},
                              ("variants", "input")),
        "DiffRequest": obj({"variants": arr({"enum": bundled_ids()}, minItems=2, maxItems=MAX_VARIANTS,
                                            uniqueItems=True, description="distinct bundled variant ids"),
                            "deals": {"type": "integer", "minimum": 1, "maximum": max_deals,
                                      "default": default_deals(max_deals)},
                            "seed": {"anyOf": [{"type": "integer", "minimum": -10 ** 63 + 1, "maximum": 10 ** 64 - 1},
                                               {"type": "string", "maxLength": 64}], "default": "0"},
                            "policies": arr({"enum": list(POLICIES)}, minItems=1, uniqueItems=True,
                                            description="seeded players that bid and play each deal "
                                                        f"(default: {', '.join(DiffConfig.policies)})"),
                            "time_limit": {"type": "number", "exclusiveMinimum": 0, "maximum": time_limit,
                                           "default": time_limit,
                                           "description": "seconds; no deal after the first starts later"}},
                           ("variants",), additionalProperties=False),
        "CheckRequest": obj({"yaml": YAML_TEXT}, ("yaml",), additionalProperties=False),
        "TrickAnswer": obj({**readings, "variant": STR, "winner": {"enum": SEATS}, "card": STR,
                            "played_by": per(SEATS, STR), "explanation": arr(ref("Step"))},
                           ("variant", "winner", "card", "played_by", "explanation")),
        "LegalAnswer": obj({**readings, "variant": STR, "legal": arr(STR),
                            "illegal": arr(obj({"card": STR, "reasons": arr(ref("Step"))}, ("card", "reasons"))),
                            "explanation": arr(ref("Step")),
                            "conflicts": arr(obj({"rules": arr(STR), "cites": arr(ref("Step")), "why": STR})),
                            "dead_ends": arr(ref("Step"))},
                           ("variant", "legal", "illegal", "explanation", "conflicts", "dead_ends")),
        "BidAnswer": obj({**readings, "variant": STR, "seat": {"enum": SEATS}, "bid": STR, "allowed": BOOL,
                          "refusals": arr(ref("Step")), "notes": arr(STR),
                          "exchange": nullable(obj({"from": ref("Seat"), "to": ref("Seat"), "cards": INT,
                                                    "rule": STR, "cite": cite, "reason": STR},
                                                   ("from", "to", "cards", "rule", "cite"),
                                                   "the cards this bid makes a partnership pass after the bids "
                                                   "(null: none)"))},
                         ("variant", "seat", "bid", "allowed", "refusals", "notes", "exchange")),
        "TeamResult": team_result, "GameStatus": game_status,
        "ScoreAnswer": obj({**readings, "variant": STR, "bids": per(SEATS, STR), "tricks": per(SEATS, INT),
                            "teams": per(TEAMS, ref("TeamResult")), "game": ref("GameStatus"),
                            "explanation": arr(ref("Step")),
                            "irregularities": arr(ref("Irregularity"), description="cards played against the "
                                                  "play rules that stand or are scored as reneges")},
                           ("variant", "bids", "tricks", "teams", "game", "explanation")),
        "GameAnswer": obj({**readings, "variant": STR,
                           "sheet": arr(obj({"hand": INT, "NS": {"type": "object"}, "EW": {"type": "object"},
                                             "lines": arr(ref("Step")), "game": ref("GameStatus")},
                                            ("hand", "NS", "EW", "lines", "game"))),
                           "result": obj({"over": BOOL, "winner": nullable({"enum": TEAMS}), "reason": STR,
                                          "after_hand": INT,
                                          "scores": per(TEAMS, obj({"score": INT, "bags": INT}, ("score", "bags")))},
                                         ("over", "winner", "after_hand", "scores"))},
                          ("variant", "sheet", "result")),
        "RulingError": obj({"variant": STR, "error": obj({"field": STR, "detail": STR, "rule": nullable(STR),
                                                          "cite": cite}, ("field", "detail"))},
                           ("variant", "error"), "the variant refuses the input (as a problem would say)"),
        "CompareAnswer": obj({"kind": {"enum": list(kind_answers)},
                              "rulings": {"type": "object", "additionalProperties": {
                                  "anyOf": [*kind_answers.values(), ref("RulingError")]},
                                  "description": "variant id -> its ruling"},
                              "differences": arr(obj({"variants": arr(STR, minItems=2, maxItems=2),
                                                      "fields": arr(obj({"field": STR}, ("field",))),
                                                      "rules": arr(obj({"rule": STR}, ("rule",))),
                                                      "sentences": arr(STR)},
                                                     ("variants", "fields", "rules"))),
                              "agree": BOOL},
                             ("kind", "rulings", "differences", "agree"),
                             "each variant's ruling; for each variant that differs from the first: the answer "
                             "fields that differ, the rules (value and cite in each) that make them differ, and "
                             "one plain sentence per rule ('sentences')"),
        "DiffAnswer": obj({"schema": {"const": "rulespec-diff-report/1"},
                           "config": {"type": "object", "description": "the run's settings (deals = deals run)"},
                           "stages": {"type": "object", "additionalProperties": STR,
                                      "description": "stage -> title: bid, legal, trick, score, bags, game"},
                           "pairs": arr(obj({"a": STR, "b": STR, "rules": arr(STR), "transcript": {"type": "object"},
                                             "game_hands": {"type": "object"}, "games": {"type": "object"},
                                             "examples": {}},
                                            ("a", "b", "rules", "transcript")),
                                        description="each pair of variants: the rules that differ, per stage the "
                                                    "rate of disagreement and its attribution to rules, and "
                                                    "minimal examples with the rules' text and citations"),
                           "matrix": {"type": "object"}, "record_errors": {"type": "object"},
                           "run": obj({"deals_requested": INT, "deals_run": INT,
                                       "stopped": nullable({"const": "time limit"}), "time_limit": {"type": "number"},
                                       "elapsed_seconds": {"type": "number"}},
                                      ("deals_requested", "deals_run", "stopped", "time_limit", "elapsed_seconds"))},
                          ("schema", "config", "stages", "pairs", "matrix", "run"),
                          "the differential tester's report (rulespec.tools.diff), plus how the bounded run went"),
        "VariantSummary": obj({**summary_props, "problems": arr(ref("RulesProblem"))}, ("id",),
                              "a bundled variant; one that fails to compile has only 'id' and 'problems'"),
        "VariantDetail": detail,
        "CheckAnswer": detail | {"properties": {**detail["properties"], "ok": {"const": True}, "tests": INT},
                                 "required": [*detail["required"], "ok"]},
        "RuleEntry": rule_entry,
        "RulesProblem": obj({"message": STR, "file": STR, "line": INT, "column": INT, "rule": STR,
                             "source_line": STR, "suggestion": STR, "kind": STR, "field": STR}, ("message",),
                            "one problem in a rules file (line and column are 1-based); for a rule sent inline, "
                            "'field' is its JSON path and line and column are inside that rule's text"),
        "Problem": problem,
    }


def _problems(*slugs: str) -> dict:
    """Responses for these problem types, grouped by status."""
    out: dict = {}
    for slug in slugs:
        status, title = PROBLEM_TYPES[slug]
        entry = out.setdefault(str(status), {"description": "", "content": {PROBLEM_JSON: {"schema": ref("Problem")}}})
        entry["description"] = "; ".join(filter(None, [entry["description"], f"{title} ({slug})"]))
    return out


COMMON = ("not-found", "method-not-allowed", "internal-error",       # (and the server's own, on any request)
          "bad-request", "request-timeout", "uri-too-long", "header-fields-too-large")
POSTED = ("invalid-json", "payload-too-large", "unsupported-media-type", "http-error", "answer-too-large")


def _ok(schema: dict, description: str) -> dict:
    return {"200": {"description": description, "content": {"application/json": {"schema": schema}}}}


def _post(summary: str, request: str, answer: dict, description: str, *errors: str) -> dict:
    return {"post": {"summary": summary, "description": description, "operationId": request[:-7].lower(),
                     "requestBody": {"required": True, "content": {"application/json": {"schema": ref(request)}}},
                     "responses": {**_ok(answer, "the ruling with its explanation"),
                                   **_problems(*POSTED, *COMMON, "invalid-input", "rule-refusal",
                                               "variant-problems", "work-limit", *errors)}}}


KIND_DOCS = {
    "trick": "Who wins a complete trick, with the rules that decide it.",
    "legal": "Which cards a seat may play now; for each other card, the rule that forbids it.",
    "bid": "Whether a seat may make a bid given the bids so far and the scores (e.g. blind nil only "
           "when the team is far enough behind).",
    "score": "Score one hand from tricks per seat, or from the full deal and play (the play is checked "
             "card by card: a card not in the hand, or one the rules forbid, is refused; where the variant "
             "defines a renege penalty it is scored instead).",
    "game": "Score a list of hands in sequence: the running score sheet and the result.",
}


# --------------------------------------------------------------------------- double dummy: solve, claim, nil
SOLVE_DOCS = {
    "solve": "The tricks each side takes from a card-play position with best play by both (double dummy), "
             "with a principal line of play, under the variant's own play rules; where each plays alone, each "
             "seat's own best against all the others.",
    "claim": "Whether a side (where each plays alone: a player, against everyone else) surely takes at least k "
             "of the remaining tricks: when it fails, the defence that beats it card by card; when it holds, a "
             "line for the claimer.",
    "nil": "Whether a nil bidder can take no trick from here against best defence, partner helping (where each "
           "plays alone: against everyone else), with the forcing line.",
}


def _solve_schemas() -> dict:
    """The double-dummy requests and answers (``rulespec.app.claims``)."""
    # one entry per seat of the variant's table (N E S W; three seats: N E S; two: N E; five and six: X, Y past W),
    # checked by the answer
    by_seat = {seat: arr(ref("Card"), maxItems=27) for seat in TABLE_SEATS}
    position = {
        "hands": obj(by_seat, (), "the cards each seat of the variant's table still holds", additionalProperties=False),
        "leader": ref("Seat"),
        "trick": arr(ref("Card"), maxItems=5, description="the trick in progress, leader first"),
        "broken": {"type": "boolean", "default": False, "description": "trumps broken"},
        "deal": obj(by_seat, (), "the hands as dealt, one per seat of the variant's table (instead of hands)",
                    additionalProperties=False),
        "dealer": ref("Seat"),
        "play": arr(ref("Card"), maxItems=60, description="with deal: the cards played so far, in order"),
        "budget": obj({"nodes": {"type": "integer", "minimum": 1},
                       "seconds": {"type": "number", "exclusiveMinimum": 0}},
                      description="lower limits than the service's own for this request", additionalProperties=False),
    }
    line = arr(obj({"number": INT, "leader": ref("Seat"),
                    "cards": arr(obj({"seat": ref("Seat"), "card": STR}, ("seat", "card"))), "winner": ref("Seat")},
                   ("number", "leader", "cards", "winner")), description="the line of play, trick by trick")
    common = {"readings": arr(ref("Reading")), "variant": STR, "to_play": ref("Seat"), "tricks_left": INT, "line": line,
              "conflicts": arr({"type": "object"}), "dead_ends": arr({"type": "object"}), "nodes": INT}
    required = ("variant", "to_play", "tricks_left", "line", "conflicts", "dead_ends", "nodes")
    # a variant (or several), and the position as the cards held with the leader, or as the deal and play
    given = [CHOOSE, {"oneOf": [{"required": ["hands", "leader"]}, {"required": ["deal", "dealer"]}]}]
    choice = {"variant": ref("VariantRef"),
              "variants": arr(ref("VariantRef"), minItems=1, maxItems=MAX_VARIANTS, uniqueItems=True)}
    claim = obj({"side": {"enum": TEAMS + SIX_TEAMS + TABLE_SEATS,
                          "description": "NS or EW (at six seats NW, EX or SY); where each plays alone, a seat"},
                 "tricks": {"type": "integer", "minimum": 0, "maximum": 27}},
                ("side", "tricks"), "the claim: this side takes at least this many of the remaining tricks")
    tricks = {"oneOf": [per(TEAMS, INT, "by partnership"),
                        per(SIX_TEAMS, INT, "by partnership at six seats, each the most that partnership takes "
                            "against the two others"),
                        obj({seat: INT for seat in TABLE_SEATS}, ("N", "E"), "where each plays alone: by seat, "
                            "each the most that seat takes against all the others", additionalProperties=False)]}
    return {
        "SolveRequest": obj({**position, **choice}, (), "a card-play position", allOf=given),
        "ClaimRequest": obj({**position, **choice, "claim": claim}, ("claim",), allOf=given),
        "NilRequest": obj({**position, **choice, "nil": ref("Seat")}, ("nil",), allOf=given),
        "SolveAnswer": obj({**common, "tricks": tricks, "why": STR}, (*required, "tricks")),
        "ClaimAnswer": obj({**common, "claim": claim, "holds": BOOL, "best": INT, "why": STR},
                           (*required, "claim", "holds", "best", "why")),
        "NilAnswer": obj({**common, "nil": ref("Seat"), "makes": BOOL, "forced_tricks": INT, "why": STR},
                         (*required, "nil", "makes", "forced_tricks", "why")),
    }


def _solve_paths() -> dict:
    return {f"/v1/{kind}": _post(doc.split(":")[0].split(",")[0].rstrip("."), f"{kind.title()}Request",
                                 {"anyOf": [ref(f"{kind.title()}Answer"), ref("CompareAnswer")]},
                                 doc + " Bounded: every search of a request shares one node and time budget "
                                       "(search-budget when spent).", "search-budget")
            for kind, doc in SOLVE_DOCS.items()}


def build_spec(max_deals: int, time_limit: float, max_bytes: int) -> dict:
    """The OpenAPI 3.1 document for an app with these limits."""
    from .recordschema import record_paths, record_schemas   # (it builds on this module's helpers)
    paths: dict = {
        "/healthz": {"get": {"summary": "Liveness", "operationId": "healthz",
                             "responses": {**_ok(obj({"status": {"const": "ok"}}, ("status",)), "the service is up"),
                                           **_problems(*COMMON)}}},
        "/openapi.json": {"get": {"summary": "This document", "operationId": "openapi",
                                  "responses": {**_ok({"type": "object"}, "OpenAPI 3.1"), **_problems(*COMMON)}}},
        "/api": {"get": {"summary": "The API described for people (HTML)", "operationId": "api_page",
                         "responses": {"200": {"description": "HTML", "content": {"text/html": {"schema": STR}}},
                                       **_problems(*COMMON)}}},
        "/v1/variants": {"get": {"summary": "Bundled variants", "operationId": "list_variants",
                                 "responses": {**_ok(obj({"variants": arr(ref("VariantSummary"))}, ("variants",)),
                                                     "every bundled variant"), **_problems(*COMMON)}}},
        "/v1/variants/{id}": {"get": {
            "summary": "A variant's rules with citations", "operationId": "get_variant",
            "description": "Every rule in force: text, citation or why the document is silent, the variant "
                           "that wrote it (inherited rules are marked) and the choices tables make.",
            "parameters": [{"name": "id", "in": "path", "required": True,
                            "schema": {"type": "string", "examples": bundled_ids()}}],
            "responses": {**_ok(ref("VariantDetail"), "the variant"),
                          **_problems(*COMMON, "unknown-variant", "variant-problems")}}},
        "/v1/variants/check": {"post": {
            "summary": "Check a house rule's YAML", "operationId": "check_variant",
            "description": "Every problem (line, column, message, suggestion) as a 422 problem, or the "
                           "compiled variant. 'extends' names a bundled id (no file paths); at most "
                           f"{MAX_CHECK_RULES} rules, each ≤ {MAX_RULE_CHARS} characters.",
            "requestBody": {"required": True, "content": {
                **{t: {"schema": YAML_TEXT} for t in YAML_TYPES}, "application/json": {"schema": ref("CheckRequest")}}},
            "responses": {**_ok(ref("CheckAnswer"), "the house rule compiles"),
                          **_problems(*POSTED, *COMMON, "invalid-input", "variant-problems", "work-limit")}}},
        "/v1/compare": _post("The same situation under several variants", "CompareRequest", ref("CompareAnswer"),
                             "Each variant's ruling, the answer fields that differ, and the rules "
                             "(value and citation in each variant) that make them differ."),
        "/v1/diff": _post("Bounded differential run", "DiffRequest", ref("DiffAnswer"),
                          f"Replays up to {max_deals} seeded deals under each bundled variant, all within "
                          f"{time_limit} s (a deal after the first starts only if, as slow as the slowest so "
                          "far, it ends within 80% of that; the minimal examples are searched in the rest), "
                          "with the differential tester: per pair of variants and stage, how often they "
                          "disagree, the rules responsible and minimal examples."),
    }
    for kind, doc in KIND_DOCS.items():
        answer = ref(f"{kind.title()}Answer")
        paths[f"/v1/{kind}"] = _post(doc.split(",")[0].split(";")[0].rstrip("."), f"{kind.title()}Request",
                                     {"anyOf": [answer, ref("CompareAnswer")]},
                                     doc + " With \"variants\": [...] the answer is side by side "
                                           "(as POST /v1/compare).")
    return {
        "openapi": "3.1.0",
        "info": {"title": "spades-rulespec", "version": "1",
                 "description": "Spades rule books as cited, executable variants; disputes answered with the "
                                "clause that decides them. Seats N E S W clockwise, teams NS and EW. Errors "
                                "are RFC 9457 problem details naming the field path. Limits: request body "
                                f"≤ {max_bytes} bytes, JSON nesting ≤ {MAX_DEPTH}, ≤ {MAX_VARIANTS} variants "
                                f"per request, ≤ {MAX_INLINE_RULES} inline rules, rule text ≤ {MAX_RULE_CHARS} "
                                f"characters, diff ≤ {max_deals} deals and ≤ {time_limit} s."},
        "paths": {**paths, **_solve_paths(), **record_paths(_post)},
        "components": {"schemas": {**_schemas(max_deals, time_limit), **record_schemas()}},
    }
