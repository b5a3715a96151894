import AuthKit
import Crypto
import Foundation
import GatehouseJSON
import JOSE
import Store
import _CryptoExtras

#if canImport(Glibc)
import Glibc
#endif

// Exchanges and refreshes per second, in-process on one core, with the store on a temporary
// file (WAL, synchronous=NORMAL, as functions run), against swift-crypto's raw RSA-2048
// PKCS#1 v1.5 signature of an access token's signing input in the same run: signing is the
// floor of both operations.
//
// An exchange consumes a code (conditional delete), reads the user, starts a session (a
// transaction of two puts), signs the access token. A refresh reads the token, rotates it (a
// conditional transaction), reads the user, signs. The codes for each batch are minted before
// the batch's clock starts. The three sides alternate in batches of 20, so drift on a noisy
// machine hits them alike.
//
//   swift run -c release --package-path Benchmarks sessions [seconds-per-round] [rounds]

func monotonic() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func format(_ value: Double) -> String { String(format: "%.2f", value) }

/// One side of the comparison: `prepare` runs before a batch, off the clock; `operation` is timed.
struct Side {
    let prepare: (Int) async throws -> Void
    let operation: () async throws -> Void
}

/// Runs the sides in turn, a batch of `batch` operations each, for about `seconds` in all;
/// returns each side's operations per second.
nonisolated func interleavedRates(seconds: Double, batch: Int, _ sides: [Side]) async throws -> [Double] {
    var times = [Double](repeating: 0, count: sides.count)
    var count = 0
    while times.reduce(0, +) < seconds {
        for (index, side) in sides.enumerated() {
            try await side.prepare(batch)
            let start = monotonic()
            for _ in 0..<batch { try await side.operation() }
            times[index] += monotonic() - start
        }
        count += batch
    }
    return times.map { Double(count) / $0 }
}

/// Values that change as the benchmark runs, for the closures to share.
final class Queue<Element>: @unchecked Sendable {
    // Only the benchmark's one task touches it, one closure at a time.
    var items: [Element] = []
    var next = 0
    func pop() -> Element {
        defer { next += 1 }
        return items[next]
    }
    func refill(_ new: [Element]) {
        items = new
        next = 0
    }
}

