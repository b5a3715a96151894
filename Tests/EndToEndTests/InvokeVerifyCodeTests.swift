import Crypto
import Foundation
import GatehouseJSON
import JOSE
import Testing

/// An app's backend verifying a code server-to-server, through the real binaries: `gatehouse
/// apps add` with its public key, `gatehouse s2s sign --event`, `gatehouse invoke VerifyCode`.
struct InvokeVerifyCodeTests {
    let cli = GatehouseCLI()

    /// Registers `acme` with a fresh P-256 key; the private key's file.
    func registerApp() async throws -> String {
        try await cli.registerApp("acme")
    }

    func mint(app: String, codeChallenge: String? = nil) async throws -> String {
        let run = try await cli.run(
            ["dev", "auth-code", "--app", app, "--email", "ada@example.com", "--name", "Ada"]
                + (codeChallenge.map { ["--code-challenge", $0] } ?? []))
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `gatehouse s2s sign --event events/verify-code.json`: the sample event, signed.
    func signedEvent(body: String, key: String) async throws -> JSONValue {
        let run = try await cli.run([
            "s2s", "sign", "--app", "acme", "--key", key, "--body", body, "--event", "events/verify-code.json",
        ])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return try run.json()
    }

    func invoke(_ event: JSONValue) async throws -> (status: Int, body: JSONValue) {
        let run = try await cli.run(
            ["invoke", "VerifyCode", "--no-build", "--event", "-"], stdin: Data(event.serialized.utf8))
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let response = try run.json()
        let text = try #require(response["body"]?.stringValue)
        return (Int(response["statusCode"]?.numberValue ?? 0), try JSONValue(parsing: Array(text.utf8)))
    }

    func usedAssertions() async throws -> Int {
        try await cli.run(["db", "scan", "UsedAssertions"]).stdoutText.split(separator: "\n").count
    }

    @Test func aSignedCallVerifiesACodeOnceAndReplaysAreRefused() async throws {
        let key = try await registerApp()
        let code = try await mint(app: "acme")
        let body = #"{"app":"acme","code":"\#(code)"}"#
        let event = try await signedEvent(body: body, key: key)

        let verified = try await invoke(event)
        #expect(verified.status == 200)
        #expect(verified.body["email"] == "ada@example.com")
        #expect(verified.body["name"] == "Ada")
        #expect(verified.body["provider"] == "email")
        #expect(verified.body["isNewUser"] == true)
        #expect(verified.body["userId"]?.stringValue?.isEmpty == false)
        #expect(try await usedAssertions() == 1)
        // The backend's redemption is its user's sign-up in the audit log (written after the answer).
        let userID = try #require(verified.body["userId"]?.stringValue)
        #expect(
            try await eventuallyAwaiting(10) {
                let audit = try await cli.run(["audit", "--user", userID]).stdoutText
                return audit.contains(" sign_up success ") && audit.contains(" app=acme ")
            })

        let replayed = try await invoke(event)
        #expect(replayed.status == 401)
        #expect(replayed.body["error"] == "assertion_replayed")
        // A fresh assertion is let in, but the code was single use.
        let again = try await invoke(try await signedEvent(body: body, key: key))
        #expect(again.status == 401)
        #expect(again.body["error"] == "invalid_code")
    }

    /// A code bound to a PKCE challenge (a mobile app's callback, which another app on the phone
    /// may intercept) is redeemed by the backend only with its verifier, as `/auth/exchange`
    /// requires: without it, or with another, the code is refused and spent. Before, the backend
    /// route redeemed it without one.
    @Test func aBoundCodeNeedsItsVerifierAndARefusedOneIsSpent() async throws {
        let key = try await registerApp()
        let verifier = String(repeating: "v", count: 43)
        let challenge = Base64URL.encode(Array(SHA256.hash(data: Data(verifier.utf8))))
        for sent in [nil, String(repeating: "w", count: 43)] {
            let code = try await mint(app: "acme", codeChallenge: challenge)
            let body = #"{"app":"acme","code":"\#(code)""# + (sent.map { #","codeVerifier":"\#($0)"}"# } ?? "}")
            let refused = try await invoke(try await signedEvent(body: body, key: key))
            #expect(refused.status == 401, "verifier \(sent ?? "none")")
            #expect(refused.body["error"] == "invalid_code")
            let rightful = #"{"app":"acme","code":"\#(code)","codeVerifier":"\#(verifier)"}"#
            let afterwards = try await invoke(try await signedEvent(body: rightful, key: key))
            #expect(afterwards.status == 401, "the refused code was spent")
        }
        let code = try await mint(app: "acme", codeChallenge: challenge)
        let body = #"{"app":"acme","code":"\#(code)","codeVerifier":"\#(verifier)"}"#
        let verified = try await invoke(try await signedEvent(body: body, key: key))
        #expect(verified.status == 200)
        #expect(verified.body["email"] == "ada@example.com")
    }

