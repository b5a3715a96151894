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
        let put = WriteOperation.put(table: Self.table, item: app.item, condition: .itemNotExists)
        do {
            try await writeWithAssociation(put) { $0.filter { $0.id != app.id } + [app] }
        } catch StoreError.transactionCanceled(index: 0, _, _) {
            throw AppError.exists(app.id)
        }
        return app
    }

    /// Changes the registered app `id` with `change` (which throws `AppError` for a bad value:
    /// then nothing is stored); `AppError.notFound` when there is none. The app as stored.
    @discardableResult
    public func update(id: String, _ change: (inout App) throws(AppError) -> Void) async throws -> App {
        guard var app = try await app(id: id) else { throw AppError.notFound(id) }
        try change(&app)
        let put = WriteOperation.put(table: Self.table, item: app.item, condition: .attributeEquals("id", .string(id)))
        do {
            try await writeWithAssociation(put) { [app] in $0.map { $0.id == id ? app : $0 } }
        } catch StoreError.transactionCanceled(index: 0, _, _) {
            throw AppError.notFound(id)
        }
        return app
    }

    /// The native apps the registered apps list (`AppSiteAssociation`), as the CLI last wrote
    /// them: none before it wrote any. One item's read.
    public func siteAssociation() async throws -> AppSiteAssociation {
        guard let item = try await store.get(Self.table, key: ItemKey(.string(AppSiteAssociation.itemID))) else {
            return .empty
        }
        guard let association = AppSiteAssociation(item: item) else {
            throw AppError.invalid(AppSiteAssociation.itemID, "the stored item is not one gatehouse apps wrote")
        }
        return association
    }

    /// Writes `change` (an app's put or delete) and, in the same transaction, the site association
    /// of the apps it leaves (`leaving` the apps stored before), on the condition that no other
    /// command wrote that since it was read; tried again when one did.
    private func writeWithAssociation(_ change: WriteOperation, leaving: ([App]) -> [App]) async throws {
        for attempt in 1...5 {
            let current = try await siteAssociation()
            let next = try AppSiteAssociation(apps: leaving(try await list()), revision: current.revision + 1)
            let unchanged: WriteCondition =
                current.revision == 0 ? .itemNotExists : .attributeEquals("revision", .number(Double(current.revision)))
            do {
                try await store.transactWrite([change, .put(table: Self.table, item: next.item, condition: unchanged)])
                return
            } catch StoreError.transactionCanceled(index: 1, _, _) where attempt < 5 {
                continue
            }
        }
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

    /// Removes the app, then its server keys (`ServerKeys.removeAll`); `AppError.notFound` when
    /// there is none.
    public func remove(id: String) async throws {
        guard App.isValidID(id) else { throw AppError.notFound(id) }
        let delete = WriteOperation.delete(table: Self.table, key: ItemKey(.string(id)), condition: .itemExists)
        do {
            try await writeWithAssociation(delete) { $0.filter { $0.id != id } }
        } catch StoreError.transactionCanceled(index: 0, _, _) {
            throw AppError.notFound(id)
        }
        try await ServerKeys.removeAll(app: id, in: store)
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
