import Emulator
import Foundation
import GatehouseJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `gatehouse start-api` as a user runs it: a process on a free port, spoken to over HTTP.
@Suite(.serialized)
struct StartAPITests {
    let cli = GatehouseCLI()
    static let template = GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Fixtures/api-template.json").path

    func json(_ bytes: [UInt8]) throws -> JSONValue { try JSONValue(parsing: bytes) }

    /// Runs `body` against a fresh server, and stops the server however `body` ends.
    func withAPI(_ body: (LocalAPI) async throws -> Void) async throws {
        try await LocalAPI.with(template: Self.template, cli: cli, body)
    }

    /// The event a request became, echoed back by the test function.
    @Test func requestsBecomePayload2Events() async throws {
        try await withAPI { api in
            let answer = try await api.request(
                "GET", "/items/42%20b?tag=a&tag=b&empty=&q=x+y%21",
                headers: [("X-Multi", "one"), ("x-multi", "two"), ("Cookie", "a=1; b=2"), ("User-Agent", "tests")])
            #expect(answer.status == 200)
            #expect(answer.headers.contains { $0 == ("content-type", "application/json") })
            let event = try json(answer.body)
            #expect(event["version"] == "2.0")
            #expect(event["routeKey"] == "GET /items/{id}")
            #expect(event["rawPath"] == "/items/42%20b")
            #expect(event["rawQueryString"] == "tag=a&tag=b&empty=&q=x+y%21")
            #expect(event["queryStringParameters"] == ["tag": "a,b", "empty": "", "q": "x y!"])
            #expect(event["pathParameters"] == ["id": "42 b"])
            #expect(event["headers"]?["x-multi"] == "one,two")
            #expect(event["headers"]?["cookie"] == nil)
            #expect(event["cookies"] == ["a=1", "b=2"])
            #expect(event["requestContext"]?["http"]?["method"] == "GET")
            #expect(event["requestContext"]?["http"]?["userAgent"] == "tests")
            #expect(event["requestContext"]?["http"]?["sourceIp"] == "127.0.0.1")
            #expect(event["requestContext"]?["http"]?["protocol"] == "HTTP/1.1")
            #expect(event["requestContext"]?["routeKey"] == "GET /items/{id}")
            #expect(event["requestContext"]?["stage"] == "$default")
            #expect(event["requestContext"]?["requestId"]?.stringValue?.isEmpty == false)
            #expect(event["isBase64Encoded"] == false)
            #expect(event["body"] == nil)

            // The most specific route wins: /items/new is its own function, not {id}.
            let exact = try json(try await api.request("GET", "/items/new").body)
            #expect(exact["routeKey"] == "GET /items/new")
            // A greedy route takes every method and the rest of the path; a binary body is base64.
            let file = try await api.request(
                "PUT", "/files/a/b/c.png", headers: [("Content-Type", "image/png")], body: [0, 255, 1, 2])
            let fileEvent = try json(file.body)
            #expect(fileEvent["pathParameters"] == ["proxy": "a/b/c.png"])
            #expect(fileEvent["isBase64Encoded"] == true)
            #expect(fileEvent["body"] == .string(Data([0, 255, 1, 2]).base64EncodedString()))
            let text = try json(
                try await api.request(
                    "POST", "/files/x", headers: [("Content-Type", "application/json")], body: Array("{\"a\":1}".utf8)
                ).body)
            #expect(text["body"] == #"{"a":1}"#)
            #expect(text["isBase64Encoded"] == false)

            // HEAD reaches the function; the answer says how long its body is and sends none.
            let head = try await api.request("HEAD", "/files/x")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.headers.first { $0.0 == "content-length" }.flatMap { Int($0.1) } ?? 0 > 0)

            // No route: HTTP API's 404.
            let missing = try await api.request("GET", "/nothing/here")
            #expect(missing.status == 404)
            #expect(try json(missing.body) == ["message": "Not Found"])
            let wrongMethod = try await api.request("DELETE", "/items/42")
            #expect(wrongMethod.status == 404)
        }
    }

    /// A function's structured answer becomes the HTTP response, as API Gateway maps it.
    @Test func answersMapToResponses() async throws {
        try await withAPI { api in
            func respond(_ answer: String) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
                try await api.request(
                    "POST", "/respond?action=respond", headers: [("Content-Type", "application/json")],
                    body: Array(answer.utf8))
            }
            let full = try await respond(
                #"{"statusCode":201,"headers":{"X-Custom":"yes","X-Number":7},"cookies":["s=1; HttpOnly","t=2"],"body":"created"}"#
            )
            #expect(full.status == 201)
            #expect(full.headers.contains { $0 == ("x-custom", "yes") })
            #expect(full.headers.contains { $0 == ("x-number", "7") })
            #expect(full.headers.filter { $0.0 == "set-cookie" }.map(\.1) == ["s=1; HttpOnly", "t=2"])
            #expect(String(decoding: full.body, as: UTF8.self) == "created")

            let binary = try await respond(
                #"{"statusCode":200,"isBase64Encoded":true,"body":"AP8B","headers":{"content-type":"image/png"}}"#)
            #expect(binary.body == [0, 255, 1])
            #expect(binary.headers.contains { $0 == ("content-type", "image/png") })

            // Framing is the server's own: a function's Content-Length, Transfer-Encoding or
            // Connection header does not reach the wire, and a 204 carries no body.
            let framed = try await respond(
                #"{"statusCode":200,"headers":{"Content-Length":"999","Transfer-Encoding":"chunked","Connection":"close"},"body":"short"}"#
            )
            #expect(framed.status == 200)
            #expect(String(decoding: framed.body, as: UTF8.self) == "short")
            #expect(framed.headers.filter { $0.0 == "content-length" }.map(\.1) == ["5"])
            #expect(!framed.headers.contains { $0.0 == "transfer-encoding" || $0.0 == "connection" })
            // A line break in a header would split the response on the wire: a malformed answer.
            let split = try await respond(#"{"statusCode":200,"headers":{"x-a":"1\r\nx-injected: 2"},"body":"b"}"#)
            #expect(split.status == 500)
            #expect(!split.headers.contains { $0.0 == "x-injected" })
            let empty = try await respond(#"{"statusCode":204,"body":"ignored"}"#)
            #expect(empty.status == 204)
            #expect(empty.body.isEmpty)
            #expect(empty.headers.contains { $0.0 == "date" })

            // Without statusCode the whole answer is a 200 JSON body.
            let bare = try await respond(#"{"hello":"world"}"#)
            #expect(bare.status == 200)
            #expect(try json(bare.body) == ["hello": "world"])
            #expect(bare.headers.contains { $0 == ("content-type", "application/json") })

            for malformed in [#"{"statusCode":"x"}"#, #"{"statusCode":200,"body":5}"#, #"{"statusCode":99}"#] {
                let answer = try await respond(malformed)
                #expect(answer.status == 500, "\(malformed)")
                #expect(try json(answer.body) == ["message": "Internal Server Error"])
            }
        }
    }

    /// Failures: a function error, a crash and a timeout are 500s; a crashed or timed-out
    /// instance is replaced by a cold one.
    @Test func failuresAre500sAndBrokenInstancesAreReplaced() async throws {
        try await withAPI { api in
            #expect(try await api.request("GET", "/items/1").status == 200)
            for action in ["error", "crash", "hang"] {
                let answer = try await api.request("GET", "/items/1?action=\(action)")
                #expect(answer.status == 500, "\(action)")
                #expect(try json(answer.body) == ["message": "Internal Server Error"])
            }
            #expect(try await api.request("GET", "/items/1").status == 200)
            let lines = api.log.split(separator: "\n").filter { $0.hasPrefix("GET /items/1") }
            #expect(lines.count == 5)
            // The error leaves the instance warm; the crash and the hang each cost it, so the last
            // request starts a fresh one.
            #expect(lines[0].hasSuffix("Echo cold #1"))
            #expect(lines[1].contains("Echo warm #1"))
            #expect(lines[2].contains("Echo warm #1"))
            #expect(lines[3].contains("Echo cold #2"))
            #expect(lines[4].hasSuffix("Echo cold #3"))
            // Function logs are prefixed by function and instance.
            #expect(try await eventually { api.log.contains("Echo #1 | {") })
        }
    }

    /// Lambda's 6 MiB on events and responses, and the HTTP API's 10 MiB on request bodies:
    /// 413 for a request over either, 500 for a response over Lambda's, never a truncation.
    @Test func payloadsOverTheLimitsAreRefused() async throws {
        try await withAPI { api in
            let justUnder = [UInt8](repeating: UInt8(ascii: "a"), count: 6 * 1024 * 1024 - 64 * 1024)
            let fits = try await api.request(
                "POST", "/files/x", headers: [("Content-Type", "text/plain")], body: justUnder)
            #expect(fits.status == 200)
            #expect(try json(fits.body)["body"]?.stringValue?.utf8.count == justUnder.count)
            // Over the event's 6 MiB (read, then refused). A body over the HTTP API's 10 MiB is
            // refused on its declared length before it is read (APIEdgeTests): AsyncHTTPClient,
            // still writing the body it was given in one buffer, fails on that early answer.
            let tooLarge = try await api.request(
                "POST", "/files/x", headers: [("Content-Type", "text/plain")],
                body: [UInt8](repeating: UInt8(ascii: "a"), count: 6 * 1024 * 1024 + 1))
            #expect(tooLarge.status == 413)
            #expect(try json(tooLarge.body) == ["message": "Request Entity Too Large"])
            let big = try await api.request("GET", "/items/1?action=big")
            #expect(big.status == 500)
            #expect(try json(big.body) == ["message": "Internal Server Error"])
            let lines = api.log.split(separator: "\n").filter { $0.hasPrefix("GET /items/1") }
            #expect(lines.last?.hasSuffix("Function.ResponseSizeTooLarge") == true)
        }
    }

    /// Warm instances are reused; parallel requests start instances up to the function's
    /// reserved concurrency and no further: the rest wait, then are throttled. Ctrl-C leaves
    /// no function process behind.
    @Test func instancesStayWithinTheirLimitAndNoneOutliveTheServer() async throws {
        let api = try await LocalAPI(template: Self.template, cli: cli)
        #expect(try await api.request("GET", "/items/1").status == 200)
        #expect(try await api.request("GET", "/items/2").status == 200)
        #expect(api.routeProcesses().count == 1)

        // Limited has ReservedConcurrentExecutions 2: six requests that each take 3 s get two
        // instances; the other four wait the 2 s queue limit and are throttled.
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 {
                group.addTask { try await api.request("GET", "/limited?action=sleep&ms=3000").status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 2)
        #expect(statuses.filter { $0 == 503 }.count == 4)
        let limited = api.log.split(separator: "\n").filter { $0.hasPrefix("GET /limited") }
        #expect(limited.filter { $0.contains("Limited cold") }.count == 2)
        #expect(limited.filter { $0.hasSuffix("Limited throttled") }.count == 4)
        #expect(api.routeProcesses().count == 3)

        let termination = await api.stop()
        #expect(termination.reason == .exited(128 + SIGINT))
        #expect(api.functionProcesses().isEmpty)
    }
}

/// The project's own template under start-api: the real functions and the real authorizer.
struct StartAPIProjectTests {
    let cli = GatehouseCLI()

    /// On a free port, ISSUER follows the address start-api listens on: an access token from
    /// Exchange passes the Authorizer, which read Gatehouse's own keys where they are published
    /// (locally the key file's public members), not through the API.
    @Test func theSessionFlowWorksBehindTheAuthorizerOnAnyPort() async throws {
        // The Authorizer's first fetch cold-starts Jwks; on a machine busy with the whole suite
        // that once took over the 3 s default.
        let api = try await LocalAPI(
            template: GatehouseCLI.projectTemplate, cli: cli,
            variables: ["Authorizer": ["JWKS_FETCH_TIMEOUT_SECONDS": "8"]])
        defer { api.process.kill(SIGINT) }
        let signedIn = try await api.signIn("ada@example.com", cli: cli)
        #expect(signedIn.status == 200)
        let token = try #require(signedIn.accessToken)
        let profile = try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(token)")])
        #expect(profile.status == 200)
        #expect(try JSONValue(parsing: profile.body)["email"] == "ada@example.com")
        #expect(!api.log.contains("GET /.well-known/jwks.json"))
        #expect(try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer x.y.z")]).status == 403)
        _ = await api.stop()
    }
}

/// What happens between requests: instances that die while idle, and the store's sweep.
@Suite(.serialized)
struct StartAPIBackgroundTests {
    let cli = GatehouseCLI()

    /// An idle instance killed from outside is replaced without the next request noticing.
    @Test func anInstanceThatDiesWhileIdleIsReplacedUnnoticed() async throws {
        let api = try await LocalAPI(template: StartAPITests.template, cli: cli)
        #expect(try await api.request("GET", "/items/1").status == 200)
        let pids = api.routeProcesses()
        #expect(pids.count == 1)
        for pid in pids { kill(pid, SIGKILL) }
        // Dead, not only dying: while the kernel tears a killed process down, its parked `/next`
        // can still take an event, and the event then fails as it would on Lambda.
        #expect(try await eventually { pids.allSatisfy(ProcessTable.hasEnded) })
        #expect(try await api.request("GET", "/items/1").status == 200)
        let lines = api.log.split(separator: "\n").filter { $0.hasPrefix("GET /items/1") }
        #expect(lines.count == 2)
        #expect(lines.last?.hasSuffix("Echo cold #2") == true)
        _ = await api.stop()
    }

    /// A rebuilt binary is picked up without a restart: the next request runs the new build on a
    /// new instance while a request on the old build finishes, and then the old instance exits.
    @Test func aRebuiltBinaryIsPickedUpWithoutARestart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hot-\(UUID().uuidString)")
        let code = folder.appendingPathComponent("Hot")
        try FileManager.default.createDirectory(at: code, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let built = GatehouseCLI.binDirectory.appendingPathComponent("Misbehaving")
        let bootstrap = code.appendingPathComponent("bootstrap")
        try FileManager.default.copyItem(at: built, to: bootstrap)
        let template = folder.appendingPathComponent("template.json")
        try Data(
            #"""
            {"Resources": {"Hot": {"Type": "AWS::Serverless::Function", "Properties": {"CodeUri": "Hot",
              "Timeout": 10, "Events": {"Get": {"Type": "HttpApi", "Properties": {"Path": "/hot", "Method": "GET"}}}}}}}
            """#.utf8
        ).write(to: template)
        func inode(_ url: URL) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int)
        }

        let api = try await LocalAPI(template: template.path, cli: cli)
        defer { api.process.kill(SIGINT) }
        let first = try await api.request("GET", "/hot?action=exe")
        #expect(try JSONValue(parsing: first.body) == .number(Double(try inode(bootstrap))))
        // A slow request holds instance #1 while the binary is replaced, as a linker does it:
        // a new file renamed over the old.
        async let slow = api.request("GET", "/hot?action=sleep&ms=1500")
        #expect(try await eventually { api.log.contains(#""action":"sleep""#) })
        let next = code.appendingPathComponent("bootstrap.new")
        try FileManager.default.copyItem(at: built, to: next)
        #expect(rename(next.path, bootstrap.path) == 0)

        let second = try await api.request("GET", "/hot?action=exe")
        #expect(try JSONValue(parsing: second.body) == .number(Double(try inode(bootstrap))), "\(api.log)")
        #expect(second.body != first.body)
        #expect(try await slow.status == 200)
        #expect(try await eventually { api.functionProcesses().count == 1 })
        let lines = api.log.split(separator: "\n").filter { $0.hasPrefix("GET /hot") }
        #expect(lines.count == 3)
        #expect(lines.filter { $0.hasSuffix("Hot cold #1") }.count == 1)
        #expect(lines.filter { $0.hasSuffix("Hot warm #1") }.count == 1)
        #expect(lines.filter { $0.hasSuffix("Hot cold #2") }.count == 1)
        #expect(api.log.contains("Hot: the binary changed; new instances run it"))
        _ = await api.stop()
    }

    /// LAZY (the default): a route's instances start at its first request (only the authorizers
    /// start with the server) and stop once idle for --idle-timeout; the next request starts a
    /// fresh one.
    @Test func idleInstancesStopAfterTheIdleTimeout() async throws {
        let api = try await LocalAPI(template: StartAPITests.template, cli: cli, extra: ["--idle-timeout", "0.3"])
        defer { api.process.kill(SIGINT) }
        #expect(api.routeProcesses().isEmpty)
        #expect(try await api.request("GET", "/items/1").status == 200)
        #expect(try await eventually { api.functionProcesses().isEmpty })
        #expect(api.log.contains("Echo #1 stopped after 0."))
        #expect(try await api.request("GET", "/items/1").status == 200)
        #expect(api.log.split(separator: "\n").last { $0.hasPrefix("GET /items/1") }?.hasSuffix("Echo cold #2") == true)
        _ = await api.stop()
    }

    /// EAGER: one instance of every function runs before the first request, which finds it
    /// warm, and idle reaping keeps that one.
    @Test func eagerStartsEveryFunctionFirstAndKeepsOneWarm() async throws {
        let template = try Template.load(path: StartAPITests.template)
        let functions = Set(
            template.routes.map(\.function) + template.authorizers.values.map(\.function))
        let api = try await LocalAPI(
            template: StartAPITests.template, cli: cli, extra: ["--warm-containers", "EAGER", "--idle-timeout", "0.2"])
        defer { api.process.kill(SIGINT) }
        #expect(api.functionProcesses().count == functions.count)
        #expect(try await api.request("GET", "/items/1").status == 200)
        #expect(api.log.split(separator: "\n").last { $0.hasPrefix("GET /items/1") }?.hasSuffix("Echo warm #1") == true)
        try await Task.sleep(for: .milliseconds(800))
        #expect(api.functionProcesses().count == functions.count)
        #expect(!api.log.contains("stopped after"))
        _ = await api.stop()
    }

    /// Expired items are deleted in the background.
    @Test func expiredItemsAreSweptInTheBackground() async throws {
        let past = Int(Date().timeIntervalSince1970) - 10
        let put = try await cli.run(["db", "put", "AuthCodes", #"{"code":"old","ttl":\#(past)}"#])
        #expect(put.status == 0, "\(put.stderr)")
        let api = try await LocalAPI(template: StartAPITests.template, cli: cli, extra: ["--sweep-interval", "0.1"])
        #expect(try await eventually { api.log.contains("store: swept 1 expired item\n") })
        _ = await api.stop()
    }
}

/// The Lambda authorizer step of `start-api`, with a test function as the authorizer.
@Suite(.serialized)
struct StartAPIAuthorizerTests {
    let cli = GatehouseCLI()

    func lines(_ api: LocalAPI, _ prefix: String) -> [Substring] {
        api.log.split(separator: "\n").filter { $0.hasPrefix(prefix) }
    }

    @Test func allowDenyMissingFailureAndTheCache() async throws {
        let api = try await LocalAPI(template: StartAPITests.template, cli: cli)
        defer { api.process.kill(SIGINT) }

        // No identity: 401 and the authorizer is not run.
        let missing = try await api.request("GET", "/private")
        #expect(missing.status == 401)
        #expect(try JSONValue(parsing: missing.body) == ["message": "Unauthorized"])
        #expect(!api.log.contains("Guard #"))

        // Allowed: the context reaches the function in requestContext.authorizer.lambda.
        let allowed = try await api.request("GET", "/private", headers: [("Authorization", "allow:ada")])
        #expect(allowed.status == 200)
        let event = try JSONValue(parsing: allowed.body)
        #expect(event["requestContext"]?["authorizer"]?["lambda"] == ["userId": "ada"])

        // Denied: 403. A failing or malformed authorizer: 500.
        let denied = try await api.request("GET", "/private", headers: [("Authorization", "deny")])
        #expect(denied.status == 403)
        #expect(try JSONValue(parsing: denied.body) == ["message": "Forbidden"])
        for identity in ["fail", "garbage"] {
            let broken = try await api.request("GET", "/private", headers: [("Authorization", identity)])
            #expect(broken.status == 500, "\(identity)")
        }

        // The same identities again: decisions come from the cache (a denial too), so the
        // authorizer ran once per identity.
        #expect(try await api.request("GET", "/private", headers: [("Authorization", "allow:ada")]).status == 200)
        #expect(try await api.request("GET", "/private", headers: [("Authorization", "deny")]).status == 403)
        let gated = lines(api, "GET /private")
        #expect(gated.filter { $0.contains("Gate cached") }.count == 2)
        // allow, deny, fail, garbage; failures are not kept
        #expect(try await api.authorizerRuns(reaching: 4) == 4)

        // ReauthorizeEvery 0: every request runs the authorizer.
        for _ in 0..<3 {
            #expect(try await api.request("GET", "/uncached", headers: [("X-Key", "allow:bob")]).status == 200)
        }
        #expect(try await api.authorizerRuns(reaching: 7) == 7)
        #expect(!lines(api, "GET /uncached").contains { $0.contains("(Uncached cached)") })
        #expect(lines(api, "GET /uncached").count == 3)
        _ = await api.stop()
    }

    /// A request behind a Lambda authorizer starts its route's function while the authorizer
    /// decides, so the two cold starts overlap: even a denied request leaves that instance
    /// started (idle), and the next allowed request runs on it rather than starting another.
    @Test func aRouteFunctionStartsWhileItsAuthorizerDecides() async throws {
        let api = try await LocalAPI(template: StartAPITests.template, cli: cli)
        defer { api.process.kill(SIGINT) }
        #expect(try await api.request("GET", "/private", headers: [("Authorization", "deny")]).status == 403)
        // The authorizer's instance and the route function's.
        #expect(try await eventually { api.functionProcesses().count == 2 }, "\(api.log)")
        #expect(try await api.request("GET", "/private", headers: [("Authorization", "allow:ada")]).status == 200)
        #expect(api.functionProcesses().count == 2)
        let gated = lines(api, "GET /private")
        #expect(gated.count == 2)
        #expect(gated.last?.contains("Private cold #1") == true || gated.last?.contains("Private warm #1") == true)
        _ = await api.stop()
    }

    /// A kept decision expires after ReauthorizeEvery (1 s here): the next request runs the
    /// authorizer again.
    @Test func aCachedDecisionExpiresAfterReauthorizeEvery() async throws {
        let api = try await LocalAPI(template: StartAPITests.template, cli: cli)
        defer { api.process.kill(SIGINT) }
        #expect(try await api.request("GET", "/brief", headers: [("X-Brief", "allow:ada")]).status == 200)
        #expect(try await api.request("GET", "/brief", headers: [("X-Brief", "allow:ada")]).status == 200)
        #expect(try await api.authorizerRuns(reaching: 1) == 1)
        try await Task.sleep(for: .milliseconds(1100))
        #expect(try await api.request("GET", "/brief", headers: [("X-Brief", "allow:ada")]).status == 200)
        #expect(try await api.authorizerRuns(reaching: 2) == 2)
        let lines = lines(api, "GET /brief")
        #expect(lines.count == 3)
        #expect(lines[1].hasSuffix("(Brief cached)"))
        #expect(!lines[2].contains("Brief cached"))
        _ = await api.stop()
    }

    /// --no-authorizer-cache runs the authorizer every time; --disable-authorizer skips it.
    @Test func flagsTurnTheCacheAndTheAuthorizerOff() async throws {
        let uncached = try await LocalAPI(template: StartAPITests.template, cli: cli, extra: ["--no-authorizer-cache"])
        for _ in 0..<2 {
            #expect(
                try await uncached.request("GET", "/private", headers: [("Authorization", "allow:a")]).status == 200)
        }
        #expect(try await uncached.authorizerRuns(reaching: 2) == 2)
        _ = await uncached.stop()

        let open = try await LocalAPI(template: StartAPITests.template, cli: cli, extra: ["--disable-authorizer"])
        let answer = try await open.request("GET", "/private")
        #expect(answer.status == 200)
        #expect(try JSONValue(parsing: answer.body)["requestContext"]?["authorizer"] == nil)
        #expect(open.log.contains("warning: --disable-authorizer"))
        _ = await open.stop()
    }
}
