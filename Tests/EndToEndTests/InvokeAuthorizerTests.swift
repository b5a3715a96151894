import Emulator
import Foundation
import GatehouseJSON
import Hummingbird
import JOSE
import NIOCore
import Synchronization
import TestServers
import Testing

/// `gatehouse invoke Authorizer` as a real process: a token signed with the project's local
/// signing keys, the JWKS served by a local HTTP server, the sample events from events/.
struct InvokeAuthorizerTests {
    let cli = GatehouseCLI()

    /// Serves the public half of the CLI's key file and counts the fetches.
    final class LocalJWKS: Sendable {
        final class Counter: Sendable {
            let value = Mutex(0)
        }

        let server: LoopbackHTTPServer
        private let fetches: Counter

        var count: Int { fetches.value.withLock { $0 } }
        var url: String { "http://127.0.0.1:\(server.port)/.well-known/jwks.json" }

        init(document: String) async throws {
            let fetches = Counter()
            let router = Router()
            router.get(".well-known/jwks.json") { _, _ in
                fetches.value.withLock { $0 += 1 }
                return document
            }
            self.server = try await LoopbackHTTPServer.start(router: router)
            self.fetches = fetches
        }
    }

    /// The project's template with the Authorizer's 5 s `Timeout` raised to 30 s: its cold start
    /// and JWKS fetch share two cores with the rest of the suite, and a deadline met alone can be
    /// missed under that load. What is tested is the answer, not its speed.
    static let patientTemplate = Result {
        try GatehouseCLI.projectTemplate { resources in
            guard case .object(var authorizer)? = resources["Authorizer"],
                case .object(var properties)? = authorizer["Properties"]
            else { throw CocoaError(.fileReadCorruptFile) }
            properties["Timeout"] = 30
            properties["CodeUri"] = .string(
                GatehouseCLI.repositoryRoot.appendingPathComponent("Functions/Authorizer").path)
            authorizer["Properties"] = .object(properties)
            resources["Authorizer"] = .object(authorizer)
        }
    }

    /// Generates the local keys, serves their JWKS, signs a token with the current key.
    func setUp(claims overrides: [String: JSONValue] = [:]) async throws -> (LocalJWKS, String, SigningKeySet) {
        #expect(try await cli.run(["keys", "generate"]).status == 0)
        let keys = try SigningKeySet(jwksJSON: Data(contentsOf: URL(fileURLWithPath: cli.keysFile)))
        let jwks = try await LocalJWKS(
            document: JSONValue(parsing: Array(JSONEncoder().encode(keys.publicJWKS))).serialized)
        return (jwks, try token(keys, claims: overrides), keys)
    }

    /// An access token as Gatehouse issues them, signed with the current local key.
    func token(_ keys: SigningKeySet, claims overrides: [String: JSONValue] = [:]) throws -> String {
        var claims: [String: JSONValue] = [
            "iss": "http://127.0.0.1:3000", "aud": "demo", "sub": "user-42",
            "iat": .number(Date().timeIntervalSince1970.rounded()),
            "exp": .number(Date().timeIntervalSince1970.rounded() + 300), "jti": "t-1",
            "data": ["userId": "user-42", "email": "ada@example.com", "name": "Ada", "provider": "email"],
        ]
        claims.merge(overrides) { $1 }
        return try JWS.signJWT(claims: claims, with: keys.current)
    }

