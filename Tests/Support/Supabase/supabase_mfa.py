"""Drives a TOTP second factor through Gatehouse's Supabase-compatible routes with Supabase's own
Python client (`supabase_auth`, `auth.mfa`), codes made by a real TOTP generator (`pyotp`), and
prints what it saw as one JSON object. It never prints a secret or a code.

Usage: supabase_mfa.py BASE_URL APIKEY GATEHOUSE_BINARY

The user signs in by a texted code read from the local outbox (`gatehouse outbox --json --to
NUMBER`), which goes out just after the answer, so it is waited for. SupabaseClientTests checks
the printed values.
"""

import json
import sys
import time

import pyotp
import supabase_support
from supabase_support import amr, refusal

base, apikey, gatehouse = sys.argv[1:4]
seen = {}
number = "+14155550190"


def texts(at_least):
    """The codes texted to `number`, oldest first, once there are `at_least`."""
    return supabase_support.texted(gatehouse, number, at_least)


def signed_in(count):
    """A client holding a new session of `number`'s user, signed in by its `count`-th texted code."""
    client = supabase_support.client(base, apikey, "pkce")
    client.sign_in_with_otp({"phone": number})
    client.verify_otp({"phone": number, "token": texts(count)[-1], "type": "sms"})
    return client


def level(client):
    answer = client.mfa.get_authenticator_assurance_level()
    return [answer.current_level, answer.next_level]


def factors(client):
    listed = client.mfa.list_factors()
    return {"all": [factor.status for factor in listed.all], "totp": len(listed.totp)}


app = signed_in(1)
seen["before"] = level(app)
enrolled = app.mfa.enroll({"factor_type": "totp", "friendly_name": "phone app", "issuer": "Gatehouse"})
totp = pyotp.TOTP(enrolled.totp.secret)
seen["enrolled"] = {
    "type": enrolled.type, "name": enrolled.friendly_name,
    "uri": enrolled.totp.uri.startswith("otpauth://totp/Gatehouse:%2B14155550190?"),
    "sameSecret": pyotp.parse_uri(enrolled.totp.uri).secret == enrolled.totp.secret,
    "qr": enrolled.totp.qr_code.startswith("data:image/svg+xml;utf-8,<svg"),
}
seen["webauthnFactor"] = refusal(lambda: app.mfa.enroll({"factor_type": "webauthn"}))
# Phone factors are off unless the template turns them on (PhoneFactors=enabled).
seen["phoneFactor"] = refusal(lambda: app.mfa.enroll({"factor_type": "phone", "phone": "+14155550191"}))
seen["listedUnverified"] = factors(app)

challenge = app.mfa.challenge({"factor_id": enrolled.id})
seen["challenge"] = {"fiveMinutes": 295 <= challenge.expires_at - time.time() <= 300}
now = totp.now()
wrong = "000000" if now != "000000" else "111111"
seen["wrongCode"] = refusal(
    lambda: app.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id, "code": wrong}))
# Another session of the same user cannot verify this session's challenge.
other = signed_in(2)
seen["otherSession"] = supabase_support.verify_as(base, apikey, other, enrolled.id, challenge.id, now)
first_session = app.get_session()
verified = app.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id, "code": now})
session = app.get_session()
seen["verified"] = {
    "level": level(app), "amr": amr(session.access_token),
    "newTokens": session.refresh_token != first_session.refresh_token,
    "sameSession": supabase_support.claims(session.access_token)["session_id"]
    == supabase_support.claims(first_session.access_token)["session_id"],
    "userFactors": [factor.status for factor in verified.user.factors or []],
}
seen["replay"] = refusal(lambda: app.mfa.challenge_and_verify({"factor_id": enrolled.id, "code": now}))
# The next step's code (a clock a step ahead: within the skew) is newer, and works once.
ahead = totp.at(time.time() + 30)
app.mfa.challenge_and_verify({"factor_id": enrolled.id, "code": ahead})
seen["listedVerified"] = factors(app)
refreshed = app.refresh_session()
seen["refreshed"] = {"aal": supabase_support.claims(refreshed.session.access_token)["aal"]}
# The user's other session, which never proved the factor, has ended (as Supabase ends them).
seen["otherSession"].append(refusal(lambda: other.get_user(other.get_session().access_token)))
# A new sign-in is aal1 with aal2 next, and cannot remove the verified factor.
third = signed_in(3)
seen["newSignIn"] = level(third)
seen["unenrollFromAAL1"] = refusal(lambda: third.mfa.unenroll({"factor_id": enrolled.id}))
# Nor change the password or the number: those need the factor too (step-up).
seen["passwordFromAAL1"] = refusal(lambda: third.update_user({"password": "another horse battery"}))
seen["numberFromAAL1"] = refusal(lambda: third.update_user({"phone": "+14155550191"}))
seen["unenrolled"] = app.mfa.unenroll({"factor_id": enrolled.id}).id == enrolled.id
seen["listedAfter"] = factors(app)
seen["unknownFactor"] = refusal(lambda: app.mfa.challenge({"factor_id": enrolled.id}))
# One more, left unverified for the test to find in the store.
app.mfa.enroll({"factor_type": "totp", "friendly_name": "left unverified"})
print(json.dumps(seen))
