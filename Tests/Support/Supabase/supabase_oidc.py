"""Drives Gatehouse's Supabase-compatible routes for the OIDC provider with Supabase's own
Python auth client (`supabase_auth`) in the PKCE flow (`flow_type="pkce"`, supabase-swift's
default), and prints what it saw as one JSON object.

Usage: supabase_oidc.py BASE_URL APIKEY TOKENS_JSON

TOKENS_JSON names ID tokens the test's OIDC provider signed (as its SDK would give an app):
`grace` and `graceAgain` (nonce "n-0nce"), `wrongNonce` (made for "n-1"), `otherClient` (another audience),
`unverified` (another subject, grace's address unverified). Then signInWithOAuth: the URL the
client makes, followed by a browser (httpx with a cookie jar, redirects read one by one) to
the provider, which signs grace in at once, and back to redirect_to with `?code=`.
SupabaseClientTests checks the printed values.
"""

import json
import sys
import time
from urllib.parse import parse_qs, urlparse

import httpx

import supabase_support
from supabase_support import refusal

base, apikey, tokens = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
seen = {}


def client(flow="pkce"):
    return supabase_support.client(base, apikey, flow)


def identities(user):
    return [identity.provider for identity in user.identities or []]


# signInWithIdToken for the OIDC provider: the token checked as the OAuth callback checks the
# provider's, with the nonce; access_token is sent and ignored.
native = client()
started = time.monotonic()
signed = native.sign_in_with_id_token(
    {"provider": "google", "token": tokens["grace"], "nonce": "n-0nce", "access_token": "ya29.ignored"})
seen["idTokenMs"] = round((time.monotonic() - started) * 1000)
seen["google"] = {
    "hasSession": signed.session is not None, "email": signed.user.email, "identities": identities(signed.user),
    "user": native.get_user().user.id == signed.user.id,
}
grace = signed.user.id
# Again, warm, with a fresh token (a token signs in once).
started = time.monotonic()
client().sign_in_with_id_token({"provider": "google", "token": tokens["graceAgain"], "nonce": "n-0nce"})
seen["idTokenWarmMs"] = round((time.monotonic() - started) * 1000)
seen["replayed"] = refusal(
    lambda: client().sign_in_with_id_token({"provider": "google", "token": tokens["grace"], "nonce": "n-0nce"}))
seen["wrongNonce"] = refusal(
    lambda: client().sign_in_with_id_token({"provider": "google", "token": tokens["wrongNonce"], "nonce": "n-2"}))
seen["noNonce"] = refusal(
    lambda: client().sign_in_with_id_token({"provider": "google", "token": tokens["wrongNonce"]}))
seen["otherClient"] = refusal(
    lambda: client().sign_in_with_id_token({"provider": "google", "token": tokens["otherClient"], "nonce": "n-0nce"}))
seen["unknownProvider"] = refusal(
    lambda: client().sign_in_with_id_token({"provider": "myspace", "token": tokens["grace"], "nonce": "n-0nce"}))
# An address the provider does not vouch for never joins grace's account.
stranger = client().sign_in_with_id_token({"provider": "google", "token": tokens["unverified"], "nonce": "n-0nce"})
seen["unverified"] = {"sameUser": stranger.user.id == grace, "email": stranger.user.email}


def browse(url, hops, visited=None):
    """GETs `url` and the `hops` redirects after it in one browser: each status, the last location
    (each address it went to is added to `visited` when one is given)."""
    statuses = []
    with httpx.Client(follow_redirects=False) as browser:
        for _ in range(hops + 1):
            answer = browser.get(url)
            statuses.append(answer.status_code)
            url = answer.headers.get("location")
            if visited is not None and url:
                visited.append(url)
            if answer.status_code not in (302, 303):
                break
    return statuses, url


