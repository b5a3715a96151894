"""Links a Google identity to a signed-in user through the provider's pages (`link_identity`,
supabase-swift's `linkIdentity`) with Supabase's own Python client (`supabase_auth`, PKCE flow),
as an app would, and prints what it saw as one JSON object.

Usage: supabase_link.py BASE_URL APIKEY GATEHOUSE_BINARY

The users sign in by a texted code (read from the local outbox). The provider (the test's OIDC
provider) signs one Google person in at once; a "browser" is httpx with a cookie jar, each
redirect read, not followed. SupabaseClientTests checks the printed values.
"""

import json
import subprocess
import sys
import time
from urllib.parse import parse_qs, urlparse

import httpx
import supabase_support
from supabase_support import refusal

base, apikey, gatehouse = sys.argv[1:4]
seen = {}


def client(flow="pkce"):
    return supabase_support.client(base, apikey, flow)


def signed_in(number):
    """A client signed in just now by the code texted to `number`."""
    holder = client()
    holder.sign_in_with_otp({"phone": number})
    deadline = time.monotonic() + 10
    while True:
        run = subprocess.run([gatehouse, "outbox", "--json", "--to", number], check=True, capture_output=True, text=True)
        if run.stdout.strip() or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    code = json.loads(run.stdout.splitlines()[-1])["secret"]
    holder.verify_otp({"phone": number, "token": code, "type": "sms"})
    return holder


def browse(url):
    """A browser's GETs from `url` through the provider and back: each status, the last location."""
    statuses = []
    with httpx.Client(follow_redirects=False) as browser:
        for _ in range(3):
            answer = browser.get(url)
            statuses.append(answer.status_code)
            url = answer.headers.get("location")
            if answer.status_code not in (302, 303) or not url or "/welcome" in url:
                break
    return statuses, url


def code_of(location):
    return parse_qs(urlparse(location).query).get("code", [None])[0]


def providers(holder):
    return sorted(identity.provider for identity in holder.get_user().user.identities or [])


# A link URL asked for by one user (the attacker) and opened by someone else's browser: the
# provider's sign-in there ends in a code the attacker's client never sees, and the victim's
# client cannot exchange it (another verifier). Nothing is linked.
attacker = signed_in("+14155590150")
bait = attacker.link_identity({"provider": "google", "options": {"redirect_to": f"{base}/welcome"}}).url
_, landed = browse(bait)
victim = client()
victim._storage.set_item(f"{victim._storage_key}-code-verifier", "v" * 43)
seen["csrf"] = {
    "exchange": refusal(lambda: victim.exchange_code_for_session({"auth_code": code_of(landed)})),
    "attackerIdentities": providers(attacker),
}

# linkIdentity: {url} for the signed-in user; the browser through the provider back to
# redirect_to?code=; the code's exchange links Google to the same user and answers its session.
owner = signed_in("+14155590151")
owner_id = owner.get_user().user.id
answer = owner.link_identity({"provider": "google", "options": {"redirect_to": f"{base}/welcome"}})
statuses, location = browse(answer.url)
linked = owner.exchange_code_for_session({"auth_code": code_of(location)})
seen["linked"] = {
    "url": urlparse(answer.url).path, "statuses": statuses, "to": location.split("?")[0],
    "sameUser": linked.user.id == owner_id, "identities": providers(owner),
    "amr": supabase_support.amr(linked.session.access_token),
    "handleAgain": httpx.get(answer.url).status_code,
}
# Signing in with Google now finds that user.
web = client()
_, back = browse(web.sign_in_with_oauth({"provider": "google", "options": {"redirect_to": f"{base}/welcome"}}).url)
seen["signInAfter"] = web.exchange_code_for_session({"auth_code": code_of(back)}).user.id == owner_id

# Another user linking the same Google identity: its exchange is refused, nothing changes.
other = signed_in("+14155590152")
_, taken = browse(other.link_identity({"provider": "google", "options": {"redirect_to": f"{base}/welcome"}}).url)
seen["taken"] = {
    "exchange": refusal(lambda: other.exchange_code_for_session({"auth_code": code_of(taken)})),
    "identities": providers(other),
}

# Refused before anything is stored: the implicit flow, another site's redirect_to, an unknown
# provider, no session.
implicit = client("implicit")
implicit.set_session(owner.get_session().access_token, owner.get_session().refresh_token)
seen["refused"] = {
    "implicit": refusal(lambda: implicit.link_identity({"provider": "google"})),
    "foreignRedirect": refusal(
        lambda: owner.link_identity({"provider": "google", "options": {"redirect_to": "https://evil.example/"}})),
    "unknownProvider": refusal(lambda: owner.link_identity({"provider": "github"})),
    "noSession": httpx.get(
        f"{base}/auth/v1/user/identities/authorize", params={"provider": "google", "skip_http_redirect": "true"},
        headers={"apikey": apikey}).status_code,
    "unknownLink": httpx.get(f"{base}/auth/v1/authorize", params={"link": "x" * 43}).status_code,
}
print(json.dumps(seen))
