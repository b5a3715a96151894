#!/usr/bin/env python3
"""Writes the SAM-generated sample events in this folder, one payload 1.0 (REST `aws-proxy`)
and one payload 2.0 (HTTP API) event per HTTP function, plus the REST authorizer events.

Each starts as `sam local generate-event` prints it (SAM CLI from PyPI: `pip install
aws-sam-cli`); only what the function reads is then set: the method, the path, the body, the
headers it needs, and the Lambda authorizer's context behind the authorizer. Run it again
after a SAM upgrade: `python3 events/sam/generate.py`.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SAM = os.environ.get("SAM", "sam")
USER = "REPLACE-WITH-A-USER-ID"
# Gatehouse's own issuer as `gatehouse invoke` gives it (ISSUER): the routes behind the
# authorizer take only its tokens.
ISSUER = "http://127.0.0.1:3000"
BEARER = "Bearer REPLACE-WITH-A-TOKEN"

# function: (method, path, body, extra headers, behind the authorizer)
FUNCTIONS = {
    "exchange": ("POST", "/auth/exchange", {"code": "REPLACE-WITH-A-CODE", "app": "demo"}, {}, False),
    "refresh": ("POST", "/auth/refresh", {"refreshToken": "REPLACE-WITH-A-REFRESH-TOKEN"}, {}, False),
    "logout": ("POST", "/auth/logout", {"refreshToken": "REPLACE-WITH-A-REFRESH-TOKEN", "scope": "local"}, {}, False),
    "user-profile": ("GET", "/users/me", None, {"Authorization": BEARER}, True),
    "delete-account": ("DELETE", "/users/me", None, {"Authorization": BEARER}, True),
    "verify-code": (
        "POST", "/api/v1/auth/verify", {"app": "demo", "code": "REPLACE-WITH-A-CODE"},
        {"Authorization": "Bearer REPLACE-WITH-AN-ASSERTION", "X-Amz-Content-Sha256": "REPLACE-WITH-THE-BODY-SHA256"},
        False,
    ),
    "jwks": ("GET", "/.well-known/jwks.json", None, {}, False),
}


def sam(*args):
    env = dict(os.environ, SAM_CLI_TELEMETRY="0")
    return json.loads(subprocess.run([SAM, "local", "generate-event", "apigateway", *args],
                                     check=True, capture_output=True, text=True, env=env).stdout)


def body_args(body):
    # SAM base64-encodes the body it is given and marks it so; a GET is generated with one and
    # sent without.
    return ["--body", json.dumps(body, separators=(",", ":"))] if body is not None else []


def v1(method, path, body, headers, behind):
    event = sam("aws-proxy", "--method", method, "--path", path.lstrip("/"), "--resource", path, *body_args(body))
    if body is None:
        event["body"], event["isBase64Encoded"] = None, False
    event["pathParameters"] = None
    for name, value in headers.items():
        event["headers"][name] = value
        event["multiValueHeaders"][name] = [value]
    if behind:
        # A REST Lambda authorizer's context sits straight in requestContext.authorizer.
        event["requestContext"]["authorizer"] = {"principalId": USER, "sub": USER, "iss": ISSUER, "userId": USER}
    return event


def v2(method, path, body, headers, behind):
    event = sam("http-api-proxy", "--method", method, "--path", path.lstrip("/"), *body_args(body))
    if body is None:
        event["body"], event["isBase64Encoded"] = None, False
    event["routeKey"] = event["requestContext"]["routeKey"] = f"{method} {path}"
    event["pathParameters"] = None
    for name, value in headers.items():
        event["headers"][name.lower()] = value
    # SAM's sample has a JWT authorizer's claims; these routes sit behind Gatehouse's Lambda
    # authorizer, or behind none.
    event["requestContext"]["authorizer"] = {"lambda": {"sub": USER, "iss": ISSUER, "userId": USER}} if behind else None
    if not behind:
        del event["requestContext"]["authorizer"]
    return event


def write(name, event):
    with open(os.path.join(HERE, name), "w") as out:
        json.dump(event, out, indent=2)
        out.write("\n")


def main():
    for name, spec in FUNCTIONS.items():
        write(f"{name}.v1.json", v1(*spec))
        write(f"{name}.v2.json", v2(*spec))
    token = sam("authorizer")
    token["authorizationToken"] = BEARER
    write("authorizer-token.v1.json", token)
    request = sam("request-authorizer")
    request["headers"]["Authorization"] = BEARER
    write("authorizer-request.v1.json", request)


if __name__ == "__main__":
    sys.exit(main())
