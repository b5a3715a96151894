import Foundation
import GatehouseJSON
import Testing
import WebAuthn
import WebAuthnTesting

/// Gatehouse's checks against the reference library, py_webauthn
/// (`Tests/Support/WebAuthn/reference_check.py`): the options Gatehouse makes are read there as
/// a server's; what the tests' software authenticator makes
/// verifies there too (so the positive cases here are WebAuthn's, not only ours), and a
/// credential py_webauthn's world makes, with an iPhone app's origin `https://<rpId>`, verifies
/// here.
struct ReferenceLibraryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func bytes(_ text: String?) throws -> [UInt8] {
        var padded = try #require(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(
            of: "_", with: "/")
        while padded.count % 4 != 0 { padded += "=" }
        return Array(try #require(Data(base64Encoded: padded)))
    }

    /// Runs the script with `input` on its standard input; what it printed.
    static func check(_ input: JSONValue) throws -> JSONValue {
        let venv = root.appendingPathComponent(".build/venv/bin/python3").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3",
            root.appendingPathComponent("Tests/Support/WebAuthn/reference_check.py").path,
        ]
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        (process.standardInput, process.standardOutput, process.standardError) = (stdin, stdout, stderr)
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.serialized.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(String(decoding: errors, as: UTF8.self))")
        return try JSONValue(parsing: Array(output))
    }

    @Test func theReferenceLibraryAndGatehouseAgree() throws {
        let challenge = Self.base64URL((0..<32).map { _ in UInt8.random(in: 0...255) })
        let authenticator = SoftwareAuthenticator()
        let (client, attestation) = try authenticator.register(challenge: challenge, format: "packed")
        let asserted = try authenticator.assert(challenge: challenge)
        let party = RelyingParty(id: "localhost", origins: [authenticator.origin])
        let creation = CeremonyOptions.creation(
            party: party, partyName: "Gatehouse", userHandle: [9, 9, 9, 9], userName: "ada@example.com",
            challenge: challenge, excluded: [authenticator.credentialID], timeout: 300)
        let request = CeremonyOptions.request(party: party, challenge: challenge, timeout: 300)
        let seen = try Self.check([
            "creationOptions": creation, "requestOptions": request,
            "challenge": .string(challenge), "origin": .string(authenticator.origin), "rpId": "localhost",
            "credentialId": .string(Self.base64URL(authenticator.credentialID)),
            "registration": [
                "clientDataJSON": .string(Self.base64URL(client)),
                "attestationObject": .string(Self.base64URL(attestation)),
            ],
            "assertion": [
                "clientDataJSON": .string(Self.base64URL(asserted.clientData)),
                "authenticatorData": .string(Self.base64URL(asserted.authenticatorData)),
                "signature": .string(Self.base64URL(asserted.signature)),
            ],
        ])
        #expect(
            seen["registration"] == [
                "credentialId": .string(Self.base64URL(authenticator.credentialID)), "format": "packed",
                "backedUp": true, "userVerified": true,
            ])
        #expect(seen["assertion"] == ["signCount": 0, "userVerified": true])
        // py_webauthn reads the options Gatehouse makes as a server's.
        #expect(
            seen["options"] == [
                "rpId": "localhost", "userId": .string(Self.base64URL([9, 9, 9, 9])), "challenge": .string(challenge),
                "algorithms": [-7, -8, -257], "residentKey": "required", "userVerification": "required",
                "attestation": "none", "timeout": 300_000,
                "excluded": [.string(Self.base64URL(authenticator.credentialID))],
                "request": [
                    "rpId": "localhost", "challenge": .string(challenge), "allow": 0, "userVerification": "required",
                ],
            ])

        // py_webauthn's world's credential, at an iPhone app's origin.
        let reference = try #require(seen["reference"])
        #expect(reference["origin"] == "https://localhost")
        let iPhone = RelyingParty(id: "localhost", origins: ["https://localhost"])
        let registration = try iPhone.verifyRegistration(
            clientDataJSON: try Self.bytes(reference["registration"]?["clientDataJSON"]?.stringValue),
            attestationObject: try Self.bytes(reference["registration"]?["attestationObject"]?.stringValue),
            challenge: challenge)
        #expect(Self.base64URL(registration.credential.id) == reference["credentialId"]?.stringValue)
        let assertion = try iPhone.verifyAssertion(
            clientDataJSON: try Self.bytes(reference["assertion"]?["clientDataJSON"]?.stringValue),
            authenticatorData: try Self.bytes(reference["assertion"]?["authenticatorData"]?.stringValue),
            signature: try Self.bytes(reference["assertion"]?["signature"]?.stringValue), challenge: challenge,
            publicKey: try COSEKey(bytes: registration.credential.publicKeyBytes), storedCount: 0)
        #expect(assertion.signCount == 1 && assertion.backedUp)
    }
}
