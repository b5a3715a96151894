#!/usr/bin/env python3
"""Latency of supabase-swift's default sign-ins through start-api (release build), one request
at a time, each the first sign-in of a new person.

For each call, the median and p90 over N requests (20 by default: under the per-IP limits of
the sends, since every request here comes from 127.0.0.1), after one unmeasured request that
starts the function:
  - POST /auth/v1/token?grant_type=pkce      {auth_code, code_verifier}: the code a sign-up's
                                             confirmation link returned (the link's page and
                                             button are not timed)
  - POST /auth/v1/token?grant_type=id_token  {provider: apple, id_token, nonce}: a token of
                                             `gatehouse dev apple-token` (made, not timed)
  - POST /auth/v1/verify                     {type: sms, phone, token}: the code `/otp {phone}`
                                             texted to the local outbox (the send not timed)
  - POST /auth/v1/token?grant_type=password  {email, password}: the address the PKCE sign-up
                                             above confirmed, with its sign-up's password
  - POST /auth/v1/token?grant_type=password  {phone, password}: a number signed up with a
                                             password and confirmed by its texted code (the
                                             sign-up and the code not timed)
  - POST /auth/v1/factors/{id}/verify        {challenge_id, code}: a TOTP code (pyotp) for a
                                             factor just enrolled by a session signed in by a
                                             texted code (the sign-in, enrol and challenge not
                                             timed); the session raised to aal2
  - the same for a phone factor: its code texted at the challenge (the password sign-in of the
                                             `pkce` address, the enrol and the challenge not timed)
  - POST /auth/v1/passkeys/authentication/verify {challenge_id, credential}: a passkey sign-in
                                             (ES256, Benchmarks/passkey_authenticator.py) of the
                                             `pkce` address (its password sign-in, the passkey's
                                             registration and the options not timed)

    python3 Benchmarks/supabase.py [--requests 6] [--rounds 3] [--no-build]

6 requests by default: every request comes from 127.0.0.1, and a source may ask for 10 codes an
hour to the numbers of one range, and for 30 texts and sign-ups in 5 minutes; a round texts 4
times a request (and once more to start each function), so 6 is the most.

Each round starts a fresh start-api on a fresh store (a temporary folder).
"""

import base64
import hashlib
import html
import json
import re
import secrets
import time
from urllib.parse import parse_qs, urlencode, urljoin, urlparse

import pyotp
from local_api import gatehouse, last_delivery, request, run_rounds, start, stop, workspace
from passkey_authenticator import Authenticator


def api_key(environment):
    """The demo app's publishable key, the `apikey` header of every call."""
    apps = [json.loads(line) for line in gatehouse(environment, "apps", "list").splitlines()]
    return next(app["publishableKey"] for app in apps if app["id"] == "demo")


def call(port, key, path, body):
    headers = {"Content-Type": "application/json", "apikey": key}
    status, _, payload, elapsed = request(port, "POST", path, json.dumps(body), headers)
    assert status == 200, (path, status, payload[:200])
    return json.loads(payload or b"{}"), elapsed


