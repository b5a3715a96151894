"""Drives Gatehouse's `/otp` and `/magiclink` email links that return to `redirect_to` with
Supabase's own Python auth client (`supabase_auth`): in the PKCE flow (`flow_type="pkce"`,
supabase-swift's default) and in the implicit one, and prints what it saw as one JSON object.

Usage: supabase_links.py BASE_URL APIKEY GATEHOUSE_BINARY

Each emailed link is used as a person does: its GET (a page, nothing used), then the page's
button (a POST), whose redirect is read, not followed. The emails come from the local outbox
(`gatehouse outbox --json --to ADDRESS`); the store is the environment's (GATEHOUSE_STORE).
SupabaseClientTests checks the printed values.
"""

import base64
import hashlib
import json
import sys
from urllib.parse import parse_qs, urlparse

import httpx

import supabase_support
from supabase_support import refusal

base, apikey, gatehouse = sys.argv[1:4]
seen = {"pageButtons": []}


def client(flow="pkce"):
    return supabase_support.client(base, apikey, flow)


def mails(address):
    return [mail["secret"] for mail in supabase_support.outbox(gatehouse, address)]


def press(url):
    return supabase_support.press(url, seen["pageButtons"])



welcome = f"{base}/welcome"

# PKCE: the link is Supabase's verify link; its button returns to redirect_to with ?code=.
pkce = client()
pkce.sign_in_with_otp({"email": "ada@example.com", "options": {"email_redirect_to": welcome}})
link = mails("ada@example.com")[-1]
status, location = press(link)
code = parse_qs(urlparse(location).query).get("code", [None])[0]
seen["pkceLink"] = {"path": urlparse(link).path, "type": parse_qs(urlparse(link).query)["type"][0]}
seen["pkceRedirect"] = {
    "status": status, "to": location.split("?")[0], "hasCode": code is not None,
    "tokenInURL": "access_token" in location,
}
seen["pkceSession"] = pkce.exchange_code_for_session({"auth_code": code}).user.email
seen["usedAgain"] = press(link)[1].split("#")[1]

# Implicit: the button returns to redirect_to with the session in the fragment.
implicit = client("implicit")
implicit.sign_in_with_otp({"email": "bob@example.com", "options": {"email_redirect_to": welcome + "/implicit"}})
status, location = press(mails("bob@example.com")[-1])
fragment = parse_qs(urlparse(location).fragment)
seen["implicitRedirect"] = {
    "status": status, "to": location.split("#")[0], "type": fragment.get("type", [None])[0],
    "hasRefreshToken": "refresh_token" in fragment,
}
seen["implicitUser"] = implicit.get_user(fragment["access_token"][0]).user.email

# A redirect_to that is not the app's: refused, nothing mailed.
seen["foreignRedirect"] = refusal(
    lambda: client().sign_in_with_otp(
        {"email": "eve@example.com", "options": {"email_redirect_to": "https://evil.example/welcome"}}))
seen["foreignMailed"] = len(mails("eve@example.com"))

# /magiclink (Supabase's older route): the same link; the same answer for a known address and
# an unknown one.
verifier = "v" * 50
challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
answers = []
for address in ["ada@example.com", "carol@example.com"]:
    answer = httpx.post(
        f"{base}/auth/v1/magiclink", params={"redirect_to": welcome}, headers={"apikey": apikey},
        json={"email": address, "code_challenge": challenge, "code_challenge_method": "s256", "data": {"plan": "pro"}})
    answers.append([answer.status_code, answer.text])
seen["magiclinkAnswers"] = answers
seen["magiclinkStatuses"] = [
    httpx.post(f"{base}/auth/v1/magiclink", headers={"apikey": apikey}, json={}).status_code,
    httpx.post(f"{base}/auth/v1/magiclink", headers={"apikey": apikey}, json={"phone": "+14155550123"}).status_code,
    httpx.post(f"{base}/auth/v1/magiclink", json={"email": "ada@example.com"}).status_code,
]
_, location = press(mails("carol@example.com")[-1])
code = parse_qs(urlparse(location).query)["code"][0]
carol = client().exchange_code_for_session({"auth_code": code, "code_verifier": verifier}).user
seen["magiclinkSession"] = {"email": carol.email, "metadata": carol.user_metadata}
# The /otp email's six-digit code (verifyOTP type "email"), in the PKCE flow as in supabase-swift:
# a wrong one refused, the right one a session, once; the link it came with is used with it.
coded = client()
coded.sign_in_with_otp({"email": "dora@example.com", "options": {"email_redirect_to": welcome}})
mailed = supabase_support.outbox(gatehouse, "dora@example.com")[-1]
code = mailed["text"].split("Or enter this code: ")[1][:6]
seen["otpWrongCode"] = refusal(
    lambda: client().verify_otp({"email": "dora@example.com", "token": "%06d" % ((int(code) + 1) % 1000000),
                                 "type": "email"}))
by_code = coded.verify_otp({"email": "dora@example.com", "token": code, "type": "email"})
seen["otpByCode"] = {
    "email": by_code.user.email, "hasSession": by_code.session is not None,
    "amr": supabase_support.amr(by_code.session.access_token),
}
seen["otpCodeAgain"] = refusal(
    lambda: client().verify_otp({"email": "dora@example.com", "token": code, "type": "email"}))
seen["otpLinkAfterCode"] = press(mailed["secret"])[1].split("#")[1]
print(json.dumps(seen))
