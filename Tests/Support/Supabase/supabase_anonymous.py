"""Drives Gatehouse's anonymous users with Supabase's own Python auth client (`supabase_auth`):
`sign_in_anonymously`, the user and token it gets, and making it permanent by an address, and
prints what it saw as one JSON object.

Usage: supabase_anonymous.py BASE_URL APIKEY GATEHOUSE_BINARY

The API runs with the template's `AnonymousUsers` enabled. Emails come from the local outbox
(`gatehouse outbox --json --to ADDRESS`). SupabaseClientTests checks the printed values.
"""

import base64
import json
import sys
import time

import supabase_support
from supabase_support import refusal

base, apikey, gatehouse = sys.argv[1:4]
seen = {}


def claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


# Signed in anonymously: a session whose user and token say so.
app = supabase_support.client(base, apikey, "pkce")
answer = app.sign_in_anonymously({"options": {"data": {"theme": "dark"}}})
user = answer.user
token = claims(answer.session.access_token)
seen["user"] = {
    "isAnonymous": user.is_anonymous, "email": user.email, "metadata": user.user_metadata,
    "appMetadata": user.app_metadata, "identities": len(user.identities or []),
}
seen["token"] = {
    "isAnonymous": token["is_anonymous"], "role": token["role"], "amr": [entry["method"] for entry in token["amr"]],
}

# No password while anonymous, with an address or without: whoever confirms the address may be
# someone else. The address alone: its link makes the same user permanent.
seen["passwordAlone"] = refusal(lambda: app.update_user({"password": "correct horse battery"}))
seen["passwordWithAddress"] = refusal(
    lambda: app.update_user({"email": "anon@example.com", "password": "correct horse battery"}))
seen["addressAnswer"] = app.update_user({"email": "anon@example.com"}).user.is_anonymous
link = [mail["secret"] for mail in supabase_support.outbox(gatehouse, "anon@example.com")][-1]
token_hash = link.split("token=")[1].split("&")[0]
app.verify_otp({"token_hash": token_hash, "type": "email_change"})
after = app.refresh_session().user
seen["permanent"] = {
    "sameId": after.id == user.id, "isAnonymous": after.is_anonymous, "email": after.email,
    "metadata": after.user_metadata,
}
# Its anonymous session sets a password only with the nonce mailed to the confirmed address.
seen["passwordNow"] = refusal(lambda: app.update_user({"password": "correct horse battery"}))
app.reauthenticate()
nonce = supabase_support.outbox(gatehouse, "anon@example.com")[-1]["secret"]
app.update_user({"password": "correct horse battery", "nonce": nonce})
seen["passwordSignIn"] = supabase_support.client(base, apikey).sign_in_with_password(
    {"email": "anon@example.com", "password": "correct horse battery"}).user.id == user.id

# A number instead: the code texted to it (after the answer) makes another anonymous user
# permanent, with the same id.
other = supabase_support.client(base, apikey, "pkce")
anonymous = other.sign_in_anonymously().user
other.update_user({"phone": "+14155590160"})
deadline = time.monotonic() + 10
while not supabase_support.outbox(gatehouse, "+14155590160") and time.monotonic() < deadline:
    time.sleep(0.05)
texted = supabase_support.outbox(gatehouse, "+14155590160")[-1]["secret"]
moved = other.verify_otp({"phone": "+14155590160", "token": texted, "type": "phone_change"}).user
seen["permanentByPhone"] = {"sameId": moved.id == anonymous.id, "isAnonymous": moved.is_anonymous, "phone": moved.phone}
print(json.dumps(seen))