def press(port, link):
    """A confirmation link's page, then its button: the code in the redirect."""
    path = link[link.index("/auth/"):]
    status, _, page, _ = request(port, "GET", path)
    assert status == 200, status
    text = page.decode()
    fields = {
        html.unescape(name): html.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', text)
    }
    action = urljoin(path, html.unescape(re.search(r'<form method="post" action="([^"]+)"', text).group(1)))
    status, headers, _, _ = request(
        port, "POST", action, urlencode(fields), {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 303, status
    location = dict((name.lower(), value) for name, value in headers)["location"]
    return parse_qs(urlparse(location).query)["code"][0]


def pkce(port, key, environment, index):
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    address = f"pkce{index}@example.com"
    call(port, key, "/auth/v1/signup", {
        "email": address, "password": "correct horse battery", "code_challenge": challenge,
        "code_challenge_method": "s256"})
    code = press(port, last_delivery(environment, address))
    answer, elapsed = call(
        port, key, "/auth/v1/token?grant_type=pkce", {"auth_code": code, "code_verifier": verifier})
    assert answer["access_token"].startswith("eyJ")
    return elapsed


def id_token(port, key, environment, index):
    nonce = secrets.token_urlsafe(16)
    token = gatehouse(
        environment, "dev", "apple-token", "--sub", f"001.bench{index}", "--email", f"apple{index}@example.com",
        f"--nonce={nonce}").strip()
    answer, elapsed = call(
        port, key, "/auth/v1/token?grant_type=id_token", {"provider": "apple", "id_token": token, "nonce": nonce})
    assert answer["access_token"].startswith("eyJ")
    return elapsed


def sms(port, key, environment, index):
    number = f"+1415555{index:04d}"
    call(port, key, "/auth/v1/otp", {"phone": number})
    code = last_delivery(environment, number)
    answer, elapsed = call(port, key, "/auth/v1/verify", {"type": "sms", "phone": number, "token": code})
    assert answer["access_token"].startswith("eyJ")
    return elapsed


def texted(environment, number):
    """The code texted to `number` after the answer (up to 5 s)."""
    deadline = time.monotonic() + 5
    while True:
        try:
            return last_delivery(environment, number)
        except IndexError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def email_password(port, key, environment, index):
    """The address `pkce` confirmed (its sign-up's own verifier kept the password)."""
    answer, elapsed = call(
        port, key, "/auth/v1/token?grant_type=password",
        {"email": f"pkce{index}@example.com", "password": "correct horse battery"})
    assert answer["access_token"].startswith("eyJ")
    return elapsed


def phone_password(port, key, environment, index):
    number = f"+1415666{index:04d}"
    call(port, key, "/auth/v1/signup", {"phone": number, "password": "correct horse battery"})
    code = texted(environment, number)
    call(port, key, "/auth/v1/verify", {"type": "sms", "phone": number, "token": code})
    answer, elapsed = call(
        port, key, "/auth/v1/token?grant_type=password", {"phone": number, "password": "correct horse battery"})
    assert answer["access_token"].startswith("eyJ")
    return elapsed


def bearer_post(port, key, token):
    """A POST with the app's key and `token` as the bearer: its answer (200 or it fails) and
    milliseconds."""
    headers = {"Content-Type": "application/json", "apikey": key, "Authorization": f"Bearer {token}"}

    def post(path, body):
        status, _, payload, elapsed = request(port, "POST", path, json.dumps(body), headers)
        assert status == 200, (status, payload)
        return json.loads(payload), elapsed

    return post


def mfa_verify(port, key, environment, index):
    number = f"+1415777{index:04d}"
    call(port, key, "/auth/v1/otp", {"phone": number})
    session, _ = call(
        port, key, "/auth/v1/verify", {"type": "sms", "phone": number, "token": last_delivery(environment, number)})
    post = bearer_post(port, key, session["access_token"])
    factor, _ = post("/auth/v1/factors", {"factor_type": "totp", "friendly_name": "bench"})
    challenge, _ = post(f"/auth/v1/factors/{factor['id']}/challenge", {})
    code = pyotp.TOTP(factor["totp"]["secret"]).now()
    answer, elapsed = post(
        f"/auth/v1/factors/{factor['id']}/verify", {"challenge_id": challenge["id"], "code": code})
    assert answer["access_token"].startswith("eyJ")
    return elapsed


def mfa_phone_verify(port, key, environment, index):
    """A phone factor's verify, for the address `pkce` confirmed (signed in by its password, so
    the only text is the challenge's)."""
    session, _ = call(
        port, key, "/auth/v1/token?grant_type=password",
        {"email": f"pkce{index}@example.com", "password": "correct horse battery"})
    post = bearer_post(port, key, session["access_token"])
    number = f"+1415888{index:04d}"
    factor, _ = post("/auth/v1/factors", {"factor_type": "phone", "phone": number})
    challenge, _ = post(f"/auth/v1/factors/{factor['id']}/challenge", {})
    answer, elapsed = post(
        f"/auth/v1/factors/{factor['id']}/verify", {"challenge_id": challenge["id"], "code": texted(environment, number)})
    assert answer["access_token"].startswith("eyJ")
    return elapsed


def passkey_verify(port, key, environment, index):
    """A passkey sign-in's verify (`signInWithPasskey`), for the address `pkce` confirmed: the
    password sign-in, the registration and the options not timed; the session at aal2."""
    session, _ = call(
        port, key, "/auth/v1/token?grant_type=password",
        {"email": f"pkce{index}@example.com", "password": "correct horse battery"})
    post = bearer_post(port, key, session["access_token"])
    authenticator = Authenticator(origin=f"http://127.0.0.1:{port}")
    begun, _ = post("/auth/v1/passkeys/registration/options", {})
    post("/auth/v1/passkeys/registration/verify",
         {"challenge_id": begun["challenge_id"], "credential": authenticator.register(begun["options"])})
    options, _ = call(port, key, "/auth/v1/passkeys/authentication/options", {})
    credential = authenticator.assert_(options["options"], session["user"]["id"])
    answer, elapsed = call(
        port, key, "/auth/v1/passkeys/authentication/verify",
        {"challenge_id": options["challenge_id"], "credential": credential})
    assert answer["access_token"].startswith("eyJ")
    return elapsed


def one_round(count):
    work, environment = workspace("gatehouse-supabase-")
    process, port = start(work, environment, extra=("--parameter-overrides", "PhoneFactors=enabled"))
    try:
        key = api_key(environment)
        flows = {
            "token?grant_type=pkce": pkce, "token?grant_type=id_token": id_token, "verify (sms)": sms,
            "password (email)": email_password, "password (phone)": phone_password,
            "factors/{id}/verify (totp)": mfa_verify,
            # Before the phone factor's: that one gives the `pkce` address a verified factor.
            "passkeys/authentication/verify": passkey_verify, "factors/{id}/verify (phone)": mfa_phone_verify,
        }
        times = {name: [] for name in flows}
        for index in range(count + 1):
            for name, flow in flows.items():
                elapsed = flow(port, key, environment, index)
                if index:
                    times[name].append(elapsed)
        return times
    finally:
        stop(process, work)


def main():
    run_rounds(one_round, default_requests=6)


if __name__ == "__main__":
    main()