# signInWithOAuth: /authorize → the provider → /auth/callback → redirect_to?code= → pkce.
web = client()
started = time.monotonic()
oauth = web.sign_in_with_oauth({"provider": "google", "options": {"redirect_to": f"{base}/welcome"}})
statuses, location = browse(oauth.url, 2)
code = parse_qs(urlparse(location).query).get("code", [None])[0]
by_oauth = web.exchange_code_for_session({"auth_code": code})
seen["authorizeMs"] = round((time.monotonic() - started) * 1000)
seen["oauth"] = {
    "statuses": statuses, "to": location.split("?")[0], "hasCode": code is not None,
    "tokenInURL": "access_token" in location, "sameUser": by_oauth.user.id == grace,
    "identities": identities(by_oauth.user), "user": web.get_user().user.id == grace,
    "amr": supabase_support.amr(by_oauth.session.access_token),
}
# A second round, warm.
again = client()
started = time.monotonic()
_, warm = browse(again.sign_in_with_oauth({"provider": "google", "options": {"redirect_to": f"{base}/welcome"}}).url, 2)
again.exchange_code_for_session({"auth_code": parse_qs(urlparse(warm).query)["code"][0]})
seen["authorizeWarmMs"] = round((time.monotonic() - started) * 1000)
seen["oauthCodeAgain"] = refusal(
    lambda: client().exchange_code_for_session({"auth_code": code, "code_verifier": "a" * 43}))
# The provider's redirect back, replayed by a browser that did not start the flow: refused.
with httpx.Client(follow_redirects=False) as browser:
    at_provider = browser.get(browser.get(client().sign_in_with_oauth(
        {"provider": "google", "options": {"redirect_to": f"{base}/welcome"}}).url).headers["location"])
    callback = at_provider.headers["location"]
with httpx.Client(follow_redirects=False) as stranger_browser:
    seen["foreignCallback"] = stranger_browser.get(callback).status_code
# A foreign redirect_to, the implicit flow (no challenge), an unknown provider: refused before the provider.
seen["foreignRedirect"] = httpx.get(
    client().sign_in_with_oauth({"provider": "google", "options": {"redirect_to": "https://evil.example/"}}).url
).status_code
seen["mobileImplicit"] = httpx.get(
    client("implicit").sign_in_with_oauth({"provider": "google", "options": {"redirect_to": "gatehouse-demo://done"}}).url
).status_code

# The implicit flow (supabase-js's default): /authorize → the provider → /auth/callback →
# /auth/v1/implicit (the code redeemed with this browser's cookie) → redirect_to#access_token=….
implicit = client("implicit")
visited = []
statuses, location = browse(
    implicit.sign_in_with_oauth({"provider": "google", "options": {"redirect_to": f"{base}/welcome"}}).url, 3, visited)
fragment = parse_qs(urlparse(location).fragment)
seen["implicit"] = {
    "statuses": statuses, "to": location.split("#")[0], "returnPath": urlparse(visited[-2]).path,
    "codeOnlyToTheAPI": all("code=" not in address for address in visited if address.startswith(f"{base}/welcome")),
    "hasRefreshToken": "refresh_token" in fragment, "type": fragment.get("type"),
    "user": implicit.get_user(fragment["access_token"][0]).user.id == grace,
}
# Its return, replayed by a browser without the flow's cookie: no session, an error for the app.
with httpx.Client(follow_redirects=False) as stranger_browser:
    replay = stranger_browser.get(visited[-2])
# A return to no app, an app id no app can have, or an address not the app's web one: a 400
# page, nothing redeemed.
seen["implicitBadReturn"] = [
    httpx.get(f"{base}/auth/v1/implicit", params=params).status_code for params in [
        {"app": "", "redirect_to": f"{base}/welcome"}, {"app": "x" * 3000, "redirect_to": f"{base}/welcome"},
        {"app": "demo", "redirect_to": "https://evil.example/"}, {"app": "demo", "redirect_to": "gatehouse-demo://done"},
    ]]
seen["implicitReplay"] = {"status": replay.status_code, "fragment": urlparse(replay.headers.get("location", replay.text)).fragment}
seen["oauthUnknownProvider"] = httpx.get(client().sign_in_with_oauth({"provider": "github"}).url).status_code
print(json.dumps(seen))
