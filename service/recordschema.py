"""The OpenAPI schemas and paths of ``POST /v1/audit`` and ``POST /v1/review`` (merged into /openapi.json by
``openapi.build_spec``), built from the limits the code enforces."""
from __future__ import annotations

from collections.abc import Callable

from rulespec.records import FORMATS, REQUEST_LIMITS

from .openapi import BOOL, INT, STR, arr, obj, ref

_PROBLEM = obj({"message": STR, "record": INT, "line": INT, "tag": STR, "path": STR}, ("message",),
               "a record (or part of one) that could not be read: its place in the file and what is wrong")
_RECORD = {"type": "string", "minLength": 1, "maxLength": REQUEST_LIMITS.bytes,
           "description": f"the record file's text: Trickster PTN, PBN 2.1, or this project's JSON lines "
                          f"(at most {REQUEST_LIMITS.bytes:,} bytes and {REQUEST_LIMITS.hands} hands)"}
_REQUEST = {"record": _RECORD, "format": {"enum": list(FORMATS), "description": "default: told by the text"},
            "variant": {**ref("VariantRef"), "description": "judge every hand under this variant (default: the "
                                                            "record's own options or variant, else standard)"}}
_READING = obj({"format": {"enum": list(FORMATS)}, "hands": INT, "problems": arr(_PROBLEM)},
               ("format", "hands", "problems"))
_JUDGE = obj({"id": STR, "chosen": {"enum": ["given", "options", "named", "default"]},
              "variant": {"anyOf": [STR, {"type": "object"}]},
              "options": arr(obj({"option": STR, "value": {}, "mapped": BOOL, "why": STR, "rules": {"type": "object"}},
                                 ("option", "mapped", "why"))),
              "not_mapped": arr(STR)}, ("id", "chosen", "variant"),
             "the variant that judged hands, and how it was chosen (with a record's options: what became of each)")


def record_schemas() -> dict:
    hand = obj({"hand": INT, "label": STR, "line": INT, "variant": STR, "problem": {"type": "object"},
                "first_irregular": {"anyOf": [{"type": "object"}, {"type": "null"}]},
                "tricks": arr({"type": "object"}), "score": {"anyOf": [{"type": "object"}, {"type": "null"}]},
                "platform": {"type": "object"}, "differences": arr({"type": "object"})}, ("hand",),
               "one hand: its replay, or the problem that stops it")
    difference = obj({"hand": INT, "team": {"enum": ["NS", "EW"]}, "platform": INT, "rule_book": INT,
                      "difference": INT, "decided_by": obj({"why": STR, "lines": arr({"type": "object"})})},
                     ("hand", "team", "platform", "rule_book", "decided_by"))
    reviewed = obj({"hand": INT, "variant": STR, "problem": {"type": "object"}, "stopped": {"type": "object"},
                    "cards": arr({"type": "object"}),
                    "costly": arr(obj({"trick": INT, "seat": STR, "card": STR, "cost": INT, "keeps": {},
                                       "text": STR, "position": {"type": "object"}},
                                      ("trick", "seat", "card", "cost", "text", "position"))),
                    "nils": arr({"type": "object"}), "complete": BOOL, "reviewed_from": {}, "nodes": INT,
                    "budget": {"type": "object"}}, ("hand",))
    return {
        "AuditRequest": obj(dict(_REQUEST), ("record",), "a game record to audit", additionalProperties=False),
        "ReviewRequest": obj({**_REQUEST, "hands": arr({"type": "integer", "minimum": 1}, maxItems=REQUEST_LIMITS.hands,
                                                       description="review only these hands (1: the first)"),
                              "budget": obj({"nodes": {"type": "integer", "minimum": 1},
                                             "seconds": {"type": "number", "exclusiveMinimum": 0}},
                                            description="each position's search budget (as a /v1/solve body's), "
                                                        "within the request's own", additionalProperties=False)},
                             ("record",), "a game record to review card by card", additionalProperties=False),
        "AuditAnswer": obj({"record": _READING, "variants": arr(_JUDGE), "hands": arr(hand),
                            "differences": arr(difference), "game": {"type": "object"}, "summary": {"type": "object"}},
                           ("record", "variants", "hands", "differences", "game", "summary")),
        "ReviewAnswer": obj({"record": _READING, "variants": arr(_JUDGE), "hands": arr(reviewed),
                             "costly": arr(STR)}, ("record", "variants", "hands", "costly")),
    }


def record_paths(post: Callable[..., dict]) -> dict:
    """The two paths, each operation made by ``post`` (``openapi``'s, with the problems every POST has)."""
    return {
        "/v1/audit": post("Audit a game record", "AuditRequest", ref("AuditAnswer"),
                           "Each hand of a PTN, PBN or JSON record replayed under the variant (the record's own "
                           "options by default): the first irregular card with its rule and clause, each trick's "
                           "winner, each hand's score and the running game score; where the record carries the "
                           "platform's scores, every hand where they differ, with the clause that decides it. "
                           "A record of which no hand can be read is refused with the place it stops."),
        "/v1/review": post("Review a game record card by card", "ReviewRequest", ref("ReviewAnswer"),
                            "The double-dummy value before and after each card under the variant, and the cards "
                            "that cost a trick, a nil or the contract, each with its position as a /v1/solve body. "
                            "Searched from the last card back within one search budget per request; a hand the "
                            "budget does not cover is reviewed from a later trick on ('complete': false)."),
    }
