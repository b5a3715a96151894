import AWSSigning
import DynamoDBStore
import Foundation
import GatehouseJSON
import OutboundHTTP
import Store

// A separate process that uses the same store file as the tests: `StoreRacer PATH MODE ...`.
//   consume FIRST COUNT  try to consume item-FIRST ... (conditional delete), print "won KEY" per win
//   increment TIMES      add 1 to counter 1 TIMES times
//   write PREFIX         put PREFIX-0, PREFIX-1, ... forever, printing each key once put returned
#if canImport(Glibc)
import Glibc
#endif

let tables = [
    TableDefinition(name: "Tokens", partitionKey: .init(name: "id", type: .string), timeToLiveAttribute: "ttl"),
    TableDefinition(name: "Counters", partitionKey: .init(name: "n", type: .number)),
]

func say(_ line: String) {
    // Straight to the file: a line is out before the next write starts, even if killed after.
    var line = line + "\n"
    line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    say("usage: StoreRacer PATH consume FIRST COUNT | increment TIMES | write PREFIX")
    exit(2)
}
// PATH is a store file, or `dynamodb:PREFIX:ENDPOINT` for the tables PREFIX-Tokens and
// PREFIX-Counters on a DynamoDB endpoint (moto_server in the tests).
let store: any KeyValueStore
if arguments[1].hasPrefix("dynamodb:") {
    let parts = arguments[1].split(separator: ":", maxSplits: 2).map(String.init)
    store = DynamoDBStore(
        settings: DynamoDBSettings(
            region: "us-east-1", endpoint: parts[2],
            credentials: AWSCredentials(accessKeyID: "testing", secretAccessKey: "testing")),
        tables: tables.map { DynamoDBTable(definition: $0, physicalName: "\(parts[1])-\($0.name)") },
        http: OutboundHTTPClient(
            configuration: .patient()))
} else {
    store = try SQLiteStore(path: arguments[1], tables: tables)
}

// With RACER_BARRIER=DIR:COUNT, start only once COUNT racers have opened the store, so the race
// is real however slowly the processes were spawned.
if let barrier = ProcessInfo.processInfo.environment["RACER_BARRIER"], let colon = barrier.lastIndex(of: ":") {
    let folder = String(barrier[..<colon])
    let count = Int(barrier[barrier.index(after: colon)...])!
    _ = FileManager.default.createFile(atPath: "\(folder)/ready-\(getpid())", contents: nil)
    while ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter({ $0.hasPrefix("ready-") })
        .count < count
    {
        usleep(200)
    }
}

switch arguments[2] {
case "consume":
    let first = Int(arguments[3])!
    let count = Int(arguments[4])!
    for index in first..<(first + count) {
        let key = "item-\(index)"
        do {
            if try await store.delete("Tokens", key: ItemKey(.string(key)), condition: .itemExists) != nil {
                say("won \(key)")
            }
        } catch StoreError.conditionFailed {
        }
        // Give the other racers the core after every attempt: on two cores under load, one
        // racer could otherwise take all 200 items within its time slice, and the race the test
        // is about would not happen.
        sched_yield()
    }
case "increment":
    for _ in 0..<Int(arguments[3])! {
        _ = try await store.update("Counters", key: ItemKey(1), actions: [.add("value", 1)], condition: nil)
    }
    say("done")
case "write":
    let prefix = arguments[3]
    var index = 0
    while true {
        let key = "\(prefix)-\(index)"
        try await store.put(
            "Tokens", item: ["id": .string(key), "payload": .string(String(repeating: "p", count: 200))], condition: nil
        )
        say(key)
        index += 1
    }
default:
    say("unknown mode \(arguments[2])")
    exit(2)
}
