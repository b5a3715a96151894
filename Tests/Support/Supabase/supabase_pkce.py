"""Drives Gatehouse's Supabase-compatible routes with Supabase's own Python auth client
(`supabase_auth`) in the PKCE flow (`flow_type="pkce"`, supabase-swift's default), as an app
would, and prints what it saw as one JSON object.

Usage: supabase_pkce.py BASE_URL APIKEY GATEHOUSE_BINARY EMAIL

Each emailed link is used as a person does: its GET (a page, nothing used), then the page's
button (a POST), whose redirect is read, not followed. The emails come from the local outbox
(`gatehouse outbox --json --to ADDRESS`); the store is the environment's (GATEHOUSE_STORE).
SupabaseClientTests checks the printed values.
"""

import base64
import hashlib
import json
import subprocess
import sys
import time
from urllib.parse import parse_qs, urlparse

import httpx
import supabase_support
from supabase_support import press, refusal

base, apikey, gatehouse, email = sys.argv[1:5]
seen = {}


def client():
    return supabase_support.client(base, apikey, "pkce")


def verifier(of):
    """The verifier `of` keeps for its flow (the client stores it; recovery marks it)."""
    return of._storage.get_item(f"{of._storage_key}-code-verifier").partition("/")[0]


def gatehouse_run(*arguments):
    return subprocess.run([gatehouse, *arguments], check=True, capture_output=True, text=True).stdout


def link(address, path, at_least):
    """The newest link to `path` mailed to `address`, once there are `at_least` (a recovery's
    email goes out just after the answer): waits up to 10 s."""
    deadline = time.monotonic() + 10
    while True:
        found = [
            mail["secret"] for mail in supabase_support.outbox(gatehouse, address)
            if urlparse(mail["secret"]).path == path
        ]
        if len(found) >= at_least or time.monotonic() > deadline:
            return found[-1]
        time.sleep(0.05)


def code_of(location):
    return parse_qs(urlparse(location).query).get("code", [None])[0]


password = "correct horse battery"

# Sign-up: the link's button returns to redirect_to with ?code=, never a token.
app = client()
app.sign_up({"email": email, "password": password, "options": {"email_redirect_to": f"{base}/welcome"}})
status, location = press(link(email, "/auth/v1/verify", 1))
code = code_of(location)
seen["signupRedirect"] = {
    "status": status, "to": location.split("?")[0], "hasCode": code is not None,
    "tokenInURL": "access_token" in location or "refresh_token" in location,
}
kept = verifier(app)
confirmed = app.exchange_code_for_session({"auth_code": code})
seen["signupSession"] = {
    "hasSession": confirmed.session is not None, "email": confirmed.user.email,
    "confirmed": confirmed.user.email_confirmed_at is not None, "user": app.get_user().user.email,
}
# The access token verified locally from the keys at /auth/v1/.well-known/jwks.json.
seen["claims"] = app.get_claims()["claims"]["sub"] == confirmed.user.id
claims = app.get_claims()["claims"]
seen["claimShape"] = {
    "role": claims.get("role"), "is_anonymous": claims.get("is_anonymous"), "aal": claims.get("aal"),
    "email": claims.get("email"), "providers": claims.get("app_metadata", {}).get("providers"),
    "session_id": bool(claims.get("session_id")),
}
seen["usedCode"] = refusal(lambda: client().exchange_code_for_session({"auth_code": code, "code_verifier": kept}))
seen["codeInStore"] = code in gatehouse_run("db", "scan", "AuthCodes")
# The sign-up's own verifier ended the flow: the password chosen at sign-up signs in.
seen["samePassword"] = client().sign_in_with_password({"email": email, "password": password}).user.email

# /resend {type: "signup"}: the confirmation mailed again, sent as supabase-swift sends it, with
# the client's new challenge (the Python client's resend sends none). Its link's code and that
# challenge's verifier confirm the address and sign in, but nothing proves the resending client
# chose the password (someone else's sign-up would keep theirs), so it is dropped. An unknown
# address gets the same {} and no mail.
again = "resend.me@example.org"
client().sign_up({"email": again, "password": password})
resent_verifier = "r" * 43
resent_challenge = base64.urlsafe_b64encode(hashlib.sha256(resent_verifier.encode()).digest()).rstrip(b"=").decode()
answer = httpx.post(
    f"{base}/auth/v1/resend", headers={"apikey": apikey},
    json={"type": "signup", "email": again, "code_challenge": resent_challenge, "code_challenge_method": "s256"},
)
seen["resend"] = {"status": answer.status_code, "body": answer.json()}
_, location = press(link(again, "/auth/v1/verify", 2))
resent = client().exchange_code_for_session({"auth_code": code_of(location), "code_verifier": resent_verifier})
seen["resend"]["confirmed"] = resent.user.email
seen["resend"]["signIn"] = refusal(lambda: client().sign_in_with_password({"email": again, "password": password}))
seen["resend"]["unknown"] = refusal(lambda: client().resend({"type": "signup", "email": "nobody.there@example.org"}))
seen["resend"]["mailedUnknown"] = len(supabase_support.outbox(gatehouse, "nobody.there@example.org"))

