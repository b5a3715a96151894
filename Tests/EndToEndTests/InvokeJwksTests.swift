import Foundation
import GatehouseJSON
import LambdaRuntime
import Testing

/// `gatehouse invoke Jwks` as a real process, exactly as the README shows it.
struct InvokeJwksTests {
    @Test func jwksPublishesThePublicKeysAndNothingPrivate() async throws {
        let cli = GatehouseCLI()
        let run = try await cli.run(["invoke", "Jwks", "--event", "events/jwks.json", "--no-build"])
        #expect(run.status == 0, "stderr: \(run.stderr)")

        let response = try run.json()
        #expect(response["statusCode"] == 200)
        #expect(response["headers"]?["content-type"] == "application/json")
        #expect(response["headers"]?["cache-control"] == "public, max-age=600")
        let body = try #require(response["body"]?.stringValue)
        let jwks = try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))
        let keys = try #require(jwks["keys"]?.arrayValue)
        #expect(keys.count == 1)
        for key in keys {
            let members = try #require(key.objectValue)
            #expect(members["kty"] == "RSA")
            #expect(members["alg"] == "RS256")
            #expect(members["use"] == "sig")
            #expect(members["n"]?.stringValue?.isEmpty == false)
            #expect(members["e"] == "AQAB")
            for secret in ["d", "p", "q", "dp", "dq", "qi"] {
                #expect(members[secret] == nil, "the private member \(secret) must never be published")
            }
        }

        // The kid is the one in the key file the CLI created on first use, and it is published.
        let keyFile = try JSONDecoder().decode(
            JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: cli.keysFile)))
        #expect(keys[0]["kid"] == keyFile["keys"]?.arrayValue?.first?["kid"])
        #expect(keyFile["keys"]?.arrayValue?.first?["d"] != nil)
        #expect(run.stderr.contains("Created signing keys at \(cli.keysFile)"))
        #expect(
            !run.stderr.contains(keyFile["keys"]!.arrayValue![0]["d"]!.stringValue!),
            "no private key material in the output")
    }

    @Test func stderrCarriesStartEndAndARealReport() async throws {
        let run = try await GatehouseCLI().run(["invoke", "Jwks", "--event", "events/jwks.json", "--no-build"])
        #expect(run.status == 0)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("START RequestId: ") })
        let end = try #require(lines.firstIndex { $0.hasPrefix("END RequestId: ") })
        let report = try #require(lines.firstIndex { $0.hasPrefix("REPORT RequestId: ") })
        #expect(start < end && end < report)
        let fields = try #require(run.report)
        #expect(fields["Memory Size"] == "128 MB")
        let used = try #require(fields["Max Memory Used"].flatMap { Int($0.replacingOccurrences(of: " MB", with: "")) })
        #expect(used > 1 && used < 128, "the child's peak RSS, measured by wait4")
        #expect(fields["Init Duration"] != nil)
        #expect(fields["Billed Duration"]?.hasSuffix(" ms") == true)
    }

    @Test func rotationPublishesBothKeysUntilTheOldOneIsRetired() async throws {
        let cli = GatehouseCLI()
        let first = try await cli.run(["keys", "generate"])
        #expect(first.status == 0)
        let oldKid = first.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await cli.run(["keys", "generate"]).status == 2, "generate refuses to replace existing keys")
        let rotated = try await cli.run(["keys", "rotate"])
        let newKid = rotated.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(newKid != oldKid)

        func publishedKids() async throws -> [String] {
            let run = try await cli.run(["invoke", "Jwks", "--no-build"])
            let body = try #require(try run.json()["body"]?.stringValue)
            let jwks = try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))
            return try #require(jwks["keys"]?.arrayValue).compactMap { $0["kid"]?.stringValue }
        }
        #expect(try await publishedKids() == [newKid, oldKid])
        let list = try await cli.run(["keys", "list"])
        #expect(list.stdoutText.contains("\(newKid)  RS256  2048  current"))
        #expect(list.stdoutText.contains("\(oldKid)  RS256  2048  previous"))
        let retireCurrent = try await cli.run(["keys", "retire", newKid])
        #expect(retireCurrent.status == 2, "the current key cannot be retired: \(retireCurrent.stderr)")
        #expect(try await cli.run(["keys", "retire", oldKid]).status == 0)
        #expect(try await publishedKids() == [newKid])
    }
}
