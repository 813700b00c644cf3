"""Errors as RFC 9457 problem details (``application/problem+json``).

Every error the service returns goes through ``problem_response``: a ``type``
URI (a link into the API page), ``title``, ``status``, ``detail`` and, where
they apply, the ``field`` path of the offending input, the ``rule`` and
``cite`` that refuse it, and the ``problems`` of a rules file.
"""
from __future__ import annotations

import logging

from flask import Flask, Response, json, request
from werkzeug.exceptions import HTTPException

from rulespec.app.repeats import once
from rulespec.errors import BudgetExceeded, InputError, RulespecError, SearchBudgetError

PROBLEM_JSON = "application/problem+json"

# slug -> (status, title); the API page documents each under the anchor problem-<slug>.
PROBLEM_TYPES: dict[str, tuple[int, str]] = {
    "invalid-json": (400, "Request body is not valid JSON"),
    "invalid-input": (422, "The request cannot be answered as given"),
    "rule-refusal": (422, "The variant's rules refuse this"),
    "search-budget": (422, "The double-dummy search ran out of its budget"),
    "variant-problems": (422, "The rules file has problems"),
    "work-limit": (422, "The rules take too much work to answer this request"),
    "unknown-variant": (404, "No such variant"),
    "not-found": (404, "No such resource"),
    "method-not-allowed": (405, "Method not allowed"),
    "payload-too-large": (413, "Request body too large"),
    "unsupported-media-type": (415, "Unsupported content type"),
    "answer-too-large": (422, "The answer would be too large"),
    "http-error": (400, "HTTP error"),
    # the server's own answers, before the app sees the request (service/worker.py)
    "bad-request": (400, "Malformed HTTP request"),
    "forbidden": (403, "Forbidden"),
    "request-timeout": (408, "Request not received in time"),
    "expectation-failed": (417, "Expectation failed"),
    "uri-too-long": (414, "Request line too long"),
    "header-fields-too-large": (431, "Request header fields too large"),
    "not-implemented": (501, "Transfer coding not implemented"),
    "internal-error": (500, "Internal error"),
}
_BY_STATUS = {404: "not-found", 405: "method-not-allowed", 413: "payload-too-large",
              415: "unsupported-media-type"}

log = logging.getLogger(__name__)


class ApiProblem(Exception):
    """An error to report as a problem: ``slug`` names its type; extra members go in ``extra``."""

    def __init__(self, slug: str, detail: str, field: str | None = None, status: int | None = None, **extra):
        super().__init__(detail)
        self.slug, self.detail, self.field = slug, detail, field
        self.status = status or PROBLEM_TYPES[slug][0]
        self.extra = extra


def type_uri(slug: str) -> str:
    """The problem type: a URI reference to its entry on the API page."""
    return f"/api#problem-{slug}"


def problem_response(slug: str, detail: str, status: int | None = None, field: str | None = None,
                     headers: dict | None = None, **extra) -> Response:
    status = status or PROBLEM_TYPES[slug][0]
    body = {"type": type_uri(slug), "title": PROBLEM_TYPES[slug][1], "status": status, "detail": detail,
            "instance": request.path}
    if field is not None:
        body["field"] = field
    body.update({k: v for k, v in extra.items() if v is not None})
    # a long text of the request echoed in the detail, a problem's message and its line: in full once
    return Response(json.dumps(once(body)), status=status, headers=headers, mimetype=PROBLEM_JSON)


def from_input_error(exc: InputError) -> Response:
    """An ``InputError`` from the answers (rulespec.app.disputes, .answers, .fields): field path, rule and
    citation, rules-file problems."""
    problems = exc.details.get("problems") if exc.details else None
    slug = "variant-problems" if problems else "rule-refusal" if exc.rule else "invalid-input"
    search = exc.details if isinstance(exc, SearchBudgetError) else None
    if search is not None:
        slug = "search-budget"
    return problem_response(slug, exc.message, field=exc.field or "body", rule=exc.rule, cite=exc.cite,
                            problems=problems, search=search)


def register_error_handlers(app: Flask) -> None:
    """Every error, expected or not, leaves as problem+json; never a stack trace."""

    @app.errorhandler(ApiProblem)
    def _api_problem(exc: ApiProblem):
        return problem_response(exc.slug, exc.detail, exc.status, exc.field, **exc.extra)

    @app.errorhandler(InputError)
    def _input_error(exc: InputError):
        return from_input_error(exc)

    @app.errorhandler(BudgetExceeded)
    def _budget(exc: BudgetExceeded):
        return problem_response("work-limit", str(exc), field=exc.field)

    @app.errorhandler(RulespecError)
    def _rules_error(exc: RulespecError):
        """A rule that fails while it is evaluated (e.g. a division by zero in a house rule)."""
        return problem_response("invalid-input", f"the rules cannot answer this: {exc}", field="variant")

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        status = exc.code or 400
        slug = _BY_STATUS.get(status, "http-error")
        detail = exc.description or exc.name
        if status == 413:
            detail = f"the body is larger than the limit of {app.config['MAX_CONTENT_LENGTH']} bytes"
        elif status == 404:
            detail = f"no resource at {request.path}; see /api for the endpoints"
        allowed = status == 405 and getattr(exc, "valid_methods", None)
        headers = {"Allow": ", ".join(exc.valid_methods)} if allowed else None
        return problem_response(slug, detail, status, headers=headers)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return problem_response("internal-error", "the server could not answer this request; it has been logged")