    /// Runs the Authorizer on events/`file` with its token replaced.
    func invoke(
        _ file: String, token: String, jwks: LocalJWKS, extraEnvironment: [String: String] = [:]
    )
        async throws -> GatehouseCLI.Run
    {
        try await invoke(
            event: JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: file))), token: token, jwks: jwks,
            extraEnvironment: extraEnvironment)
    }

    /// Runs the Authorizer on `event` with its token replaced.
    func invoke(
        event: JSONValue, token: String, jwks: LocalJWKS, extraEnvironment: [String: String] = [:]
    )
        async throws -> GatehouseCLI.Run
    {
        var event = event
        guard case .object(var members) = event else { throw CocoaError(.fileReadCorruptFile) }
        if case .object(var headers)? = members["headers"] {
            // A REST event keeps the client's case: replace the header whatever its case.
            headers = headers.filter { $0.key.lowercased() != "authorization" }
            headers["authorization"] = .string("Bearer \(token)")
            members["headers"] = .object(headers)
        } else {
            members["authorizationToken"] = .string("Bearer \(token)")
        }
        event = .object(members)
        return try await runRaw(event, jwks: jwks, extraEnvironment: extraEnvironment)
    }

    /// Runs the Authorizer on `event` as it is.
    func runRaw(
        _ event: JSONValue, jwks: LocalJWKS, extraEnvironment: [String: String] = [:]
    ) async throws -> GatehouseCLI.Run {
        // The JWKS server runs in this busy test process: give the fetch longer than the 3 s default.
        // These tokens name no session unless a test says so (`sessionCheckIsOnByDefault`).
        let variables = ["JWKS_URL": jwks.url, "JWKS_FETCH_TIMEOUT_SECONDS": "8", "AUTHORIZER_CHECK_SESSION": "false"]
            .merging(extraEnvironment) { $1 }
        let envVars = FileManager.default.temporaryDirectory.appendingPathComponent("env-\(UUID().uuidString).json")
        try JSONEncoder().encode(["Authorizer": variables]).write(to: envVars)
        return try await cli.run(
            [
                "invoke", "Authorizer", "--event", "-", "--env-vars", envVars.path, "--no-build", "--template",
                try Self.patientTemplate.get(),
            ],
            stdin: Data(event.serialized.utf8)
        )
    }

    @Test func httpAPIAllowsAValidTokenWithItsClaimsAsContext() async throws {
        let (jwks, token, keys) = try await setUp()
        let payload = try #require(Base64URL.decode(token.split(separator: ".")[1]))
        let expiresAt = try #require(try JSONValue(parsing: payload)["exp"]?.numberValue)
        defer { Task { await jwks.server.stop() } }
        let run = try await invoke("events/authorizer-v2.json", token: token, jwks: jwks)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(
            try run.json() == [
                "isAuthorized": true,
                "context": [
                    "sub": "user-42", "userId": "user-42", "iss": "http://127.0.0.1:3000", "email": "ada@example.com",
                    "name": "Ada",
                    "provider": "email", "expiresAt": .string(String(Int(expiresAt))), "aud": "demo",
                ],
            ])
        // Hydrated once, during the cold start.
        #expect(jwks.count == 1)
        let decision = try #require(run.stderr.split(separator: "\n").first { $0.contains("authorization decision") })
        #expect(decision.contains("\"decision\":\"allow\"") && decision.contains(keys.current.kid))
        #expect(!run.stderr.contains(token.split(separator: ".")[2]), "no token in the logs")
    }

    /// A Cognito user pool trusted beside Gatehouse's keys (`TRUSTED_ISSUERS`), its JWKS served
    /// over HTTPS by the test: a pool's access token is allowed with its claims, and refused with
    /// the wrong `token_use`, client or time.
    @Test func aTrustedCognitoPoolsTokensAreCheckedAgainstItsKeysOverHTTPS() async throws {
        let (jwks, _, _) = try await setUp()
        defer { Task { await jwks.server.stop() } }
        let poolKeys = try await HTTPSTestServer.start()
        defer { Task { await poolKeys.stop() } }
        let pool = "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Local"
        let key = try RSASigningKey.generate()
        poolKeys.serve(Array(try JSONEncoder().encode(JWKSet(keys: [key.publicJWK]))))
        let trusted = #"[{"issuer":"\#(pool)","jwksUrl":"\#(poolKeys.url("/document"))","clientIds":["app-client-1"]}]"#
        func cognito(_ changes: [String: JSONValue]) throws -> String {
            let now = Date().timeIntervalSince1970.rounded()
            var claims: [String: JSONValue] = [
                "sub": "cognito-user-1", "iss": .string(pool), "client_id": "app-client-1", "token_use": "access",
                "scope": "orders/read", "username": "ada", "iat": .number(now), "exp": .number(now + 3600),
            ]
            claims.merge(changes) { $1 }
            return try JWS.signJWT(claims: claims, with: key)
        }
        let environment = ["TRUSTED_ISSUERS": trusted, "SSL_CERT_FILE": HTTPSTestServer.file("ca")]
        var run = try await invoke(
            "events/authorizer-v2.json", token: cognito([:]), jwks: jwks, extraEnvironment: environment)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let answer = try run.json()
        #expect(answer["isAuthorized"] == true)
        #expect(answer["context"]?["subject"] == "cognito-user-1" && answer["context"]?["client_id"] == "app-client-1")
        #expect(answer["context"]?["sub"] == nil && answer["context"]?["userId"] == nil, "never a Gatehouse user")
        #expect(answer["context"]?["scope"] == "orders/read" && answer["context"]?["username"] == "ada")
        #expect(poolKeys.requests == 1, "the pool's keys were fetched once, at the cold start")
        for (changes, reason) in [
            (["token_use": JSONValue.string("id")], "wrong_token_use"), (["client_id": "someone-else"], "wrong_client"),
            (["exp": .number(Date().timeIntervalSince1970 - 3600)], "expired"),
        ] {
            run = try await invoke(
                "events/authorizer-v2.json", token: cognito(changes), jwks: jwks, extraEnvironment: environment)
            #expect(try run.json() == ["isAuthorized": false])
            #expect(run.stderr.contains("\"reason\":\"\(reason)\""), "\(reason): \(run.stderr)")
        }
    }

    /// The sample event, changed: `edit` gets its members.
    func sample(_ file: String, _ edit: (inout [String: JSONValue]) -> Void) throws -> JSONValue {
        guard case .object(var members) = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: file))) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        edit(&members)
        return .object(members)
    }

    /// Members of an event the Authorizer does not use may be missing, or of any type: an HTTP
    /// API event without `requestContext.domainPrefix` (which API Gateway leaves out for some
    /// domains) is answered, as is one whose other members are all odd.
    @Test func httpAPIReadsOnlyWhatItUses() async throws {
        let (jwks, token, _) = try await setUp()
        defer { Task { await jwks.server.stop() } }
        let noPrefix = try sample("events/authorizer-v2.json") { members in
            if case .object(var context)? = members["requestContext"] {
                context["domainPrefix"] = nil
                members["requestContext"] = .object(context)
            }
        }
        var run = try await invoke(event: noPrefix, token: token, jwks: jwks)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(try run.json()["isAuthorized"] == true, "\(run.stdoutText)")

        let odd = try sample("events/authorizer-v2.json") { members in
            for name in ["routeArn", "identitySource", "routeKey", "rawPath", "pathParameters", "stageVariables"] {
                members[name] = nil
            }
            members["type"] = 7
            members["cookies"] = ["a": [1, 2]]
            members["rawQueryString"] = false
            members["queryStringParameters"] = [1, "two", nil]
            members["requestContext"] = "odd"
            members["somethingNew"] = ["nested": ["deeper": [true, nil, 1.5]]]
            if case .object(var headers)? = members["headers"] {
                headers["x-count"] = 3
                headers["x-list"] = ["a", "b"]
                headers["x-null"] = .null
                members["headers"] = .object(headers)
            }
        }
        run = try await invoke(event: odd, token: token, jwks: jwks)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(try run.json()["isAuthorized"] == true, "\(run.stdoutText)")
    }

    /// An event with no token the Authorizer can read is refused, never an invocation error
    /// (which API Gateway answers with 500): HTTP API `isAuthorized: false`, REST `Unauthorized`.
    @Test func anEventWithoutAReadableTokenIsRefused() async throws {
        let (jwks, token, _) = try await setUp()
        defer { Task { await jwks.server.stop() } }
        for headers: JSONValue? in [nil, .null, 42, "Bearer x", ["authorization": 42], ["accept": "*/*"]] {
            let event = try sample("events/authorizer-v2.json") { $0["headers"] = headers }
            let run = try await runRaw(event, jwks: jwks)
            #expect(run.status == 0, "headers \(headers): \(run.stderr)")
            #expect(try run.json() == ["isAuthorized": false], "headers \(headers)")
            #expect(run.stderr.contains("\"reason\":\"missing_token\""), "headers \(headers)")
        }
        for authorizationToken: JSONValue? in [nil, .null, 42, ["Bearer", "x"]] {
            let event = try sample("events/authorizer-token-v1.json") { $0["authorizationToken"] = authorizationToken }
            let run = try await runRaw(event, jwks: jwks)
            #expect(run.status == 1, "authorizationToken \(authorizationToken)")
            #expect(try run.json()["errorMessage"] == "Unauthorized", "\(run.stdoutText)")
            #expect(try run.json()["errorType"] == "Unauthorized", "\(run.stdoutText)")
        }
        // A REST REQUEST event: the header whatever its case, the rest ignored whatever its type.
        let request = try sample("events/sam/authorizer-request.v1.json") { members in
            members["headers"] = ["AUTHORIZATION": .string("Bearer \(token)"), "X-Count": 1]
            members["multiValueHeaders"] = 5
            members["requestContext"] = nil
            members["resource"] = ["odd"]
            members["httpMethod"] = .null
        }
        var run = try await runRaw(request, jwks: jwks)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(try run.json()["principalId"] == "user-42", "\(run.stdoutText)")
        let unreadable = try sample("events/sam/authorizer-request.v1.json") { $0["headers"] = ["Authorization": 1] }
        run = try await runRaw(unreadable, jwks: jwks)
        #expect(run.status == 1)
        #expect(try run.json()["errorMessage"] == "Unauthorized", "\(run.stdoutText)")
    }

    @Test func httpAPIRefusesAnExpiredOrForgedToken() async throws {
        let (jwks, _, keys) = try await setUp()
        defer { Task { await jwks.server.stop() } }
        let expired = try token(keys, claims: ["exp": .number(Date().timeIntervalSince1970 - 3600)])
        var run = try await invoke("events/authorizer-v2.json", token: expired, jwks: jwks)
        #expect(try run.json() == ["isAuthorized": false])
        #expect(run.stderr.contains("\"reason\":\"expired\""))

        let forged = try JWS.signJWT(
            claims: ["iss": "http://127.0.0.1:3000", "aud": "demo", "sub": "x", "exp": 4_000_000_000],
            with: RSASigningKey.generate())
        run = try await invoke("events/authorizer-v2.json", token: forged, jwks: jwks)
        #expect(try run.json() == ["isAuthorized": false])
        #expect(run.stderr.contains("\"reason\":\"unknown_kid\""))
    }

    @Test func restTokenAuthorizerAnswersWithAPolicyOrUnauthorized() async throws {
        let (jwks, token, _) = try await setUp(claims: ["scope": "profile email"])
        defer { Task { await jwks.server.stop() } }
        var run = try await invoke("events/authorizer-token-v1.json", token: token, jwks: jwks)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let policy = try run.json()
        #expect(policy["principalId"] == "user-42")
        #expect(
            policy["policyDocument"]?["Statement"]?.arrayValue?.first == [
                "Action": "execute-api:Invoke", "Effect": "Allow",
                "Resource": "arn:aws:execute-api:us-east-1:123456789012:abc123def4/prod/*",
            ])
        #expect(policy["context"]?["scope"] == "profile email")

        // A required scope the token lacks: Deny (API Gateway answers 403).
        run = try await invoke(
            "events/authorizer-token-v1.json", token: token, jwks: jwks,
            extraEnvironment: ["JWT_REQUIRED_SCOPES": "admin"])
        #expect(try run.json()["policyDocument"]?["Statement"]?.arrayValue?.first?["Effect"] == "Deny")

        // A broken token: the invocation fails with exactly "Unauthorized" (API Gateway: 401).
        run = try await invoke("events/authorizer-token-v1.json", token: token + "x", jwks: jwks)
        #expect(run.status == 1)
        #expect(try run.json()["errorMessage"] == "Unauthorized")
    }

    /// With the session check on (the default), a token must name a session that still exists:
    /// one with no `sid`, or whose session has ended, is refused, and the log says why. `userId`
    /// in the context is the verified `sub`, whatever the token's `data` says.
    @Test func sessionCheckIsOnByDefault() async throws {
        let (jwks, _, keys) = try await setUp()
        defer { Task { await jwks.server.stop() } }
        let session = ["AUTHORIZER_CHECK_SESSION": ""]
        let noSession = try token(keys)
        var run = try await invoke("events/authorizer-v2.json", token: noSession, jwks: jwks, extraEnvironment: session)
        #expect(try run.json() == ["isAuthorized": false], "stderr: \(run.stderr)")
        #expect(run.stderr.contains("\"reason\":\"missing_session\""))

        let put = try await cli.run(["db", "put", "Sessions", #"{"userId":"user-42","sessionId":"s-1","app":"demo"}"#])
        #expect(put.status == 0, "\(put.stderr)")
        let live = try token(
            keys, claims: ["sid": "s-1", "data": ["userId": "someone-else", "email": "ada@example.com"]])
        run = try await invoke("events/authorizer-v2.json", token: live, jwks: jwks, extraEnvironment: session)
        #expect(try run.json()["isAuthorized"] == true, "stderr: \(run.stderr)")
        #expect(try run.json()["context"]?["userId"] == "user-42")
        #expect(try run.json()["context"]?["sid"] == "s-1")

        #expect(try await cli.run(["db", "delete", "Sessions", "user-42", "s-1"]).status == 0)
        run = try await invoke("events/authorizer-v2.json", token: live, jwks: jwks, extraEnvironment: session)
        #expect(try run.json() == ["isAuthorized": false])
        #expect(run.stderr.contains("\"reason\":\"session_ended\""))
    }

    /// In production the key set must come over HTTPS: anything else fails the cold start.
    @Test func prodRefusesAPlainHTTPKeySet() async throws {
        let (jwks, token, _) = try await setUp()
        defer { Task { await jwks.server.stop() } }
        let run = try await invoke(
            "events/authorizer-v2.json", token: token, jwks: jwks, extraEnvironment: ["STAGE": "prod"])
        #expect(run.status == 1)
        #expect(try run.json()["errorMessage"]?.stringValue?.contains("which STAGE prod requires") == true)
        #expect(jwks.count == 0)
    }

    @Test func aMissingOrMalformedSettingFailsTheColdStart() async throws {
        let (jwks, token, _) = try await setUp()
        defer { Task { await jwks.server.stop() } }
        for (name, value, message) in [
            ("TABLE_Apps", "", "JWT_AUDIENCE is not set"),
            ("JWT_ALGORITHMS", "HS256", "HS256 is not one of RS256, ES256, EdDSA"),
            ("JWT_CLOCK_SKEW_SECONDS", "soon", "JWT_CLOCK_SKEW_SECONDS is invalid"),
            ("JWKS_URL", "ftp://keys", "JWKS_URL is invalid"),
        ] {
            let run = try await invoke(
                "events/authorizer-v2.json", token: token, jwks: jwks, extraEnvironment: [name: value])
            #expect(run.status == 1, "\(name)=\(value)")
            #expect(try run.json()["errorMessage"]?.stringValue?.contains(message) == true, "\(run.stdoutText)")
        }
        #expect(jwks.count == 0, "a bad setting stops the start before any fetch")
    }
}
