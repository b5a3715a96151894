import Foundation
import LambdaRuntime
import Synchronization
import Testing

@testable import Emulator

/// `LocalAPI.make`: the gateway `start-api` serves, assembled from a template.
struct LocalAPITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func options(_ asked: RequestedExecutables) -> LocalAPI.Options {
        LocalAPI.Options { function in
            asked.add(function.name)
            return "/bin/true"
        }
    }

    /// Which functions the assembly asked a binary for.
    final class RequestedExecutables: Sendable {
        private let names = Mutex<[String]>([])
        func add(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    @Test func everyRoutedFunctionAndEveryAuthorizerFunctionGetsAPool() throws {
        let template = try Template.load(path: Self.fixtures.appendingPathComponent("api-template.json").path)
        let asked = RequestedExecutables()
        let gateway = try LocalAPI.make(template: template, options: Self.options(asked))
        #expect(gateway.routes.routes.count == template.routes.count)
        // Guard has no route of its own: it runs as the routes' authorizer.
        #expect(asked.all.sorted() == ["Echo", "Exact", "Guard", "Limited", "Private"])
        #expect(try LocalAPI.functions(in: template).map(\.name) == asked.all.sorted())
        #expect(gateway.pools.keys.sorted() == asked.all.sorted())
    }

    @Test func aRESTTemplatesRoutesSendPayload1() throws {
        let template = try Template.load(path: Self.fixtures.appendingPathComponent("rest-template.json").path)
        let gateway = try LocalAPI.make(template: template, options: Self.options(RequestedExecutables()))
        #expect(gateway.routes.routes.allSatisfy { $0.payloadFormat == .v1 && $0.kind == .rest })
        #expect(gateway.authorizers.values.allSatisfy { $0.payloadFormat == .v1 })
    }

    @Test func aTemplateWithoutRoutesIsRefusedByName() throws {
        let path = Self.fixtures.appendingPathComponent("template.json").path
        let template = try Template.load(path: path)
        #expect(throws: LocalAPIError.noRoutes(template: path)) {
            try LocalAPI.make(template: template, options: Self.options(RequestedExecutables()))
        }
        // Refused before anything is built for it.
        #expect(throws: LocalAPIError.noRoutes(template: path)) { try LocalAPI.functions(in: template) }
    }
}
