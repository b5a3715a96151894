import Emulator
import GatehouseJSON
import LambdaRuntime
import Synchronization
import Testing

/// Decisions live for their authorizer's ReauthorizeEvery, per identity, on an injected clock.
struct AuthorizerCacheTests {
    final class Clock: Sendable {
        let seconds = Mutex(1_000.0)
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    @Test func decisionsExpireAfterTheirSecondsAndAreKeptPerIdentity() {
        let clock = Clock()
        let cache = AuthorizerCache(now: { clock.seconds.withLock { $0 } })
        let allow = AuthorizerAnswer.simple(isAuthorized: true, context: ["userId": "ada"])
        let deny = AuthorizerAnswer.simple(isAuthorized: false, context: [:])
        cache.keep(allow, "Gate", identity: ["Bearer a"], seconds: 300)
        cache.keep(deny, "Gate", identity: ["Bearer b"], seconds: 300)
        cache.keep(allow, "Other", identity: ["Bearer a"], seconds: 0)

        #expect(cache.answer("Gate", identity: ["Bearer a"]) == allow)
        #expect(cache.answer("Gate", identity: ["Bearer b"]) == deny)
        #expect(cache.answer("Other", identity: ["Bearer a"]) == nil)
        #expect(cache.answer("Gate", identity: ["Bearer c"]) == nil)
        clock.advance(299.9)
        #expect(cache.answer("Gate", identity: ["Bearer a"]) == allow)
        clock.advance(0.1)
        #expect(cache.answer("Gate", identity: ["Bearer a"]) == nil)
        #expect(cache.answer("Gate", identity: ["Bearer b"]) == nil)
    }
}

/// Route selection as API Gateway does it.
struct RouteTableTests {
    func route(_ method: String, _ path: String, _ function: String = "F") -> HTTPRoute {
        HTTPRoute(
            function: function, event: "\(method)\(path)", kind: .httpAPI, method: method, path: path,
            payloadFormat: .v2, authorizer: nil)
    }

    @Test func theMostSpecificRouteWins() throws {
        let table = try RouteTable(routes: [
            route("ANY", "$default", "Default"), route("GET", "/items/{id}", "Item"),
            route("GET", "/items/new", "New"), route("ANY", "/items/{id}", "AnyItem"),
            route("ANY", "/files/{proxy+}", "Files"), route("GET", "/", "Root"),
        ])
        #expect(table.match(method: "GET", path: "/items/new")?.route.function == "New")
        #expect(table.match(method: "GET", path: "/items/7")?.pathParameters == ["id": "7"])
        #expect(table.match(method: "GET", path: "/items/7")?.route.function == "Item")
        #expect(table.match(method: "POST", path: "/items/7")?.route.function == "AnyItem")
        #expect(table.match(method: "GET", path: "/files/a/b")?.pathParameters == ["proxy": "a/b"])
        #expect(table.match(method: "GET", path: "/files")?.route.function == "Default")
        #expect(table.match(method: "GET", path: "/")?.route.function == "Root")
        #expect(table.match(method: "GET", path: "/items/7/more")?.route.function == "Default")
        #expect(table.match(method: "GET", path: "/items/")?.route.function == "Default")
    }

    @Test func aTrailingSlashGoesToTheRouteWithoutIt() throws {
        let table = try RouteTable(routes: [
            route("ANY", "$default", "Default"), route("GET", "/passkeys", "List"),
            route("PATCH", "/passkeys/{id}", "Rename"),
        ])
        #expect(table.match(method: "GET", path: "/passkeys/")?.route.function == "List")
        #expect(table.match(method: "PATCH", path: "/passkeys/")?.route.function == "Default")
        #expect(table.match(method: "GET", path: "/passkeys//")?.route.function == "Default")
        #expect(try RouteTable(routes: [route("GET", "/a")]).match(method: "GET", path: "/a/")?.route.function == "F")
    }

    @Test func twoRoutesWithOneKeyAreRefused() {
        #expect(throws: RouteTableError.duplicate("GET /a", "F", "G")) {
            try RouteTable(routes: [route("GET", "/a"), route("GET", "/a", "G")])
        }
    }
}
