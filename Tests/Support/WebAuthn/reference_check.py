"""Cross-checks Gatehouse's WebAuthn checks with the reference library, py_webauthn (`webauthn`).

Reads one JSON object on standard input: Gatehouse's ceremony options, and a registration and
an assertion made by the Swift tests' software authenticator (`clientDataJSON`, `attestationObject`, `authenticatorData`,
`signature`, base64url), the challenge (base64url), the origin and the RP ID. Verifies both with
py_webauthn, requiring user verification as Gatehouse does. Then makes a credential of its own
(a P-256 key from `cryptography`, encoded with `cbor2`, the origin an iPhone app's
`https://<rpId>`) for the Swift side to verify. Prints one JSON object; never a private key.

Usage: reference_check.py < input.json
"""

import base64
import hashlib
import json
import struct
import sys

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers import parse_authentication_options_json, parse_registration_options_json


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


given = json.load(sys.stdin)
challenge = unb64(given["challenge"])
seen = {}

registration = verify_registration_response(
    credential={
        "id": given["credentialId"], "rawId": given["credentialId"], "type": "public-key",
        "response": {
            "clientDataJSON": given["registration"]["clientDataJSON"],
            "attestationObject": given["registration"]["attestationObject"],
        },
    },
    expected_challenge=challenge, expected_rp_id=given["rpId"], expected_origin=given["origin"],
    require_user_verification=True)
seen["registration"] = {
    "credentialId": b64(registration.credential_id), "format": str(getattr(registration.fmt, "value", registration.fmt)),
    "backedUp": registration.credential_backed_up, "userVerified": registration.user_verified,
}
assertion = verify_authentication_response(
    credential={
        "id": given["credentialId"], "rawId": given["credentialId"], "type": "public-key",
        "response": {
            "clientDataJSON": given["assertion"]["clientDataJSON"],
            "authenticatorData": given["assertion"]["authenticatorData"],
            "signature": given["assertion"]["signature"],
        },
    },
    expected_challenge=challenge, expected_rp_id=given["rpId"], expected_origin=given["origin"],
    credential_public_key=registration.credential_public_key, credential_current_sign_count=0,
    require_user_verification=True)
seen["assertion"] = {"signCount": assertion.new_sign_count, "userVerified": assertion.user_verified}

# The options Gatehouse makes, read as py_webauthn reads a server's options JSON.
creation = parse_registration_options_json(given["creationOptions"])
request = parse_authentication_options_json(given["requestOptions"])
seen["options"] = {
    "rpId": creation.rp.id, "userId": b64(creation.user.id), "challenge": b64(creation.challenge),
    "algorithms": [alg.value for alg in [p.alg for p in creation.pub_key_cred_params]],
    "residentKey": creation.authenticator_selection.resident_key.value,
    "userVerification": creation.authenticator_selection.user_verification.value,
    "attestation": creation.attestation.value, "timeout": creation.timeout,
    "excluded": [b64(d.id) for d in creation.exclude_credentials],
    "request": {
        "rpId": request.rp_id, "challenge": b64(request.challenge), "allow": len(request.allow_credentials or []),
        "userVerification": request.user_verification.value,
    },
}

# A credential of py_webauthn's world for the Swift side: an iPhone app's origin is https://<rpId>.
key = ec.generate_private_key(ec.SECP256R1())
numbers = key.public_key().public_numbers()
cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
credential_id = hashlib.sha256(b"reference credential").digest()
rp_hash = hashlib.sha256(given["rpId"].encode()).digest()
origin = "https://" + given["rpId"]
flags = 0x01 | 0x04 | 0x08 | 0x10


def client_data(kind):
    return json.dumps({"type": kind, "challenge": given["challenge"], "origin": origin}).encode()


made = rp_hash + bytes([flags | 0x40]) + struct.pack(">I", 0) + bytes(16)
made += struct.pack(">H", len(credential_id)) + credential_id + cose
attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": made})
asserted = rp_hash + bytes([flags]) + struct.pack(">I", 1)
get = client_data("webauthn.get")
signature = key.sign(asserted + hashlib.sha256(get).digest(), ec.ECDSA(hashes.SHA256()))
seen["reference"] = {
    "origin": origin, "credentialId": b64(credential_id),
    "registration": {"clientDataJSON": b64(client_data("webauthn.create")), "attestationObject": b64(attestation)},
    "assertion": {"clientDataJSON": b64(get), "authenticatorData": b64(asserted), "signature": b64(signature)},
}
print(json.dumps(seen))
