import GatehouseJSON
import StoreCore

/// The apps' server keys in the `Apps` table: made and revoked by the CLI (`gatehouse apps
/// key`), checked by the admin function with one get of the key's hash.
public struct ServerKeys: Sendable {
    /// Requests per key: 600 a minute, counted before anything is done.
    public static let requestsPerKey = RateLimit(name: "server-key:key", limit: 600, window: 60)
    /// Refused keys per source: 30 a minute (a 256-bit secret is not guessed, but no source
    /// tries without limit).
    public static let refusalsPerSource = RateLimit.perSource(name: "server-key:source", limit: 30, window: 60)

    private let store: any KeyValueStore
    private let clock: any StoreClock

    public init(store: any KeyValueStore, clock: any StoreClock) {
        self.store = store
        self.clock = clock
    }

    /// A new key of the registered app `app`: the secret (shown once, stored nowhere) and the
    /// key. The key's item and the app's list change in one transaction, on the condition that
    /// the app exists and its list is as read.
    public func create(app: String) async throws -> (secret: String, key: ServerKey) {
        let secret = ServerKey.makeSecret()
        let hash = ServerKey.hash(of: secret)
        let key = ServerKey(
            id: String(SHA256Hex.of(Array(hash.utf8)).prefix(12)), app: app, hash: hash,
            createdAt: (clock.now * 1000).rounded(.down))
        try await changeList(
            of: app, extra: [.put(table: AppRegistry.table, item: key.item, condition: .itemNotExists)]
        ) {
            $0 + [key]
        }
        return (secret, key)
    }

    /// The app's keys, oldest first: ids and times, never a secret or hash shown.
    public func list(app: String) async throws -> [ServerKey] {
        try await listed(app: app).keys
    }

    /// Revokes `keyID` of `app`: its item deleted (so the next request with it is refused),
    /// with the app's list. `ServerKeyError.notFound` when the app has no such key.
    public func revoke(app: String, keyID: String) async throws {
        guard let key = try await list(app: app).first(where: { $0.id == keyID }) else {
            throw ServerKeyError.notFound(keyID)
        }
        let delete = WriteOperation.delete(
            table: AppRegistry.table, key: ServerKey.itemKey(hash: key.hash), condition: nil)
        try await changeList(of: app, extra: [delete]) { $0.filter { $0.id != keyID } }
    }

    /// Deletes every server key of `app` and its list: what removing the app does, so that an
    /// app registered again under the same id never finds its predecessor's keys alive.
    static func removeAll(app: String, in store: any KeyValueStore) async throws {
        guard let list = try await store.get(AppRegistry.table, key: ServerKey.listKey(app: app)) else { return }
        for key in (list["keys"]?.arrayValue ?? []).compactMap({ ServerKey(entry: $0, app: app) }) {
            _ = try await store.delete(AppRegistry.table, key: ServerKey.itemKey(hash: key.hash), condition: nil)
        }
        _ = try await store.delete(AppRegistry.table, key: ServerKey.listKey(app: app), condition: nil)
    }

    /// The key a request's `apikey` and `Authorization: Bearer` carry, checked: the same key in
    /// both (when a bearer is sent), no `Origin` and no fetch metadata (a `Sec-Fetch-*` header's
    /// value: a browser sends them even where it sends no `Origin`) (`fromBrowser`), a stored key
    /// of a registered app (`invalid`; `publishableKey` for an app's publishable key), under its
    /// limit. `sourceIP` counts refusals per source.
    public func authenticate(
        apikey: String?, authorization: String?, origin: String?, fetchMetadata: String? = nil, sourceIP: String?
    ) async throws -> ServerKey {
        guard origin == nil, fetchMetadata == nil else { throw ServerKeyError.fromBrowser }
        let limiter = RateLimiter(store: store, clock: clock)
        let key: ServerKey
        do {
            key = try await check(apikey: apikey, authorization: authorization)
        } catch let refusal as ServerKeyError {
            if let sourceIP,
                case .limited(let seconds) = try await limiter.hit(Self.refusalsPerSource, subject: sourceIP)
            {
                throw ServerKeyError.rateLimited(retryAfter: seconds)
            }
            throw refusal
        }
        if case .limited(let seconds) = try await limiter.hit(Self.requestsPerKey, subject: key.id) {
            throw ServerKeyError.rateLimited(retryAfter: seconds)
        }
        return key
    }

    /// The stored key `apikey` is, the bearer (when sent) the same one.
    private func check(apikey: String?, authorization: String?) async throws -> ServerKey {
        guard let apikey, !apikey.isEmpty else { throw ServerKeyError.invalid }
        if let authorization {
            guard let bearer = BearerToken.parse(authorization), ConstantTime.equal(String(bearer), apikey) else {
                throw ServerKeyError.invalid
            }
        }
        guard ServerKey.isShaped(apikey) else {
            throw PublishableKey.appID(in: apikey) != nil ? ServerKeyError.publishableKey : ServerKeyError.invalid
        }
        let hash = ServerKey.hash(of: apikey)
        guard let item = try await store.get(AppRegistry.table, key: ServerKey.itemKey(hash: hash)),
            let key = ServerKey(item: item), ConstantTime.equal(key.hash, hash),
            try await AppRegistry(store: store).app(id: key.app) != nil
        else { throw ServerKeyError.invalid }
        return key
    }

    /// The app's list of keys as stored, and the condition that it is still so.
    private func listed(app: String) async throws -> (keys: [ServerKey], unchanged: WriteCondition) {
        guard let item = try await store.get(AppRegistry.table, key: ServerKey.listKey(app: app)) else {
            return ([], .itemNotExists)
        }
        let keys = (item["keys"]?.arrayValue ?? []).compactMap { ServerKey(entry: $0, app: app) }
        return (keys, .attributeEquals("revision", item["revision"] ?? .number(0)))
    }

    /// Writes `extra` and the app's list as `change` leaves it, in one transaction that requires
    /// the app and the list as read; tried again when another command changed the list.
    private func changeList(
        of app: String, extra: [WriteOperation], _ change: ([ServerKey]) -> [ServerKey]
    ) async throws {
        for attempt in 1...5 {
            let (keys, unchanged) = try await listed(app: app)
            let revision = Double(attempt) + (clock.now * 1000).rounded(.down)
            let list: Item = [
                "id": ServerKey.listKey(app: app).partition, "revision": .number(revision),
                "keys": .array(change(keys).map(\.entry)),
            ]
            do {
                try await store.transactWrite(
                    [AppRegistry.existence(of: app), .put(table: AppRegistry.table, item: list, condition: unchanged)]
                        + extra)
                return
            } catch StoreError.transactionCanceled(index: 0, _, _) {
                throw AppError.notFound(app)
            } catch StoreError.transactionCanceled(index: 1, _, _) where attempt < 5 {
                continue
            }
        }
        throw AppError.invalid(app, "its server keys changed five times meanwhile; try again")
    }
}
