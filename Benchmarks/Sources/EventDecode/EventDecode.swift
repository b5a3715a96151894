import Foundation
import GatehouseJSON
import HTTPEdge
import LambdaRuntime

/// What an HTTP function pays to read its event and write its answer: Foundation's JSONDecoder
/// (into a Decodable of the same members), the runtime's JSONValueDecoder (a tree, then
/// Decodable), and HTTPEdge's reader (straight from the bytes, only the members a handler uses),
/// on the project's sample events, interleaved in one run; and the answer written by
/// `HTTPResponse.serialized(for:)` against JSONEncoder.
@main
struct EventDecode {
    /// The members HTTPEdge's reader takes from a payload 2.0 event, as a Decodable.
    struct Event: Decodable {
        struct Context: Decodable {
            struct HTTP: Decodable {
                var method: String
                var sourceIp: String
            }
            var http: HTTP
            var requestId: String
            var authorizer: [String: JSONValue]?
        }
        var rawPath: String
        var headers: [String: String]?
        var queryStringParameters: [String: String]?
        var pathParameters: [String: String]?
        var cookies: [String]?
        var body: String?
        var isBase64Encoded: Bool?
        var requestContext: Context
    }

    /// A payload 2.0 answer, as an Encodable.
    struct Answer: Encodable {
        var body: String?
        var headers: [String: String]
        var isBase64Encoded: Bool
        var statusCode: Int
    }

    static func main() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let rounds = 5
        let iterations = 4_000
        for name in ["user-profile", "exchange"] {
            let data = try Data(contentsOf: root.appendingPathComponent("events/\(name).json"))
            let bytes = Array(data)
            func foundation() throws -> String { try JSONDecoder().decode(Event.self, from: data).rawPath }
            func decodable() throws -> String {
                try bytes.withUnsafeBufferPointer { try JSONValueDecoder().decode(Event.self, from: $0) }.rawPath
            }
            func edge() throws -> String {
                try bytes.withUnsafeBufferPointer { try HTTPRequest(event: $0, format: .v2) }.path
            }
            guard try foundation() == decodable(), try foundation() == edge() else {
                fatalError("the readers disagree on \(name)")
            }
            var times: [[Double]] = [[], [], []]
            for _ in 0..<rounds {
                times[0].append(try measure(iterations, foundation))
                times[1].append(try measure(iterations, decodable))
                times[2].append(try measure(iterations, edge))
            }
            let (f, d, r) = (median(times[0]), median(times[1]), median(times[2]))
            print(
                "events/\(name).json (\(bytes.count) B): JSONDecoder \(format(f)) µs,"
                    + " JSONValueDecoder \(format(d)) µs (\(String(format: "%.2f", f / d))x),"
                    + " HTTPEdge \(format(r)) µs (\(String(format: "%.2f", f / r))x)"
                    + " (median of \(rounds) rounds of \(iterations))")
        }
        try encodeResponse(rounds: rounds, iterations: iterations)
    }

    /// A typical answer (the signed-in user, as `GET /users/me` returns it) encoded by
    /// Foundation's JSONEncoder against HTTPEdge's `serialized(for:)`.
    static func encodeResponse(rounds: Int, iterations: Int) throws {
        let user: JSONValue = [
            "id": "usr_8f1c2a7e4b9d4c03a1e6", "email": "ada@example.com", "name": "Ada Lovelace",
            "providers": ["email", "apple"], "createdAt": 1_795_337_978,
        ]
        let response = HTTPResponse.json(200, user)
        let answer = Answer(
            body: response.body, headers: response.headers, isBase64Encoded: false, statusCode: 200)
        func foundation() throws -> Int {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(answer).count
        }
        func edge() throws -> Int { response.serialized(for: .v2).count }
        var times: [[Double]] = [[], []]
        for _ in 0..<rounds {
            times[0].append(try measure(iterations, foundation))
            times[1].append(try measure(iterations, edge))
        }
        let (f, r) = (median(times[0]), median(times[1]))
        print(
            "HTTPResponse (\(try edge()) B): JSONEncoder \(format(f)) µs, serialized(for:) \(format(r)) µs,"
                + " \(String(format: "%.2f", f / r))x (median of \(rounds) rounds of \(iterations))")
    }

    static func measure<T>(_ iterations: Int, _ body: () throws -> T) throws -> Double {
        for _ in 0..<100 { _ = try body() }
        let elapsed = try ContinuousClock().measure { for _ in 0..<iterations { _ = try body() } }
        return (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
            / Double(iterations)
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
