import Foundation
import GatehouseJSON
import Logging
import NIOCore
import Synchronization
import Testing

@testable import LambdaRuntime

/// A deployed function's start: its secrets fetched while the runtime waits for the first event,
/// its issuer built from that event's API id, its handler built once.
@Suite(.serialized)
struct FirstEventHandlerTests {
    let loop = RuntimeLoopTests()
    static let deployed = ["ISSUER": "", "ISSUER_API_DOMAIN": "execute-api.eu-west-1.amazonaws.com"]

    static func event(_ id: String, apiID: String?) -> FakeRuntimeAPI.ScriptedEvent {
        let context = apiID.map { #","requestContext":{"apiId":"\#($0)","stage":"$default"}"# } ?? ""
        return RuntimeLoopTests.event(id, #"{"version":"2.0","rawPath":"/x"\#(context)}"#)
    }

    /// Answers the issuer and the fetched secret it was built with.
    static func echo(_ environment: [String: String]) -> any ByteLambdaHandler {
        ClosureHandler { _, _ in
            ByteBuffer(string: "\(environment["ISSUER"] ?? "-") \(environment["SECRET"] ?? "-")")
        }
    }

    func outcomes(_ requests: [FakeRuntimeAPI.RecordedRequest]) -> [String] {
        requests.filter { !$0.path.hasSuffix("/next") }.map { request in
            request.path.hasSuffix("/response")
                ? request.bodyText : "error: \(request.headers["lambda-runtime-function-error-type"] ?? "")"
        }
    }

    @Test func theIssuerIsTheEventsAPIsAndEverythingIsDoneOnce() async throws {
        let fetches = Atomic<Int>(0)
        let builds = Atomic<Int>(0)
        let start = StartingEnvironment(Self.deployed) { environment in
            fetches.add(1, ordering: .relaxed)
            return environment.merging(["SECRET": "s3cret"]) { $1 }
        }
        let events = [
            Self.event("1", apiID: "abc123def4"), Self.event("2", apiID: "abc123def4"),
            Self.event("3", apiID: "other99999"), Self.event("4", apiID: nil),
            // Not an id an issuer URL can be built from.
            Self.event("5", apiID: "evil.example/x"),
        ]
        let (_, requests) = try await loop.runLoop(events) {
            FirstEventHandler(start: start) { environment in
                builds.add(1, ordering: .relaxed)
                return Self.echo(environment)
            }
        }
        #expect(
            outcomes(requests) == [
                "https://abc123def4.execute-api.eu-west-1.amazonaws.com s3cret",
                "https://abc123def4.execute-api.eu-west-1.amazonaws.com s3cret",
                "error: Runtime.OtherAPI", "error: Runtime.NoIssuer", "error: Runtime.NoIssuer",
            ])
        #expect(fetches.load(ordering: .relaxed) == 1)
        #expect(builds.load(ordering: .relaxed) == 1)
    }

    /// A fetch that fails fails that invocation (as a failed start would); the next event fetches
    /// again. The issuer given (a custom domain) is kept, and an event without an API id is fine.
    @Test func aFailedFetchFailsItsEventAndTheNextFetchesAgain() async throws {
        let fetches = Atomic<Int>(0)
        let start = StartingEnvironment(["ISSUER": "https://auth.example.com", "ISSUER_API_DOMAIN": "x.y"]) {
            environment in
            guard fetches.add(1, ordering: .relaxed).newValue > 1 else {
                throw InvocationError(type: "Fetch", message: "down")
            }
            return environment.merging(["SECRET": "later"]) { $1 }
        }
        #expect(start.issuerDomain == nil && !start.isComplete)
        let (_, requests) = try await loop.runLoop([Self.event("1", apiID: nil), Self.event("2", apiID: nil)]) {
            FirstEventHandler(start: start, makeHandler: Self.echo)
        }
        #expect(outcomes(requests) == ["error: Fetch", "https://auth.example.com later"])
        #expect(fetches.load(ordering: .relaxed) == 2)
    }

    /// Nothing to fetch and the issuer given (a local run): the handler is built at
    /// initialisation, as before, so a bad setting still fails the start by name.
    @Test func aCompleteEnvironmentIsBuiltAtInitialisation() {
        #expect(StartingEnvironment(["ISSUER": "http://127.0.0.1:3000", "ISSUER_API_DOMAIN": "x.y"]).isComplete)
        #expect(StartingEnvironment([:]).isComplete)
        #expect(!StartingEnvironment(Self.deployed).isComplete)
        #expect(
            StartingEnvironment(Self.deployed).issuer(apiID: "abc") == "https://abc.execute-api.eu-west-1.amazonaws.com"
        )
    }
}
