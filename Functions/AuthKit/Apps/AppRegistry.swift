import GatehouseJSON
import StoreCore

/// The registered apps, in the `Apps` table.
public struct AppRegistry: Sendable {
    public static let table = "Apps"

    private let store: any KeyValueStore

    public init(store: any KeyValueStore) {
        self.store = store
    }

    /// Registers `app`, with a new publishable key unless it has one; `AppError.exists` when
    /// its id is taken. The app as stored.
    @discardableResult
    public func add(_ app: App) async throws -> App {
        var app = app
        if app.publishableKey == nil { app.publishableKey = PublishableKey.make(for: app.id) }
        do {
            try await store.put(Self.table, item: app.item, condition: .itemNotExists)
        } catch StoreError.conditionFailed {
            throw AppError.exists(app.id)
        }
        return app
    }

    /// The app a client's `apikey` names, when the key is that app's (compared in constant
    /// time); nil otherwise.
    public func app(publishableKey key: String) async throws -> App? {
        guard let id = PublishableKey.appID(in: key), let app = try await app(id: id),
            let stored = app.publishableKey, ConstantTime.equal(stored, key)
        else { return nil }
        return app
    }

    public func app(id: String) async throws -> App? {
        try await store.get(Self.table, key: ItemKey(.string(id))).flatMap(App.init(item:))
    }

    /// The transaction write that requires the app `id` to be registered, writing nothing.
    public static func existence(of id: String) -> WriteOperation {
        .check(table: table, key: ItemKey(.string(id)), condition: .itemExists)
    }

    /// Every app, by id.
    public func list() async throws -> [App] {
        try await store.scan(Self.table, limit: nil).compactMap(App.init(item:))
    }

    /// Removes the app; `AppError.notFound` when there is none.
    public func remove(id: String) async throws {
        guard try await store.delete(Self.table, key: ItemKey(.string(id)), condition: nil) != nil else {
            throw AppError.notFound(id)
        }
    }

    /// The local demo app (`demo`, http://127.0.0.1:3000, `gatehouse-demo://`), so a fresh store
    /// works out of the box. Registers it unless an app with its id exists. Every `gatehouse`
    /// command that opens the store calls this, so it reads first: only a fresh store is written.
    public func ensureDemoApp() async throws {
        if var existing = try await app(id: "demo") {
            // A demo app stored before publishable keys existed gets one.
            guard existing.publishableKey == nil else { return }
            existing.publishableKey = PublishableKey.make(for: "demo")
            _ = try? await store.put(
                Self.table, item: existing.item, condition: .attributeEquals("id", .string("demo")))
            return
        }
        let demo = try App(
            id: "demo", name: "Demo app", baseURL: "http://127.0.0.1:3000", mobileScheme: "gatehouse-demo",
            publicKeys: [])
        do {
            try await add(demo)
        } catch AppError.exists {
        }
    }

    /// Points the demo app's web side at `baseURL` (where `gatehouse start-api` listens), so its
    /// sign-ins come back to that server. Changes nothing unless the demo app's base URL is
    /// another loopback address: a demo app pointed elsewhere on purpose is left alone.
    public func pointDemoApp(at baseURL: String) async throws {
        guard var demo = try await app(id: "demo"), let current = demo.baseURL, current != baseURL,
            ["http://127.0.0.1:", "http://localhost:"].contains(where: current.hasPrefix)
        else { return }
        demo.baseURL = baseURL
        try await store.put(Self.table, item: demo.item, condition: .itemExists)
    }
}
