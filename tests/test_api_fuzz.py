"""Schemathesis against /openapi.json: no server errors, every response as documented, schema-invalid
requests refused, schema-valid ones accepted or refused only for what a schema cannot say."""
from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (content_type_conformance, negative_data_rejection,
                                               positive_data_acceptance, response_headers_conformance,
                                               response_schema_conformance, status_code_conformance)

from service.app import create_app

# Schema-valid requests may still be refused with 422 for what JSON Schema cannot express (tricks that
# add up to 13, a card dealt twice, an id no bundled variant has, YAML that is not a variant): that is the
# documented answer, so positive data may get 422 (see refused_only_for_meaning); schema-invalid data
# may also be refused as too large (413).
CONFIG = SchemathesisConfig.from_dict({"checks": {
    "positive_data_acceptance": {"expected-statuses": ["2xx", "404", "422"]},
    "negative_data_rejection": {"expected-statuses": ["400", "404", "405", "413", "415", "422"]}}})


@pytest.fixture(scope="module")
def api_schema():
    """The service's schema, loaded when the test runs (``from_fixture``): the cases are made by the one process
    that runs it, not at collection by every worker of the suite (9 s each)."""
    return schemathesis.openapi.from_wsgi("/openapi.json",
                                          create_app({"DIFF_TIME_LIMIT": 0.2, "DIFF_MAX_DEALS": 3}), config=CONFIG)


schema = schemathesis.pytest.from_fixture("api_schema")
# what the service says when a request has the wrong shape: the schema should have refused such a request
SHAPE_WORDS = ("this field is required", "unknown key", "a whole number", "expected a JSON object",
               "expected a list", "not both", "is named twice", "must be between", "is not JSON")


@schemathesis.check
def refused_only_for_meaning(ctx, response, case) -> bool | None:
    """A schema-valid request refused with 422 must be refused for its meaning, not its shape."""
    if case.meta is None or not case.meta.generation.mode.is_positive or response.status_code != 422:
        return None
    detail = (response.json() or {}).get("detail", "")
    if any(words in detail for words in SHAPE_WORDS):
        raise AssertionError(f"schema-valid request refused for its shape: {detail}")
    return None


CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance, negative_data_rejection, positive_data_acceptance, refused_only_for_meaning]


@schema.parametrize()
@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "12")), deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_api_conforms(case):
    case.call_and_validate(checks=CHECKS)
