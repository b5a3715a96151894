"""Drives a phone second factor through Gatehouse's Supabase-compatible routes with Supabase's
own Python client (`supabase_auth`, `auth.mfa`: `enroll` with `factor_type: "phone"`,
`challenge`, `verify`, `list_factors`, `get_authenticator_assurance_level`, `unenroll`), each
code read from the local outbox as a person reads a text, and prints what it saw as one JSON
object. It never prints a code.

Usage: supabase_mfa_phone.py BASE_URL APIKEY GATEHOUSE_BINARY

The user signs in by a texted code too (to another number). Texts go out just after the
answer, so they are waited for (`supabase_support.texted`). SupabaseClientTests checks the
printed values.
"""

import json
import sys
import time

import supabase_support
from supabase_support import amr, refusal

base, apikey, gatehouse = sys.argv[1:4]
seen = {}
number = "+14155550180"
factor_number = "+14155550181"


def signed_in(count):
    """A client holding a new session of `number`'s user, signed in by its `count`-th texted code."""
    client = supabase_support.client(base, apikey, "pkce")
    client.sign_in_with_otp({"phone": number})
    client.verify_otp({"phone": number, "token": supabase_support.texted(gatehouse, number, count)[-1], "type": "sms"})
    return client


def factor_code(count):
    """The `count`-th code texted to the factor's number."""
    return supabase_support.texted(gatehouse, factor_number, count)[-1]


def level(client):
    answer = client.mfa.get_authenticator_assurance_level()
    return [answer.current_level, answer.next_level]


app = signed_in(1)
first = app.mfa.enroll({"factor_type": "phone", "phone": factor_number, "friendly_name": "my phone"})
# Enrolling the number again replaces the unverified factor of it.
enrolled = app.mfa.enroll({"factor_type": "phone", "phone": factor_number, "friendly_name": "my phone"})
seen["enrolled"] = {"type": enrolled.type, "name": enrolled.friendly_name, "phone": enrolled.phone,
                    "replaced": refusal(lambda: app.mfa.challenge({"factor_id": first.id}))}
seen["noNumber"] = refusal(lambda: app.mfa.enroll({"factor_type": "phone", "phone": ""}))
seen["badNumber"] = refusal(lambda: app.mfa.enroll({"factor_type": "phone", "phone": "555-0100"}))
seen["whatsapp"] = refusal(lambda: app.mfa.challenge({"factor_id": enrolled.id, "channel": "whatsapp"}))

challenge = app.mfa.challenge({"factor_id": enrolled.id, "channel": "sms"})
seen["challenge"] = {"type": challenge.factor_type, "fiveMinutes": 295 <= challenge.expires_at - time.time() <= 300}
code = factor_code(1)
wrong = "000000" if code != "000000" else "111111"
seen["wrongCode"] = refusal(lambda: app.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id, "code": wrong}))
# Another session of the same user cannot verify this session's challenge.
other = signed_in(2)
seen["otherSession"] = supabase_support.verify_as(base, apikey, other, enrolled.id, challenge.id, code)
verified = app.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id, "code": code})
session = app.get_session()
seen["verified"] = {
    "level": level(app), "amr": amr(session.access_token),
    "userFactors": [[factor.factor_type, factor.status, factor.phone] for factor in verified.user.factors or []],
}
seen["replay"] = refusal(lambda: app.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id, "code": code}))
seen["sameNumberAgain"] = refusal(lambda: app.mfa.enroll({"factor_type": "phone", "phone": factor_number}))
listed = app.mfa.list_factors()
seen["listed"] = {"all": [factor.status for factor in listed.all], "phone": len(listed.phone)}

# A new sign-in is aal1 with aal2 next, and steps up with the factor's texted code.
third = signed_in(3)
seen["newSignIn"] = level(third)
step = third.mfa.challenge({"factor_id": enrolled.id})
third.mfa.verify({"factor_id": enrolled.id, "challenge_id": step.id, "code": factor_code(2)})
seen["steppedUp"] = level(third)
# The phone sign-in's limit per number and source: a third text to the factor's number goes, a
# fourth (a challenge or a sign-in code) does not.
third.mfa.challenge({"factor_id": enrolled.id})
seen["fourthText"] = [
    refusal(lambda: third.mfa.challenge({"factor_id": enrolled.id})),
    refusal(lambda: supabase_support.client(base, apikey).sign_in_with_otp({"phone": factor_number})),
]
seen["texts"] = len(supabase_support.texted(gatehouse, factor_number, 3))
seen["unenrolled"] = third.mfa.unenroll({"factor_id": enrolled.id}).id == enrolled.id
third.refresh_session()
seen["after"] = {"level": level(third), "amr": amr(third.get_session().access_token)}
print(json.dumps(seen))
