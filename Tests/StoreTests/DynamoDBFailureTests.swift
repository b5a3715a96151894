import AWSSigning
import DynamoDBStore
import Foundation
import GatehouseJSON
import Hummingbird
import NIOCore
import OutboundHTTP
import Store
import Synchronization
import TestServers
import Testing

/// The DynamoDB store against an endpoint that throttles, fails or answers garbage: retries
/// are bounded and only for what may be retried, and the error names the operation and the
/// table, never a credential.
@Suite(.serialized)
struct DynamoDBFailureTests {
    /// What the test endpoint answers, one entry per request (the last repeats), and what it was
    /// asked: each request's operation and body.
    final class Script: Sendable {
        let answers: Mutex<[(HTTPResponse.Status, String)]>
        let requests = Mutex(0)
        let asked = Mutex<[(operation: String, body: JSONValue?)]>([])
        init(_ answers: [(HTTPResponse.Status, String)]) { self.answers = Mutex(answers) }

        func next(operation: String, body: JSONValue?) -> (HTTPResponse.Status, String) {
            requests.withLock { $0 += 1 }
            asked.withLock { $0.append((operation, body)) }
            return answers.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
        }
    }

    static let secret = "wJalrXUtnFEMI/K7MDENG-very-secret"

    func withEndpoint(_ script: Script, _ body: (DynamoDBStore) async throws -> Void) async throws {
        let router = Router()
        router.post("/") { request, _ -> Response in
            let target = request.headers.first { $0.name.canonicalName == "x-amz-target" }?.value ?? ""
            let bytes = try await request.body.collect(upTo: 1 << 20)
            let (status, text) = script.next(
                operation: String(target.split(separator: ".").last ?? ""),
                body: try? JSONValue(parsing: Array(bytes.readableBytesView)))
            return Response(
                status: status, headers: [.contentType: "application/x-amz-json-1.0"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        let server = try await LoopbackHTTPServer.start(router: router)
        let store = DynamoDBStore(
            settings: DynamoDBSettings(
                region: "us-east-1", endpoint: "http://127.0.0.1:\(server.port)",
                credentials: AWSCredentials(accessKeyID: "AKIDTEST", secretAccessKey: Self.secret, sessionToken: "tok")),
            tables: [DynamoDBTable(definition: StoreFixtures.tables[0], physicalName: "stack-Tokens-1")],
            http: StoreFixtures.patientHTTP)
        do {
            try await body(store)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static let throttled = (
        HTTPResponse.Status.badRequest,
        #"{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"slow down"}"#
    )

    @Test func throttlingIsTriedFourTimesThenNamedInTheError() async throws {
        let script = Script([Self.throttled])
        try await withEndpoint(script) { store in
            do {
                try await store.put("Tokens", item: ["id": "a"], condition: nil)
                Issue.record("the put should have failed")
            } catch let error as StoreError {
                guard case .unavailable(let operation, let table, let reason) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(operation == "PutItem" && table == "Tokens")
                #expect(reason.contains("ProvisionedThroughputExceededException"))
                #expect(!"\(error)".contains(Self.secret) && !"\(error)".contains("tok"))
            }
        }
        #expect(script.requests.withLock { $0 } == 4)
    }

    @Test func aServerErrorThenSuccessIsRetriedOnce() async throws {
        let script = Script([(.internalServerError, "<html>oops</html>"), (.ok, "{}")])
        try await withEndpoint(script) { store in
            try await store.put("Tokens", item: ["id": "a"], condition: nil)
        }
        #expect(script.requests.withLock { $0 } == 2)
    }

    @Test func garbageAndAFailedConditionAreAnsweredAtOnce() async throws {
        let garbage = Script([(.ok, "this is not json")])
        try await withEndpoint(garbage) { store in
            await #expect(throws: StoreError.self) { try await store.get("Tokens", key: ItemKey("a")) }
        }
        #expect(garbage.requests.withLock { $0 } == 1)

        let refused = Script([
            (
                .badRequest,
                #"{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"The conditional request failed"}"#
            )
        ])
        try await withEndpoint(refused) { store in
            await #expect(throws: StoreError.conditionFailed(table: "Tokens", key: "a")) {
                try await store.put("Tokens", item: ["id": "a"], condition: .itemNotExists)
            }
        }
        #expect(refused.requests.withLock { $0 } == 1, "a failed condition is never retried")
    }

    @Test func aCancelledTransactionNamesTheOperationThatFailed() async throws {
        let script = Script([
            (
                .badRequest,
                #"{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","message":"cancelled","CancellationReasons":[{"Code":"None"},{"Code":"ConditionalCheckFailed","Message":"The conditional request failed"}]}"#
            )
        ])
        try await withEndpoint(script) { store in
            await #expect(throws: StoreError.transactionCanceled(index: 1, table: "Tokens", key: "b")) {
                try await store.transactWrite([
                    .put(table: "Tokens", item: ["id": "a"], condition: nil),
                    .put(table: "Tokens", item: ["id": "b"], condition: .itemNotExists),
                ])
            }
        }
        #expect(script.requests.withLock { $0 } == 1)
    }

    /// A `TransactionCanceledException` answer with these reasons, in the order of the operations;
    /// `found` puts an item (DynamoDB JSON) in the reason at its index.
    static func canceled(_ codes: [String], found: (index: Int, item: String)? = nil) -> (HTTPResponse.Status, String) {
        let reasons = codes.enumerated().map { index, code in
            let item = found.flatMap { $0.index == index ? #","Item":\#($0.item)"# : nil } ?? ""
            return #"{"Code":"\#(code)"\#(item)}"#
        }.joined(separator: ",")
        return (
            .badRequest,
            #"{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","message":"cancelled","CancellationReasons":[\#(reasons)]}"#
        )
    }

    /// A transaction canceled only by a conflict with another one in flight on one of its items
    /// (two refreshes of one user's sessions share the user's counter) wrote nothing, and is tried
    /// again, as is a single write that met a transaction in flight; a conflict beside a failed
    /// condition is the condition's answer, at once.
    @Test func aConflictWithATransactionInFlightIsTriedAgain() async throws {
        let transaction: [WriteOperation] = [
            .put(table: "Tokens", item: ["id": "a"], condition: nil),
            .put(table: "Tokens", item: ["id": "b"], condition: .itemNotExists),
        ]
        let conflicted = Script([Self.canceled(["None", "TransactionConflict"]), (.ok, "{}")])
        try await withEndpoint(conflicted) { store in try await store.transactWrite(transaction) }
        #expect(conflicted.requests.withLock { $0 } == 2)

        let single = Script([
            (
                .badRequest,
                #"{"__type":"com.amazonaws.dynamodb.v20120810#TransactionConflictException","message":"in flight"}"#
            ),
            (.ok, #"{"Attributes":{"id":{"S":"a"},"count":{"N":"1"}}}"#),
        ])
        try await withEndpoint(single) { store in
            _ = try await store.update("Tokens", key: ItemKey("a"), actions: [.add("count", 1)], condition: nil)
        }
        #expect(single.requests.withLock { $0 } == 2)

        let refused = Script([Self.canceled(["TransactionConflict", "ConditionalCheckFailed"])])
        try await withEndpoint(refused) { store in
            await #expect(throws: StoreError.transactionCanceled(index: 1, table: "Tokens", key: "b")) {
                try await store.transactWrite(transaction)
            }
        }
        #expect(refused.requests.withLock { $0 } == 1)

        // Reasons that are not all transient are answered at once; conflicts that go on end as
        // unavailable after the four tries.
        for codes in [["None", "None"], ["TransactionConflict", "ValidationError"]] {
            let invalid = Script([Self.canceled(codes)])
            try await withEndpoint(invalid) { store in
                await #expect(throws: StoreError.self) { try await store.transactWrite(transaction) }
            }
            #expect(invalid.requests.withLock { $0 } == 1, "\(codes)")
        }
        let endless = Script([Self.canceled(["TransactionConflict", "None"])])
        try await withEndpoint(endless) { store in
            do {
                try await store.transactWrite(transaction)
                Issue.record("the transaction should have failed")
            } catch StoreError.unavailable(let operation, _, let reason) {
                #expect(operation == "TransactWriteItems" && reason.contains("TransactionCanceledException"))
            }
        }
        #expect(endless.requests.withLock { $0 } == 4)
    }

    /// An update in a transaction asks for what it found should its condition fail: a live item
    /// (a counter at its cap) is the answer at once, with no delete tried; an expired one is
    /// deleted and the transaction made again; without the item in the answer, the delete is
    /// tried as before.
    @Test func aFailedUpdateInATransactionTriesADeleteOnlyForAnExpiredItem() async throws {
        let transaction: [WriteOperation] = [
            .put(table: "Tokens", item: ["id": "a"], condition: nil),
            .update(
                table: "Tokens", key: ItemKey("b"), actions: [.add("count", 1)], condition: .attributeBelow("count", 2)),
        ]
        func canceled(found item: String?) -> (HTTPResponse.Status, String) {
            Self.canceled(["None", "ConditionalCheckFailed"], found: item.map { (1, $0) })
        }
        let now = Int(Date().timeIntervalSince1970)
        let capped = Script([canceled(found: #"{"id":{"S":"b"},"count":{"N":"2"},"ttl":{"N":"\#(now + 60)"}}"#)])
        try await withEndpoint(capped) { store in
            await #expect(throws: StoreError.transactionCanceled(index: 1, table: "Tokens", key: "b")) {
                try await store.transactWrite(transaction)
            }
        }
        #expect(capped.requests.withLock { $0 } == 1)
        // The update asked for what it found; the put did not need to.
        let items = capped.asked.withLock { $0.first?.body?["TransactItems"]?.arrayValue } ?? []
        #expect(items.count == 2)
        #expect(items.first?["Put"]?["ReturnValuesOnConditionCheckFailure"] == nil)
        #expect(items.last?["Update"]?["ReturnValuesOnConditionCheckFailure"] == "ALL_OLD")

        let expired = Script([
            canceled(found: #"{"id":{"S":"b"},"count":{"N":"2"},"ttl":{"N":"\#(now - 60)"}}"#), (.ok, "{}"),
            (.ok, "{}"),
        ])
        try await withEndpoint(expired) { store in try await store.transactWrite(transaction) }
        #expect(
            expired.asked.withLock { $0.map(\.operation) } == [
                "TransactWriteItems", "DeleteItem", "TransactWriteItems",
            ])

        let silent = Script([
            canceled(found: nil),
            (
                .badRequest,
                #"{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"not expired"}"#
            ),
        ])
        try await withEndpoint(silent) { store in
            await #expect(throws: StoreError.transactionCanceled(index: 1, table: "Tokens", key: "b")) {
                try await store.transactWrite(transaction)
            }
        }
        #expect(silent.requests.withLock { $0 } == 2, "the transaction, then the delete tried as before")

        // An item in a reason never reaches an error's text.
        let invalid = Script([
            Self.canceled(["None", "ValidationError"], found: (1, #"{"id":{"S":"b"},"hash":{"S":"5ecret-hash"}}"#))
        ])
        try await withEndpoint(invalid) { store in
            do {
                try await store.transactWrite(transaction)
                Issue.record("the transaction should have failed")
            } catch {
                #expect(!"\(error)".contains("5ecret-hash"))
                #expect("\(error)".contains("TransactionCanceledException"))
            }
        }
    }
}
