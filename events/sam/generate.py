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
import re
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
    "send-magic-link": ("POST", "/auth/send-magic-link", {"email": "ada@example.com", "app": "demo"}, {}, False),
    "email-magic-link": (
        "POST", "/api/v1/auth/email", {"app": "demo", "email": "ada@example.com"},
        {"Authorization": "Bearer REPLACE-WITH-AN-ASSERTION", "X-Amz-Content-Sha256": "REPLACE-WITH-THE-BODY-SHA256"},
        False,
    ),
    "email-callback": ("GET", "/auth/email-callback?token=REPLACE-WITH-A-LINK-TOKEN", None, {}, False),
    "otp-request": ("POST", "/auth/otp/request", {"phoneNumber": "+14155550100"}, {}, False),
    "otp-verify": ("POST", "/auth/otp/verify", {"phoneNumber": "+14155550100", "code": "123456"}, {}, False),
    "verify-apple": (
        "POST", "/auth/verify-apple",
        {"identityToken": "REPLACE-WITH-AN-APPLE-IDENTITY-TOKEN", "nonce": "REPLACE-WITH-THE-NONCE", "app": "demo"},
        {}, False,
    ),
    "authorize": ("GET", "/auth?app=demo", None, {}, False),
    "oauth-callback": ("GET", "/auth/callback?code=REPLACE-WITH-A-CODE&state=REPLACE-WITH-THE-STATE", None, {}, False),
    "supabase-signup": (
        "POST", "/auth/v1/signup", {"email": "ada@example.com", "password": "correct horse battery"},
        {"apikey": "REPLACE-WITH-THE-PUBLISHABLE-KEY"}, False,
    ),
    "supabase-recover": (
        "POST", "/auth/v1/recover", {"email": "ada@example.com"}, {"apikey": "REPLACE-WITH-THE-PUBLISHABLE-KEY"}, False,
    ),
    "supabase-otp": (
        "POST", "/auth/v1/otp", {"email": "ada@example.com"}, {"apikey": "REPLACE-WITH-THE-PUBLISHABLE-KEY"}, False,
    ),
    "supabase-token": (
        "POST", "/auth/v1/token?grant_type=password", {"email": "ada@example.com", "password": "correct horse battery"},
        {"apikey": "REPLACE-WITH-THE-PUBLISHABLE-KEY"}, False,
    ),
    "supabase-verify": ("GET", "/auth/v1/verify?token=REPLACE-WITH-A-LINK-TOKEN&type=signup", None, {}, False),
    "supabase-user": (
        "GET", "/auth/v1/user", None,
        {"apikey": "REPLACE-WITH-THE-PUBLISHABLE-KEY", "Authorization": BEARER}, False,
    ),
    "supabase-logout": (
        "POST", "/auth/v1/logout?scope=local", {},
        {"apikey": "REPLACE-WITH-THE-PUBLISHABLE-KEY", "Authorization": BEARER}, False,
    ),
    "supabase-passkeys": (
        "POST", "/auth/v1/passkeys/authentication/options", {}, {"apikey": "REPLACE-WITH-THE-PUBLISHABLE-KEY"}, False,
    ),
    "supabase-settings": ("GET", "/auth/v1/settings", None, {"apikey": "REPLACE-WITH-THE-PUBLISHABLE-KEY"}, False),
    "supabase-admin": (
        "GET", "/auth/v1/admin/users?page=1&per_page=50", None,
        {"apikey": "REPLACE-WITH-A-SERVER-KEY", "Authorization": "Bearer REPLACE-WITH-A-SERVER-KEY"}, False,
    ),
}


def split(path):
    """The path and its query parameters."""
    if "?" not in path:
        return path, {}
    bare, query = path.split("?", 1)
    return bare, dict(pair.split("=", 1) for pair in query.split("&"))


def route(path):
    """A route's path (`/admin/users/{id}`) as a request has it, each `{name}` a placeholder,
    and its path parameters (None for a route without any, as API Gateway sends it)."""
    parameters = {name: f"REPLACE-WITH-{name.upper()}" for name in re.findall(r"\{(\w+)\}", path)}
    concrete = re.sub(r"\{(\w+)\}", lambda match: parameters[match.group(1)], path)
    return concrete, (parameters or None)


def sam(*args):
    env = dict(os.environ, SAM_CLI_TELEMETRY="0")
    return json.loads(subprocess.run([SAM, "local", "generate-event", "apigateway", *args],
                                     check=True, capture_output=True, text=True, env=env).stdout)


def body_args(body):
    # SAM base64-encodes the body it is given and marks it so; a GET is generated with one and
    # sent without.
    return ["--body", json.dumps(body, separators=(",", ":"))] if body is not None else []


def v1(method, path, body, headers, behind):
    path, query = split(path)
    concrete, parameters = route(path)
    event = sam("aws-proxy", "--method", method, "--path", concrete.lstrip("/"), "--resource", path, *body_args(body))
    if query:  # else SAM's own sample query stays: the functions ignore what they do not read
        event["queryStringParameters"] = query
        event["multiValueQueryStringParameters"] = {name: [value] for name, value in query.items()}
    if body is None:
        event["body"], event["isBase64Encoded"] = None, False
    event["pathParameters"] = parameters
    for name, value in headers.items():
        event["headers"][name] = value
        event["multiValueHeaders"][name] = [value]
    if behind:
        # A REST Lambda authorizer's context sits straight in requestContext.authorizer.
        event["requestContext"]["authorizer"] = {"principalId": USER, "sub": USER, "iss": ISSUER, "userId": USER}
    return event


def v2(method, path, body, headers, behind):
    path, query = split(path)
    concrete, parameters = route(path)
    event = sam("http-api-proxy", "--method", method, "--path", concrete.lstrip("/"), *body_args(body))
    if query:
        event["rawQueryString"] = "&".join(f"{name}={value}" for name, value in query.items())
        event["queryStringParameters"] = query
    if body is None:
        event["body"], event["isBase64Encoded"] = None, False
    event["routeKey"] = event["requestContext"]["routeKey"] = f"{method} {path}"
    event["pathParameters"] = parameters
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