    /// The headers mode prints what to send; the hash is the body's.
    @Test func signPrintsTheHeaders() async throws {
        let key = try await registerApp()
        let run = try await cli.run(["s2s", "sign", "--app", "acme", "--key", key, "--body", "{}"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdoutText.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("authorization: Bearer ey"))
        #expect(lines[1] == "x-amz-content-sha256: \(SHA256.hash(data: Data("{}".utf8)).hexDigits)")
        #expect(lines[2] == "content-type: application/json")
        let unreadable = try await cli.run(["s2s", "sign", "--app", "acme", "--key", "/nonexistent", "--body", "{}"])
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.contains("cannot read the private key file /nonexistent"))
    }

    /// Acme's backend naming the demo app's code: 403, and neither the code nor the
    /// assertion is spent.
    @Test func anAssertionActsOnlyForItsOwnApp() async throws {
        let key = try await registerApp()
        let code = try await mint(app: "demo")
        let refused = try await invoke(try await signedEvent(body: #"{"app":"demo","code":"\#(code)"}"#, key: key))
        #expect(refused.status == 403)
        #expect(refused.body["error"] == "wrong_app")
        #expect(try await usedAssertions() == 0)
        let exchanged = try await cli.run(
            ["invoke", "Exchange", "--no-build", "--event", "-"],
            stdin: try InvokeSessionTests.event("/auth/exchange", body: #"{"code":"\#(code)","app":"demo"}"#))
        #expect(try exchanged.json()["statusCode"] == 200)
    }

    @Test func aBodyChangedAfterSigningOrAnUnsignedCallIsRefused() async throws {
        let key = try await registerApp()
        let code = try await mint(app: "acme")
        guard case .object(var event) = try await signedEvent(body: #"{"app":"acme","code":"\#(code)"}"#, key: key)
        else { return }
        event["body"] = .string(#"{"app":"acme","code":"\#(code)x"}"#)
        let changed = try await invoke(.object(event))
        #expect(changed.status == 401)
        #expect(changed.body["error"] == "body_hash_mismatch")

        // The sample event as it is: its assertion is a placeholder.
        let sample = try JSONValue(
            parsing: Array(
                try Data(contentsOf: GatehouseCLI.repositoryRoot.appendingPathComponent("events/verify-code.json"))))
        let unsigned = try await invoke(sample)
        #expect(unsigned.status == 401)
        #expect(unsigned.body["error"] == "invalid_assertion")
        #expect(try await usedAssertions() == 0)
    }

    /// Bad bodies, correctly signed: a 400 naming the problem, and the assertion is not spent.
    @Test(arguments: [
        ("", "The request has no body; a JSON object is expected."),
        ("not json", "The body is not valid JSON."),
        (#"{"app":"acme"}"#, "code is required."),
        (#"{"app":1,"code":"x"}"#, "app must be a string."),
        (#"{"app":"acme","code":"\#(String(repeating: "x", count: 20_000))"}"#, "The body is larger than 16384 bytes."),
    ])
    func badBodiesAreA400(body: String, message: String) async throws {
        let key = try await registerApp()
        let answer = try await invoke(try await signedEvent(body: body, key: key))
        #expect(answer.status == 400)
        #expect(answer.body == ["error": "invalid_request", "message": .string(message)])
        #expect(try await usedAssertions() == 0)
    }
}

extension SHA256.Digest {
    var hexDigits: String { map { String(format: "%02x", $0) }.joined() }
}
