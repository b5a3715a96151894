"""Calls what is off in Gatehouse with Supabase's own Python auth client (`supabase_auth`):
single sign-on (`sign_in_with_sso`, by domain and by provider id) and the admin API's OAuth
clients (`admin.oauth`, Supabase's OAuth 2.1 server), and prints each refusal's code and status
as one JSON object.

Usage: supabase_off.py BASE_URL APIKEY

SupabaseClientTests checks the printed values: each is Supabase's own error for that feature
being disabled, never the gateway's bare 404.
"""

import json
import sys

import supabase_support
from supabase_auth.types import CreateOAuthClientParams, UpdateOAuthClientParams
from supabase_support import refusal

base, apikey = sys.argv[1:3]
client_id = "9a8b7c6d-0000-4000-8000-000000000001"
app = supabase_support.client(base, apikey, "pkce")
oauth = app.admin.oauth
seen = {
    "ssoByDomain": refusal(lambda: app.sign_in_with_sso({"domain": "example.com"})),
    "ssoByProvider": refusal(
        lambda: app.sign_in_with_sso({"provider_id": "21648a9d-8d5a-4555-a9d1-d6375dc14e92"})),
    "listClients": refusal(lambda: oauth.list_clients()),
    "createClient": refusal(
        lambda: oauth.create_client(
            CreateOAuthClientParams(client_name="Other app", redirect_uris=["https://other.example/cb"]))),
    "getClient": refusal(lambda: oauth.get_client(client_id)),
    "updateClient": refusal(lambda: oauth.update_client(client_id, UpdateOAuthClientParams(client_name="Renamed"))),
    "deleteClient": refusal(lambda: oauth.delete_client(client_id)),
    "regenerateSecret": refusal(lambda: oauth.regenerate_client_secret(client_id)),
}
print(json.dumps(seen))