# A sign-up whose link another browser pressed (not the signing-up client, which never exchanges
# the code): the address is confirmed, the sign-up's password is not the account's.
pressed_elsewhere = "pressed.elsewhere@example.org"
client().sign_up({"email": pressed_elsewhere, "password": password})
press(link(pressed_elsewhere, "/auth/v1/verify", 1))
seen["pressedElsewhere"] = refusal(
    lambda: client().sign_in_with_password({"email": pressed_elsewhere, "password": password}))

# Recovery: another verifier spends the code; a fresh recovery's code gives a session whose
# next PUT /user sets the password.
app.reset_password_for_email(email, {"redirect_to": f"{base}/reset"})
_, location = press(link(email, "/auth/v1/verify", 2))
stolen = code_of(location)
seen["recoveryRedirect"] = location.split("?")[0]
seen["otherVerifier"] = refusal(
    lambda: client().exchange_code_for_session({"auth_code": stolen, "code_verifier": "a" * 43})
)
seen["afterOtherVerifier"] = refusal(lambda: app.exchange_code_for_session({"auth_code": stolen}))
recovering = client()
recovering.reset_password_for_email(email, {"redirect_to": f"{base}/reset"})
_, location = press(link(email, "/auth/v1/verify", 3))
recovering.exchange_code_for_session({"auth_code": code_of(location)})
recovering.update_user({"password": "recovered passphrase 42"})
seen["recovered"] = client().sign_in_with_password(
    {"email": email, "password": "recovered passphrase 42"}).user.email == email

# A magic link (/otp): its click's code is bound to the challenge.
magic = client()
magic.sign_in_with_otp({"email": email})
_, location = press(link(email, "/auth/v1/verify", 4))
seen["magicLinkTo"] = location.split("?")[0]
seen["magicLink"] = magic.exchange_code_for_session({"auth_code": code_of(location)}).user.email

# shouldCreateUser false (`create_user`): an address without an account gets the same {} and no
# mail and no user; an account's address gets its link, whose click signs its user in. The mail
# goes out after the answer, so the unknown address's turn is over once the later request's
# mail is there.
nobody = "nobody.here@example.org"
seen["noNewUser"] = {
    "unknown": refusal(
        lambda: client().sign_in_with_otp({"email": nobody, "options": {"should_create_user": False}})),
}
existing = client()
existing.sign_in_with_otp({"email": email, "options": {"should_create_user": False}})
_, location = press(link(email, "/auth/v1/verify", 5))
seen["noNewUser"]["existing"] = existing.exchange_code_for_session({"auth_code": code_of(location)}).user.email
seen["noNewUser"]["mailed"] = len(supabase_support.outbox(gatehouse, nobody))
seen["noNewUser"]["created"] = nobody in gatehouse_run("db", "scan", "Users")

# An expired flow: the code's record moved 5 minutes into the past, as time would.
late = client()
late.sign_in_with_otp({"email": "late." + email})
_, location = press(link("late." + email, "/auth/v1/verify", 1))
key = hashlib.sha256(code_of(location).encode()).hexdigest()
record = json.loads(gatehouse_run("db", "get", "AuthCodes", key))
record["expiresAt"] = int(time.time() * 1000) - 1
gatehouse_run("db", "put", "AuthCodes", json.dumps(record))
seen["expired"] = refusal(lambda: late.exchange_code_for_session({"auth_code": code_of(location)}))
# Phone: the code texted by /otp {phone} (the outbox's secret), then /verify {type: "sms"}.
phone = "+14155550123"
texting = client()
texting.sign_in_with_otp({"phone": phone})
texted = json.loads(gatehouse_run("outbox", "--json", "--to", phone).splitlines()[-1])["secret"]
seen["wrongSMS"] = refusal(
    lambda: client().verify_otp({"phone": phone, "token": "%06d" % ((int(texted) + 1) % 1000000), "type": "sms"})
)
by_sms = texting.verify_otp({"phone": phone, "token": texted, "type": "sms"})
seen["sms"] = {
    "hasSession": by_sms.session is not None, "phone": by_sms.user.phone,
    "confirmed": by_sms.user.phone_confirmed_at is not None, "user": texting.get_user().user.phone,
    "providers": by_sms.user.app_metadata.get("providers"),
}
seen["replayedSMS"] = refusal(lambda: client().verify_otp({"phone": phone, "token": texted, "type": "sms"}))


def texts(number, at_least=0):
    """The texts the outbox holds for `number`, waiting up to 10 s for `at_least` (some go out
    after the answer)."""
    deadline = time.monotonic() + 10
    while True:
        found = gatehouse_run("outbox", "--json", "--to", number).splitlines()
        if len(found) >= at_least or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


