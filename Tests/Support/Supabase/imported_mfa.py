"""Signs a user imported from Supabase with a TOTP factor in by a texted code, with Supabase's
own Python client (`supabase_auth`), and verifies the factor with the authenticator's code
(`pyotp`, from the secret Supabase had): the session reaches `aal2`. Prints what it saw as one
JSON object, never a code or a secret.

Usage: imported_mfa.py BASE_URL APIKEY GATEHOUSE_BINARY NUMBER FACTOR_ID SECRET (the fixture's)

SupabaseUserImportTests checks the printed values.
"""

import json
import sys

import pyotp
import supabase_support
from supabase_support import amr, refusal

base, apikey, gatehouse, number, factor_id, secret = sys.argv[1:7]
totp = pyotp.TOTP(secret)
seen = {}

app = supabase_support.client(base, apikey, "pkce")
app.sign_in_with_otp({"phone": number})
app.verify_otp({"phone": number, "token": supabase_support.texted(gatehouse, number, 1)[-1], "type": "sms"})
level = app.mfa.get_authenticator_assurance_level()
seen["signedIn"] = [level.current_level, level.next_level]
listed = app.mfa.list_factors()
seen["factors"] = [[factor.id == factor_id, factor.friendly_name, factor.status] for factor in listed.all]
code = totp.now()
app.mfa.challenge_and_verify({"factor_id": factor_id, "code": code})
level = app.mfa.get_authenticator_assurance_level()
seen["verified"] = [level.current_level, level.next_level]
seen["amr"] = amr(app.get_session().access_token)
seen["replay"] = refusal(lambda: app.mfa.challenge_and_verify({"factor_id": factor_id, "code": code}))
print(json.dumps(seen))
