"""Reading request bodies: JSON (nesting bounded) and house-rule YAML."""
from __future__ import annotations

import json

from flask import current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

from .problems import ApiProblem

MAX_DEPTH = 32
YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "text/plain")


def _is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or mimetype.endswith("+json")


def _too_deep(value) -> bool:
    """Whether some value lies deeper than ``MAX_DEPTH`` levels (the document is level 1)."""
    level = [value]
    for _ in range(MAX_DEPTH - 1):
        level = [child for item in level if isinstance(item, (dict, list))
                 for child in (item.values() if isinstance(item, dict) else item)]
        if not level:
            return False
    return any(isinstance(item, (dict, list)) and item for item in level)


def _body() -> bytes:
    """The body; one sent in chunks (no Content-Length) that goes past the limit is refused (413),
    as one that declares a larger length is, rather than cut at the limit."""
    data = request.get_data(cache=True)
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit is not None and request.content_length is None and len(data) >= limit:
        if request.environ["wsgi.input"].read(1):     # the limited stream stopped at the limit: more follows
            raise RequestEntityTooLarge()
    return data


def decode_text(data: bytes) -> str:
    """A body as text; a 400 problem if it is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiProblem("invalid-json", "the body is not UTF-8 text", "body", status=400) from None


def _decode() -> str:
    return decode_text(_body())


def json_body():
    """The request's JSON document; 415 for another content type, 400 if it does not parse."""
    if not _is_json(request.mimetype):
        raise ApiProblem("unsupported-media-type",
                         f"send JSON with Content-Type: application/json (got {request.mimetype or 'none'})")
    return parse_json(_decode())


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


class DuplicateKey(ValueError):
    """An object names the same key twice (JSON leaves it open which one counts)."""


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(f"the key {key[:80]!r} appears twice in one object")
            seen.add(key)
    return out


def read_float(text: str) -> float | int:
    """A JSON number with a fraction or exponent; a whole one (``2.0``, ``1e3``) is the integer JSON Schema
    takes it for, so that the service accepts what its OpenAPI document calls an integer."""
    value = float(text)
    return int(value) if value.is_integer() and abs(value) < 2 ** 53 else value


# built once and shared, as json.loads shares its default decoder (with an option it builds one per call)
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, object_pairs_hook=_unique_keys, parse_float=read_float)


def parse_json(text: str):
    """A JSON document (NaN and Infinity refused) nesting at most ``MAX_DEPTH`` levels; else a 400 problem."""
    try:
        if text.startswith("\ufeff"):    # refused as json.loads refuses it (the decoder does not check)
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        value = _DECODER.decode(text)
    except DuplicateKey as exc:
        raise ApiProblem("invalid-json", f"the body is ambiguous: {exc}", "body") from None
    except (ValueError, RecursionError) as exc:
        raise ApiProblem("invalid-json", f"the body is not valid JSON: {exc}", "body") from None
    # each list or object opens with a bracket: a body with fewer than MAX_DEPTH cannot nest too deep
    if text.count("[") + text.count("{") >= MAX_DEPTH and _too_deep(value):
        raise ApiProblem("invalid-json", f"the body nests deeper than {MAX_DEPTH} levels", "body")
    return value


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
                     f"send the house rule as text/yaml or as JSON {{\"yaml\": ...}} "
                     f"(got {request.mimetype or 'none'})")
