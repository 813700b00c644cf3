"""Reading request bodies: JSON (nesting bounded) and house-rule YAML."""
from __future__ import annotations

import json

from flask import request

from .problems import ApiProblem

MAX_DEPTH = 32
YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "text/plain")


def _is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or mimetype.endswith("+json")


def _too_deep(value) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return False


def _decode() -> str:
    try:
        return request.get_data(cache=True).decode("utf-8")
    except UnicodeDecodeError:
        raise ApiProblem("invalid-json", "the body is not UTF-8 text", "body", status=400) from None


def json_body():
    """The request's JSON document; 415 for another content type, 400 if it does not parse."""
    if not _is_json(request.mimetype):
        raise ApiProblem("unsupported-media-type",
                         f"send JSON with Content-Type: application/json (got {request.mimetype or 'none'})")
    return parse_json(_decode())


def parse_json(text: str):
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        raise ApiProblem("invalid-json", f"the body is not valid JSON: {exc}", "body") from None
    if _too_deep(value):
        raise ApiProblem("invalid-json", f"the body nests deeper than {MAX_DEPTH} levels", "body")
    return value


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def yaml_body() -> str:
    """House-rule YAML: the raw body (a YAML or text type) or ``{"yaml": "..."}`` in JSON."""
    if request.mimetype in YAML_TYPES:
        return _decode()
    if _is_json(request.mimetype):
        body = parse_json(_decode())
        if not isinstance(body, dict) or not isinstance(body.get("yaml"), str):
            raise ApiProblem("invalid-input", "expected {\"yaml\": \"...the house rule's text...\"}",
                             "yaml" if isinstance(body, dict) else "body")
        extra = sorted(set(body) - {"yaml"})
        if extra:
            raise ApiProblem("invalid-input", f"unknown key '{extra[0]}' (the only key is 'yaml')", extra[0])
        return body["yaml"]
    raise ApiProblem("unsupported-media-type",
                     f"send the house rule as text/yaml or as JSON {{\"yaml\": ...}} (got {request.mimetype or 'none'})")