nonisolated func run() async throws {
    let secondsPerRound = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 2.0
    let rounds = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 7
    let batchSize = CommandLine.arguments.dropFirst(3).first.flatMap(Int.init) ?? 20

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sessions-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let tables = [
        TableDefinition(name: "Users", partitionKey: .init(name: "id", type: .string)),
        TableDefinition(name: "UserIndex", partitionKey: .init(name: "key", type: .string)),
        TableDefinition(
            name: "AuthCodes", partitionKey: .init(name: "code", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "Sessions", partitionKey: .init(name: "userId", type: .string),
            sortKey: .init(name: "sessionId", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "RefreshTokens", partitionKey: .init(name: "tokenHash", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(name: "Apps", partitionKey: .init(name: "id", type: .string)),
        // A refresh counts against the user's limit (`SessionService.refreshesPerUser`).
        TableDefinition(
            name: "RateLimits", partitionKey: .init(name: "key", type: .string), timeToLiveAttribute: "ttl"),
    ]
    let store = try SQLiteStore(path: folder.appendingPathComponent("store.sqlite").path, tables: tables)
    try await AppRegistry(store: store).ensureDemoApp()
    let clock = SystemStoreClock()
    // Read back from its JWKS file form, as a function loads its keys.
    let keys = try SigningKeySet(jwksJSON: SigningKeySet.generate().privateJWKSJSON())
    let service = SessionService(
        store: store, clock: clock, settings: SessionSettings(issuer: "http://127.0.0.1:3000"), keys: keys)

    // Enough users that no one of them refreshes more than `refreshesPerUser` allows (10 a
    // minute) in a run of a few thousand refreshes a second for a few seconds.
    let userCount = 4096
    var users: [User] = []
    for index in 0..<userCount {
        users.append(
            try await service.users.findOrCreate(
                email: EmailAddress("user\(index)@example.com")!, name: "User \(index)"
            ).user)
    }

    // The raw side: an access token's signing input, signed with the same kind of key.
    let rawKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
    let sample = try await service.accessTokens.issue(
        for: .init(id: users[0].id, email: users[0].email, name: users[0].name, provider: "email", isNewUser: false),
        session: SessionState(
            userID: users[0].id, sessionID: "s", app: "demo", method: "email", startedAt: 0, endsAt: 0)
    ).token
    let signingInput = Array(sample.utf8[..<sample.utf8.lastIndex(of: UInt8(ascii: "."))!])

    let codes = Queue<String>()
    var nextUser = 0
    // One live refresh token per user; each refresh replaces it with the rotated one.
    var refreshTokens: [String] = []
    for user in users {
        let code = try await service.codes.mint(app: "demo", user: user, provider: "email", isNewUser: false)
        refreshTokens.append(try await service.exchange(code: code, app: "demo").refreshToken)
    }
    var nextRefresh = 0

    let sides = [
        Side(
            prepare: { _ in },
            operation: {
                _ = try rawKey.signature(for: SHA256.hash(data: signingInput), padding: .insecurePKCS1v1_5)
            }),
        Side(
            prepare: { count in
                var minted: [String] = []
                for _ in 0..<count {
                    nextUser = (nextUser + 1) & 63
                    minted.append(
                        try await service.codes.mint(
                            app: "demo", user: users[nextUser], provider: "email", isNewUser: false))
                }
                codes.refill(minted)
            },
            operation: { _ = try await service.exchange(code: codes.pop(), app: "demo") }),
        Side(
            prepare: { _ in },
            operation: {
                nextRefresh = (nextRefresh + 1) % userCount
                refreshTokens[nextRefresh] = try await service.refresh(token: refreshTokens[nextRefresh]).refreshToken
            }),
        // The signature alone, with the loaded key: tells the key's form apart from the rest.
        Side(prepare: { _ in }, operation: { _ = try keys.current.signRS256(signingInput) }),
    ]

    if CommandLine.arguments.dropFirst().first == "profile-refresh" {
        // Rotations alone (no signature), for `perf record -g`.
        var token = refreshTokens[0]
        let start = monotonic()
        var count = 0
        while monotonic() - start < 5 {
            token = try await service.refreshTokens.refresh(token).token
            count += 1
        }
        print("\(count / 5) rotations/s")
        return
    }
    if CommandLine.arguments.dropFirst().first == "profile-exchange" {
        // Exchanges alone, for `perf record -g`.
        var minted: [String] = []
        for index in 0..<4_000 {
            minted.append(
                try await service.codes.mint(app: "demo", user: users[index & 63], provider: "email", isNewUser: false))
        }
        let start = monotonic()
        for code in minted { _ = try await service.exchange(code: code, app: "demo") }
        print("\(Int(Double(minted.count) / (monotonic() - start))) exchanges/s")
        return
    }
    if CommandLine.arguments.dropFirst().first == "stages" {
        // An exchange taken apart: each variant alternates with the raw signature, and its cost
        // beyond the signature is reported as a share of it. The variants rebuild the exchange
        // from AuthKit's public pieces, leaving out one step at a time.
        func variant(_ name: String, _ body: @escaping (String) async throws -> Void) async throws {
            let sides = [
                sides[0],
                Side(
                    prepare: sides[1].prepare,
                    operation: { try await body(codes.pop()) }),
            ]
            var ratios: [Double] = []
            for _ in 0..<5 {
                let rate = try await interleavedRates(seconds: 1.2, batch: 20, sides)
                ratios.append(rate[1] / rate[0])
            }
            let ratio = median(ratios)
            print("  \(name): \(format(ratio))x of the raw sign, overhead \(format(100 / ratio - 100))% of a signature")
        }
        /// Signs an access token for the code's user in session `sessionID`, as the exchange does
        /// (the default is as long as a session's ID, 16 random bytes in URL-safe base64).
        func sign(_ grant: AuthCodeGrant, sessionID: String = String(repeating: "s", count: 22)) async throws {
            _ = try await service.accessTokens.issue(
                for: .init(id: grant.userID, email: grant.email, name: grant.name, provider: "email", isNewUser: false),
                session: SessionState(
                    userID: grant.userID, sessionID: sessionID, app: "demo", method: "email", startedAt: 0, endsAt: 0))
        }
        /// Reads the code, runs a transaction of `writes` plus starting a session, signs.
        func transaction(_ code: String, _ extra: (AuthCodeGrant) -> [WriteOperation]) async throws {
            let grant = try await service.codes.peek(code)!
            let (session, writes) = service.refreshTokens.sessionStart(
                userID: grant.userID, app: "demo", provider: "email")
            try await store.transactWrite([AuthCodes.consumption(of: code, app: "demo")] + extra(grant) + writes)
            try await sign(grant, sessionID: session.sessionID)
        }
        try await variant("the exchange") { code in _ = try await service.exchange(code: code, app: "demo") }
        try await variant("peek + sign") { code in try await sign(try await service.codes.peek(code)!) }
        try await variant("peek + transaction + sign") { code in try await transaction(code) { _ in [] } }
        try await variant("peek + transaction with the two checks + sign") { code in
            try await transaction(code) { [UserDirectory.existence(of: $0.userID), AppRegistry.existence(of: "demo")] }
        }
        // The floor of the store's part: the exchange's three row changes in one transaction,
        // with no condition read or checked, nothing read before it (sessions for the same 64
        // users as the codes').
        var floorUser = 0
        try await variant("floor: the three row changes alone, unconditional, + sign") { code in
            floorUser = (floorUser + 1) & 63
            let (session, writes) = service.refreshTokens.sessionStart(
                userID: users[floorUser].id, app: "demo", provider: "email")
            let unconditional: [WriteOperation] = writes.map {
                guard case .put(let table, let item, _) = $0 else { return $0 }
                return .put(table: table, item: item, condition: nil)
            }
            try await store.transactWrite(
                [.delete(table: AuthCodes.table, key: ItemKey(.string(AuthCodes.hash(code))), condition: nil)]
                    + unconditional)
            try await sign(
                AuthCodeGrant(
                    app: "demo", userID: users[floorUser].id, email: nil, name: nil, provider: "email",
                    isNewUser: false, expiresAt: 0), sessionID: session.sessionID)
        }
        try await variant("transaction of the consume alone + sign") { code in
            try await store.transactWrite([AuthCodes.consumption(of: code, app: "demo")])
            try await sign(
                AuthCodeGrant(
                    app: "demo", userID: users[0].id, email: nil, name: nil, provider: "email", isNewUser: false,
                    expiresAt: 0))
        }
        return
    }

    var rates: [[Double]] = []
    for round in 0..<rounds {
        let rate = try await interleavedRates(seconds: secondsPerRound, batch: batchSize, sides)
        rates.append(rate)
        print(
            "round \(round + 1): raw sign \(Int(rate[0]))/s  exchange \(Int(rate[1]))/s (\(format(rate[1] / rate[0]))x)  refresh \(Int(rate[2]))/s (\(format(rate[2] / rate[0]))x)"
        )
    }
    func report(_ name: String, side: Int) {
        let ratios = rates.map { $0[side] / $0[0] }
        print(
            "\(name)  \(Int(median(rates.map { $0[side] })))/s  ratio to raw sign median \(format(median(ratios)))  range \(format(ratios.min()!))–\(format(ratios.max()!))"
        )
    }
    print("raw RSA-2048 sign  \(Int(median(rates.map { $0[0] })))/s")
    report("exchange", side: 1)
    report("refresh ", side: 2)
    report("JOSE sign alone (the loaded key)", side: 3)
    let sessions = try await store.scan("Sessions", limit: nil).count
    print("(\(sessions) sessions in the store at the end)")
}

try await run()
