#!/usr/bin/env python3
"""Latency of the provider sign-in routes through start-api (release build), one request at a
time, against a small OIDC provider this script runs (RS256 id tokens, PKCE-checked codes):
  - GET  /auth?app=demo&provider=google   (the redirect to the provider, with the flow's cookies)
  - GET  /auth/callback                    (the code exchanged at the provider, the id token
                                            verified, a user created, an auth code minted)
  - POST /auth/verify-apple                (an Apple-shaped identity token from the same key)

    python3 Benchmarks/oauth.py [--requests 50] [--rounds 3] [--no-build]

Needs `cryptography` (pip). Each round starts a fresh start-api on a fresh store.
"""

import base64
import hashlib
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from local_api import request, run_rounds, start, stop, workspace

CLIENT_ID = "gatehouse-bench"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Provider:
    """The OIDC provider: its key, its JWKS, the codes a person signing in made it issue."""

    def __init__(self):
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        numbers = self.key.public_key().public_numbers()
        self.jwks = json.dumps({"keys": [{
            "kty": "RSA", "kid": "bench", "alg": "RS256", "use": "sig",
            "n": b64url(numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big")),
            "e": b64url(numbers.e.to_bytes(3, "big")),
        }]}).encode()
        self.codes = {}
        provider = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body are two writes: with Nagle on, the body waits for the client's
            # delayed ACK of the headers (40 ms here), which would be the provider's time.
            disable_nagle_algorithm = True

            def log_message(self, *args):
                pass

            def answer(self, status, body):
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                self.answer(200, provider.jwks)

            def do_POST(self):
                form = urllib.parse.parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
                grant = provider.codes.pop(form.get("code", [""])[0], None)
                verifier = form.get("code_verifier", [""])[0]
                if not grant or b64url(hashlib.sha256(verifier.encode()).digest()) != grant["challenge"]:
                    return self.answer(400, b'{"error":"invalid_grant"}')
                token = provider.token({"iss": provider.issuer, "aud": CLIENT_ID, "token_use": "id", **grant["claims"]})
                self.answer(200, json.dumps({"id_token": token, "token_type": "Bearer"}).encode())

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.issuer = f"http://127.0.0.1:{self.port}/bench-oidc"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def token(self, claims):
        now = int(time.time())
        payload = {"iat": now, "exp": now + 300, **claims}
        signing_input = b64url(json.dumps({"alg": "RS256", "kid": "bench"}).encode()) + "." + b64url(
            json.dumps(payload).encode())
        signature = self.key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
        return signing_input + "." + b64url(signature)


def one_round(provider, count):
    work, environment = workspace("gatehouse-oauth-")
    oidc = {
        "OIDC_AUTHORIZE_URL": f"http://127.0.0.1:{provider.port}/oauth2/authorize",
        "OIDC_TOKEN_URL": f"http://127.0.0.1:{provider.port}/oauth2/token",
        "OIDC_JWKS_URL": f"http://127.0.0.1:{provider.port}/jwks", "OIDC_ISSUER": provider.issuer,
        "OIDC_CLIENT_ID": CLIENT_ID,
    }
    env_vars = os.path.join(work, "env.json")
    with open(env_vars, "w") as file:
        json.dump({"Authorize": oidc, "OAuthCallback": oidc, "VerifyApple": {
            "APPLE_JWKS_URL": f"http://127.0.0.1:{provider.port}/jwks", "APPLE_CLIENT_IDS": "com.example.app"}}, file)
    process, port = start(work, environment, ["--env-vars", env_vars])
    try:
        times = {"/auth": [], "/auth/callback": [], "/auth/verify-apple": []}
        for index in range(count + 1):
            status, headers, _, elapsed = request(port, "GET", "/auth?app=demo&provider=google")
            assert status == 302, status
            if index: times["/auth"].append(elapsed)
            location = urllib.parse.urlparse(dict(headers)["location"])
            query = dict(urllib.parse.parse_qsl(location.query))
            cookies = "; ".join(value.split(";")[0] for name, value in headers if name.lower() == "set-cookie")
            code = f"code-{index}"
            provider.codes[code] = {"challenge": query["code_challenge"], "claims": {
                "sub": f"google-{index}", "email": f"person{index}@example.com", "email_verified": True}}
            status, _, _, elapsed = request(port, "GET", f"/auth/callback?code={code}&state={query['state']}",
                                            headers={"Cookie": cookies})
            assert status == 302, status
            if index: times["/auth/callback"].append(elapsed)
            token = provider.token({"iss": "https://appleid.apple.com", "aud": "com.example.app",
                                    "sub": f"apple-{index}", "email": f"apple{index}@example.com",
                                    "email_verified": "true"})
            body = json.dumps({"identityToken": token, "authorizationCode": "x", "user": f"apple-{index}",
                               "app": "demo"})
            status, _, _, elapsed = request(port, "POST", "/auth/verify-apple", body,
                                            {"Content-Type": "application/json"})
            assert status == 200, status
            if index: times["/auth/verify-apple"].append(elapsed)
        return times
    finally:
        stop(process, work)


def main():
    provider = Provider()
    run_rounds(lambda count: one_round(provider, count), default_requests=50)


if __name__ == "__main__":
    sys.exit(main())
