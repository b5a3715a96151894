import Foundation
import GatehouseJSON
import LambdaRuntime
import Testing

/// `--parameter-overrides`, as SAM CLI takes them: the local run uses the deploy's settings.
/// Every function's `STAGE` is the `Stage` parameter, so `Stage=prod` gives prod's lifetimes.
struct ParameterOverridesTests {
    let cli = GatehouseCLI()

    /// Exchanges a fresh code through `gatehouse invoke` with `overrides`: the refresh token's
    /// lifetime in seconds.
    func refreshLifetime(_ overrides: [String]) async throws -> Double {
        let mint = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", "ada@example.com"])
        let code = mint.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let event = try InvokeSAMEventTests.event("exchange", .v2, body: ["code": .string(code), "app": "demo"])
        let started = Date().timeIntervalSince1970
        let run = try await cli.run(
            ["invoke", "Exchange", "--no-build", "--event", "-"] + overrides, stdin: Data(event.serialized.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        let body = try JSONValue(parsing: Array(try #require(try run.json()["body"]?.stringValue).utf8))
        let expires = try #require(body["refreshTokenExpiresAt"]?.numberValue, "\(body)")
        return expires / 1000 - started
    }

    @Test func stageProdGivesEveryFunctionProdSettings() async throws {
        let dev = try await refreshLifetime([])
        let prod = try await refreshLifetime(["--parameter-overrides", "Stage=prod"])
        let keyed = try await refreshLifetime(["--parameter-overrides", "ParameterKey=Stage,ParameterValue=prod"])
        #expect(dev < 3700, "dev: an hour")
        #expect(prod > dev * 2 && keyed > dev * 2, "prod: \(prod) s")
    }

    /// The app a request naming none signs in to is the template's `DefaultApp` parameter in
    /// every function that has one (it was `demo`, written into six functions): overridden, an
    /// exchange without `app` is refused as another app's, not redeemed as demo's.
    @Test func theDefaultAppIsATemplateParameter() async throws {
        let url = GatehouseCLI.repositoryRoot.appendingPathComponent("template.json")
        let template = try JSONValue(parsing: Array(try Data(contentsOf: url)))
        let defaults = (template["Resources"]?.objectValue ?? [:]).values.compactMap {
            $0["Properties"]?["Environment"]?["Variables"]?["DEFAULT_APP"]
        }
        #expect(defaults.count >= 6)
        #expect(defaults.allSatisfy { $0 == ["Ref": "DefaultApp"] }, "\(defaults)")
        #expect(template["Parameters"]?["DefaultApp"]?["Default"] == "demo")
        for (overrides, expected) in [([String](), 200), (["--parameter-overrides", "DefaultApp=elsewhere"], 401)] {
            let mint = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", "ada@example.com"])
            let code = mint.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
            let event = try InvokeSAMEventTests.event("exchange", .v2, body: ["code": .string(code)])
            let run = try await cli.run(
                ["invoke", "Exchange", "--no-build", "--event", "-"] + overrides, stdin: Data(event.serialized.utf8))
            #expect(try run.json()["statusCode"]?.numberValue == Double(expected), "\(overrides): \(run.stdoutText)")
        }
    }

    @Test func aMalformedOverrideIsAUsageError() async throws {
        let run = try await cli.run(["invoke", "Jwks", "--no-build", "--parameter-overrides", "Stage"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--parameter-overrides: Stage is not Name=Value"))
    }

    /// SAM CLI's `-t` names the template on `invoke`, `start-api` and `start-lambda`: a template
    /// that does not exist is reported by its path, as `--template` reports it.
    @Test func dashTNamesTheTemplate() async throws {
        let missing = "/nonexistent/\(UUID().uuidString)/template.json"
        for arguments in [
            ["invoke", "Jwks", "--no-build", "-t", missing], ["start-api", "--no-build", "-p", "0", "-t", missing],
        ] {
            let run = try await cli.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(missing), "\(arguments): \(run.stderr)")
        }
        let long = try await cli.run(["invoke", "Jwks", "--no-build", "--template", missing])
        #expect(long.status == 2 && long.stderr.contains(missing))
    }
}
