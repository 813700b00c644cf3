"""Schemathesis against /openapi.json: no server errors, every response as documented."""
from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_headers_conformance,
                                               response_schema_conformance, status_code_conformance)

from service.app import create_app

schema = schemathesis.openapi.from_wsgi("/openapi.json", create_app({"DIFF_TIME_LIMIT": 0.2, "DIFF_MAX_DEALS": 3}))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]


@schema.parametrize()
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_api_conforms(case):
    case.call_and_validate(checks=CHECKS)
