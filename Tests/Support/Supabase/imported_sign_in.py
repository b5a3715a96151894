"""Signs users imported from Supabase in with Supabase's own Python auth client
(`supabase_auth`), as the app they came from would, and prints what it saw as one JSON object.

Usage: imported_sign_in.py BASE_URL APIKEY < pairs.json

stdin is a JSON array of [email, password]; the output has one entry per pair: the user's id,
phone, providers, identities' providers, app and user metadata, or the error's code.
SupabaseUserImportTests checks the printed values.
"""

import json
import sys

from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

base, apikey = sys.argv[1:3]
client = SyncGoTrueClient(
    url=f"{base}/auth/v1", headers={"apikey": apikey}, auto_refresh_token=False, persist_session=False
)
seen = []
for email, password in json.load(sys.stdin):
    try:
        answer = client.sign_in_with_password({"email": email, "password": password})
    except AuthApiError as error:
        seen.append({"email": email, "code": error.code})
        continue
    user = client.get_user(answer.session.access_token).user
    seen.append({
        "email": user.email,
        "id": user.id,
        "phone": user.phone,
        "providers": user.app_metadata.get("providers"),
        "appMetadata": {k: v for k, v in user.app_metadata.items() if k not in ("provider", "providers")},
        "userMetadata": user.user_metadata,
        "identities": sorted(identity.provider for identity in user.identities or []),
    })
print(json.dumps(seen))
