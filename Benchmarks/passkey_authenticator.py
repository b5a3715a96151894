"""A passkey authenticator in software for the benchmarks (ES256, attestation `none`, user
present and verified, a synced passkey's zero counter): what a platform authenticator answers
`navigator.credentials.create()` and `.get()` with, in `PublicKeyCredential.toJSON()`'s shape.
cbor2 and cryptography come with py_webauthn (Tools/requirements.txt)."""

import base64
import hashlib
import json
import secrets

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

# user present, user verified, backup eligible, backed up
FLAGS = 0x01 | 0x04 | 0x08 | 0x10


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Authenticator:
    def __init__(self, origin, rp_id="localhost"):
        self.origin = origin
        self.rp_id = rp_id
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = secrets.token_bytes(32)

    def _client_data(self, kind, challenge):
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": self.origin, "crossOrigin": False},
            separators=(",", ":")).encode()

    def _authenticator_data(self, attested):
        flags = FLAGS | (0x40 if attested else 0)
        data = hashlib.sha256(self.rp_id.encode()).digest() + bytes([flags]) + (0).to_bytes(4, "big")
        if attested:
            numbers = self.key.public_key().public_numbers()
            cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
            data += bytes(16) + len(self.credential_id).to_bytes(2, "big") + self.credential_id + cose
        return data

    def _credential(self, response):
        identifier = b64url(self.credential_id)
        return {"id": identifier, "rawId": identifier, "type": "public-key", "response": response,
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def register(self, options):
        """The credential `navigator.credentials.create({publicKey: options})` makes."""
        client = self._client_data("webauthn.create", options["challenge"])
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": self._authenticator_data(True)})
        return self._credential({"clientDataJSON": b64url(client), "attestationObject": b64url(attestation),
                                 "transports": ["internal"]})

    def assert_(self, options, user_handle):
        """The assertion `navigator.credentials.get({publicKey: options})` makes for the user."""
        client = self._client_data("webauthn.get", options["challenge"])
        data = self._authenticator_data(False)
        signature = self.key.sign(data + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return self._credential({"clientDataJSON": b64url(client), "authenticatorData": b64url(data),
                                 "signature": b64url(signature), "userHandle": b64url(user_handle.encode())})
