import AuthKit
import GatehouseJSON
import Store
import Testing

/// `AppRegistry` keeps the site association (`AppSiteAssociation`) in one item of `Apps`,
/// written in the transaction that adds, changes or removes an app, so a function reads it
/// with one `GetItem` and never lists the table.
struct AppRegistryAssociationTests {
    static let fingerprint = AppSiteAssociationTests.other

    @Test func theAssociationFollowsEveryChangeOfAnApp() async throws {
        let store = try SessionFixtures.store(clock: TestClock(SessionFixtures.start))
        let apps = AppRegistry(store: store)
        #expect(try await apps.siteAssociation() == .empty, "none before any app lists one")
        try await apps.ensureDemoApp()
        let shop = try App(
            id: "shop", name: "Shop", baseURL: nil, mobileScheme: "com.example.shop", publicKeys: [],
            appleAppIDs: ["ABCDE12345.com.example.shop"])
        try await apps.add(shop)
        #expect(try await apps.siteAssociation().appleAppIDs == ["ABCDE12345.com.example.shop"])
        let android = try AndroidApp(packageName: "com.example.shop", fingerprints: [Self.fingerprint])
        let changed = try await apps.update(id: "shop") { (app: inout App) throws(AppError) in
            try app.associate(appleAppIDs: app.appleAppIDs + ["ABCDE12345.com.example.shop2"], androidApps: [android])
        }
        let stored = try await apps.app(id: "shop")
        #expect(changed.publishableKey != nil && changed.publishableKey == stored?.publishableKey)
        let association = try await apps.siteAssociation()
        #expect(association.appleAppIDs == ["ABCDE12345.com.example.shop", "ABCDE12345.com.example.shop2"])
        #expect(association.androidApps == [android])
        #expect(association.revision == 3, "the demo app's, shop's and the change's")
        // The item is no app: listing skips it, and neither its id nor a key naming it finds one.
        #expect(try await apps.list().map(\.id) == ["demo", "shop"])
        #expect(try await apps.app(id: AppSiteAssociation.itemID) == nil)
        await #expect(throws: AppError.notFound(AppSiteAssociation.itemID)) {
            try await apps.remove(id: AppSiteAssociation.itemID)
        }
        try await apps.remove(id: "shop")
        #expect(try await apps.siteAssociation().appleAppIDs.isEmpty)
        #expect(try await apps.siteAssociation().revision == 4)
    }

    /// A bad value, a taken id or a missing app stores nothing: neither the app nor the association.
    @Test func aRefusedChangeStoresNothing() async throws {
        let store = try SessionFixtures.store(clock: TestClock(SessionFixtures.start))
        let apps = AppRegistry(store: store)
        let shop = try App(
            id: "shop", name: "Shop", baseURL: nil, mobileScheme: "com.example.shop", publicKeys: [],
            appleAppIDs: ["ABCDE12345.com.example.shop"])
        try await apps.add(shop)
        let before = try await apps.siteAssociation()
        await #expect(throws: AppError.self) {
            try await apps.update(id: "shop") { (app: inout App) throws(AppError) in
                try app.associate(appleAppIDs: ["abcde12345.com.example.shop"], androidApps: [])
            }
        }
        let again = try App(
            id: "shop", name: "Other", baseURL: nil, mobileScheme: "com.example.other", publicKeys: [],
            appleAppIDs: ["ZZZZZ12345.com.example.other"])
        await #expect(throws: AppError.exists("shop")) { try await apps.add(again) }
        await #expect(throws: AppError.notFound("nope")) {
            try await apps.update(id: "nope") { (app: inout App) throws(AppError) in
                try app.associate(appleAppIDs: ["ZZZZZ12345.com.example.other"], androidApps: [])
            }
        }
        #expect(try await apps.siteAssociation() == before)
        #expect(try await apps.app(id: "shop")?.appleAppIDs == ["ABCDE12345.com.example.shop"])
    }

    /// Another command's write between this one's read and its transaction (the revision moved
    /// on) does not get lost: the transaction is refused and tried again on what is there now.
    @Test func aConcurrentChangeIsNotLost() async throws {
        let base = try SessionFixtures.store(clock: TestClock(SessionFixtures.start))
        let store = RecordingStore(base)
        let first = try App(
            id: "one", name: "One", baseURL: nil, mobileScheme: "com.example.one", publicKeys: [],
            appleAppIDs: ["ABCDE12345.com.example.one"])
        let second = try App(
            id: "two", name: "Two", baseURL: nil, mobileScheme: "com.example.two", publicKeys: [],
            appleAppIDs: ["ABCDE12345.com.example.two"])
        store.beforeNextTransaction { try await AppRegistry(store: base).add(second) }
        store.reset()
        try await AppRegistry(store: store).add(first)
        #expect(store.calls.filter { $0.hasPrefix("transactWrite") }.count == 2, "refused once, then written")
        #expect(
            try await AppRegistry(store: base).siteAssociation().appleAppIDs == [
                "ABCDE12345.com.example.one", "ABCDE12345.com.example.two",
            ])
    }

    /// An association item the CLI did not write is an error by name, never an empty file.
    @Test func anUnreadableAssociationIsAnError() async throws {
        let store = try SessionFixtures.store(clock: TestClock(SessionFixtures.start))
        try await store.put(
            AppRegistry.table, item: ["id": .string(AppSiteAssociation.itemID), "revision": "x"], condition: nil)
        await #expect(throws: AppError.invalid(".well-known", "the stored item is not one gatehouse apps wrote")) {
            try await AppRegistry(store: store).siteAssociation()
        }
    }
}
