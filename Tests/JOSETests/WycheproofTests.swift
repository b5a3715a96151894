import GatehouseJSON
import Testing

@testable import JOSE

/// Every Wycheproof vector for the three algorithms, through the same code paths tokens take.
struct WycheproofTests {
    @Test(arguments: [
        "rsa_signature_2048_sha256_test", "ecdsa_secp256r1_sha256_p1363_test", "ed25519_test",
    ])
    func signatureVectors(file: String) throws {
        let document = try WycheproofVectors.load(file)
        var checked = 0
        for group in document["testGroups"]?.arrayValue ?? [] {
            let key = try VerificationKey(jwk: WycheproofVectors.publicJWK(of: group))
            for test in group["tests"]?.arrayValue ?? [] {
                let id = Int(test["tcId"]?.numberValue ?? -1)
                let verified = key.isValidSignature(
                    WycheproofVectors.hex(test["sig"]?.stringValue ?? ""),
                    for: WycheproofVectors.hex(test["msg"]?.stringValue ?? "")
                )
                // "acceptable" (a PKCS#1 encoding without the NULL parameter) is refused: the
                // strict reading is the one a verifier of tokens wants.
                let expected = test["result"]?.stringValue == "valid"
                #expect(verified == expected, "\(file) tcId \(id): \(test["comment"]?.stringValue ?? "")")
                checked += 1
            }
        }
        #expect(checked == Int(document["numberOfTests"]?.numberValue ?? 0))
    }

    /// Whole JWS objects and JWK sets. A `valid` vector verifies when its algorithm is one of
    /// ours; a valid HS*, RS384/512, PS*, ES512 vector is refused as not allowed or unsupported
    /// (by design, not by accident: the reason is checked). Every `invalid` one is refused. Only
    /// compact serialization is read, so the JSON-serialized vectors are refused as malformed.
    @Test(arguments: ["json_web_signature_test", "json_web_key_test"])
    func jwsAndKeySetVectors(file: String) throws {
        let document = try WycheproofVectors.load(file)
        var checked = 0
        var verifiedCount = 0
        for group in document["testGroups"]?.arrayValue ?? [] {
            let keys = try WycheproofVectors.keySet(of: group)
            let algorithm = WycheproofVectors.algorithm(of: group)
            let ours = algorithm.flatMap(JWSAlgorithm.init(rawValue:)) != nil
            for test in group["tests"]?.arrayValue ?? [] {
                let id = Int(test["tcId"]?.numberValue ?? -1)
                // A non-compact (JSON) serialization reaches the parser as its JSON text.
                let token = test["jws"]?.stringValue ?? test["jws"]?.serialized ?? ""
                let outcome = Result { () throws(JWTError) in
                    try CompactJWS(parsing: token).verifySignature(
                        allowing: Set(JWSAlgorithm.allCases), keys: keys
                    )
                }
                let label = "\(file) tcId \(id) (\(algorithm ?? "?")): \(test["comment"]?.stringValue ?? "")"
                switch (test["result"]?.stringValue, outcome) {
                case ("valid", .success) where ours:
                    verifiedCount += 1
                case ("valid", .failure(let error)) where !ours:
                    let byDesign: Bool
                    switch error {
                    case .algorithmNotAllowed, .unsupportedAlgorithm: byDesign = true
                    // Wycheproof counts a MAC over text with a stray "?" as valid, because the MAC
                    // covers the text as sent; strict base64url parsing refuses it first.
                    case .malformed(.base64url):
                        byDesign = test["comment"]?.stringValue?.hasPrefix("InvalidCharacterInserted") == true
                    default: byDesign = false
                    }
                    #expect(byDesign, "\(label): refused for \(error)")
                case (_, .failure):
                    #expect(test["result"]?.stringValue != "valid", "\(label) should verify")
                case (_, .success):
                    Issue.record("\(label) verified but is \(test["result"]?.stringValue ?? "?")")
                }
                checked += 1
            }
        }
        #expect(checked == Int(document["numberOfTests"]?.numberValue ?? 0))
        #expect(verifiedCount > 0)
    }
}