# shouldCreateUser false by phone: an unknown number gets the same {} and no text and no user;
# the number's user (made above) is texted, after the answer, and signs in with it.
stranger_number = "+14155550177"
seen["phoneNoNewUser"] = {"unknown": refusal(
    lambda: client().sign_in_with_otp({"phone": stranger_number, "options": {"should_create_user": False}}))}
before = len(texts(phone))
known = client()
known.sign_in_with_otp({"phone": phone, "options": {"should_create_user": False}})
again_texted = json.loads(texts(phone, before + 1)[-1])["secret"]
seen["phoneNoNewUser"]["signedIn"] = known.verify_otp(
    {"phone": phone, "token": again_texted, "type": "sms"}).user.phone
seen["phoneNoNewUser"]["unknownTexted"] = len(texts(stranger_number))
seen["phoneNoNewUser"]["created"] = stranger_number in gatehouse_run("db", "scan", "UserIndex")

# Native Sign in with Apple (signInWithIdToken): a token of `gatehouse dev apple-token`, checked
# as /auth/verify-apple checks it, once.
def apple_token(nonce):
    return gatehouse_run(
        "dev", "apple-token", "--sub", "001.supabase", "--email", "apple.ada@example.com", "--nonce", nonce).strip()


native = client()
token = apple_token("n-0nce")
by_apple = native.sign_in_with_id_token({"provider": "apple", "token": token, "nonce": "n-0nce"})
seen["apple"] = {
    "hasSession": by_apple.session is not None, "email": by_apple.user.email,
    "identities": [identity.provider for identity in by_apple.user.identities or []],
    "user": native.get_user().user.id == by_apple.user.id,
}
seen["replayedAppleToken"] = refusal(
    lambda: client().sign_in_with_id_token({"provider": "apple", "token": token, "nonce": "n-0nce"}))
seen["wrongNonce"] = refusal(
    lambda: client().sign_in_with_id_token({"provider": "apple", "token": apple_token("n-1"), "nonce": "n-2"}))
seen["noNonce"] = refusal(lambda: client().sign_in_with_id_token({"provider": "apple", "token": apple_token("n-3")}))

# A new phone number in PUT /user waits for the code texted to it (supabase_phone.py follows it
# through); its own number changes nothing.
seen["phoneChange"] = texting.update_user({"phone": "+14155550199"}).user.phone
seen["ownPhone"] = texting.update_user({"phone": phone}).user.phone


def link(holder, token, nonce):
    """linkIdentityWithIdToken as supabase-swift sends it (the Python client has no method for it)."""
    return httpx.post(
        f"{base}/auth/v1/token?grant_type=id_token",
        headers={"apikey": apikey, "Authorization": f"Bearer {holder.get_session().access_token}"},
        json={"provider": "apple", "id_token": token, "nonce": nonce, "link_identity": True},
    )


# An identity another user has is refused and never moved, and its user is not signed in; a new
# one is linked to the bearer's user, who gets a new session.
users_before = gatehouse_run("db", "scan", "Users").count("\n")
taken = link(texting, apple_token("n-4"), "n-4")
seen["linkTaken"] = {
    "status": taken.status_code, "code": taken.json().get("error_code") or taken.json().get("code"),
    "session": "access_token" in taken.text,
    "newUsers": gatehouse_run("db", "scan", "Users").count("\n") - users_before,
    "appleUserKeepsIt": [i.provider for i in native.get_user().user.identities or []] == ["apple"],
}
linked = link(texting, gatehouse_run(
    "dev", "apple-token", "--sub", "001.linked", "--email", "linked.apple@example.com", "--nonce", "n-5").strip(), "n-5")
seen["linked"] = {
    "status": linked.status_code, "sameUser": linked.json()["user"]["id"] == texting.get_user().user.id,
    "identities": sorted(i["provider"] for i in linked.json()["user"]["identities"]),
    "session": "access_token" in linked.json(),
}
# unlinkIdentity: the Apple identity goes; the number is the user's own field (not built); the
# Apple user's only identity stays.
identities = {i.provider: i for i in texting.get_user_identities().identities}
texting.unlink_identity(identities["apple"])
seen["afterUnlink"] = sorted(i.provider for i in texting.get_user_identities().identities)
seen["unlinkPhone"] = refusal(lambda: texting.unlink_identity(identities["phone"]))
seen["unlinkAgain"] = refusal(lambda: texting.unlink_identity(identities["apple"]))
seen["unlinkLast"] = refusal(lambda: native.unlink_identity(native.get_user_identities().identities[0]))
web3 = httpx.post(
    f"{base}/auth/v1/token?grant_type=web3", headers={"apikey": apikey},
    json={"chain": "ethereum", "message": "m", "signature": "s"})
seen["off"] = {
    "anonymous": refusal(lambda: client().sign_in_anonymously()),
    "web3": {"status": web3.status_code, "code": web3.json().get("error_code") or web3.json().get("code")},
}
print(json.dumps(seen))
