import GatehouseJSON
import JOSE
import Testing
import WebAuthn
import WebAuthnTesting

/// A credential in `PublicKeyCredential.toJSON()`'s shape, as browsers and supabase-swift send
/// it: read, then verified; and every malformed shape refused by name.
struct CredentialResponseTests {
    static let challenge = "q2mLzQy7o3mNf0l2b4ZtLw"

    static func json(
        id: [UInt8], response: [String: JSONValue], rawId: [UInt8]? = nil, type: JSONValue = "public-key"
    ) -> JSONValue {
        [
            "id": .string(Base64URL.encode(id)), "rawId": .string(Base64URL.encode(rawId ?? id)), "type": type,
            "response": .object(response), "clientExtensionResults": [:], "authenticatorAttachment": "platform",
        ]
    }

    @Test func aBrowsersJSONRegistersAndSignsIn() throws {
        let authenticator = SoftwareAuthenticator()
        let (client, attestation) = try authenticator.register(challenge: Self.challenge)
        let registration = try CredentialResponse.registration(
            Self.json(
                id: authenticator.credentialID,
                response: [
                    "clientDataJSON": .string(Base64URL.encode(client)),
                    "attestationObject": .string(Base64URL.encode(attestation)), "transports": ["internal", "hybrid"],
                ]))
        #expect(registration.id == authenticator.credentialID && registration.userHandle == nil)
        let registered = try RelyingPartyTests.party.verifyRegistration(
            clientDataJSON: registration.clientDataJSON,
            attestationObject: try #require(registration.attestationObject),
            challenge: Self.challenge)
        #expect(registered.credential.id == registration.id)

        let asserted = try authenticator.assert(challenge: Self.challenge)
        let assertion = try CredentialResponse.assertion(
            Self.json(
                id: authenticator.credentialID,
                response: [
                    "clientDataJSON": .string(Base64URL.encode(asserted.clientData)),
                    "authenticatorData": .string(Base64URL.encode(asserted.authenticatorData)),
                    "signature": .string(Base64URL.encode(asserted.signature)),
                    "userHandle": .string(Base64URL.encode([1, 2, 3, 4])),
                ]))
        #expect(assertion.userHandle == [1, 2, 3, 4])
        let result = try RelyingPartyTests.party.verifyAssertion(
            clientDataJSON: assertion.clientDataJSON, authenticatorData: try #require(assertion.authenticatorData),
            signature: try #require(assertion.signature), challenge: Self.challenge,
            publicKey: registered.credential.publicKey, storedCount: 0)
        #expect(result.signCount == 0)
    }

    @Test func malformedCredentialsAreRefusedByName() {
        let id = [UInt8](repeating: 7, count: 32)
        let response: [String: JSONValue] = ["clientDataJSON": "e30", "attestationObject": "oA"]
        func refusal(_ json: JSONValue) -> WebAuthnError? {
            do {
                _ = try CredentialResponse.registration(json)
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal(Self.json(id: id, response: response)) == nil)
        #expect(
            refusal(Self.json(id: id, response: response, rawId: [UInt8](repeating: 8, count: 32)))
                == .malformed("id and rawId differ"))
        #expect(
            refusal(Self.json(id: id, response: response, type: "password"))
                == .malformed("the credential's type is not public-key"))
        #expect(
            refusal(Self.json(id: [1, 2, 3], response: response)) == .malformed("a credential id is 16 to 1023 bytes"))
        #expect(refusal(["id": "AAAA", "type": "public-key"]) == .malformed("the credential has no response object"))
        #expect(
            refusal(Self.json(id: id, response: ["clientDataJSON": "not base64url!", "attestationObject": "oA"]))
                == .malformed("clientDataJSON is not base64url"))
        #expect(
            refusal(Self.json(id: id, response: ["clientDataJSON": "e30"]))
                == .malformed("attestationObject is missing or not a string"))
        let long = JSONValue.string(String(repeating: "A", count: CredentialResponse.maximumMemberLength + 4))
        #expect(
            refusal(Self.json(id: id, response: ["clientDataJSON": long, "attestationObject": "oA"]))
                == .malformed("clientDataJSON is too long"))
    }
}
