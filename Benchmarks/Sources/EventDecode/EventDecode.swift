import Foundation
import GatehouseJSON
import LambdaEvents
import LambdaRuntime

/// What a typed function pays to decode its event: Foundation's JSONDecoder against the
/// runtime's JSONValueDecoder and against the runtime's own path (`EventDecoding`: read straight
/// from the bytes by `JSONReader` for payload 2.0 requests, no tree), on the project's sample
/// events, interleaved in one run; and the response written by `serializedJSON` against
/// JSONEncoder.
@main
struct EventDecode {
    static func main() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let rounds = 5
        let iterations = 4_000
        for name in ["user-profile", "exchange"] {
            let data = try Data(contentsOf: root.appendingPathComponent("events/\(name).json"))
            let bytes = Array(data)
            func foundation() throws -> APIGatewayV2Request {
                try JSONDecoder().decode(APIGatewayV2Request.self, from: data)
            }
            func decodable() throws -> APIGatewayV2Request {
                try bytes.withUnsafeBufferPointer { try JSONValueDecoder().decode(APIGatewayV2Request.self, from: $0) }
            }
            func runtime() throws -> APIGatewayV2Request {
                try bytes.withUnsafeBufferPointer { try EventDecoding.decode(APIGatewayV2Request.self, from: $0) }
            }
            guard try foundation() == decodable(), try foundation() == runtime() else {
                fatalError("the decoders disagree on \(name)")
            }
            var times: [[Double]] = [[], [], []]
            for _ in 0..<rounds {
                times[0].append(try measure(iterations, foundation))
                times[1].append(try measure(iterations, decodable))
                times[2].append(try measure(iterations, runtime))
            }
            let (f, d, r) = (median(times[0]), median(times[1]), median(times[2]))
            print(
                "events/\(name).json (\(bytes.count) B): JSONDecoder \(format(f)) µs,"
                    + " JSONValueDecoder \(format(d)) µs (\(String(format: "%.2f", f / d))x),"
                    + " runtime \(format(r)) µs (\(String(format: "%.2f", f / r))x)"
                    + " (median of \(rounds) rounds of \(iterations))")
        }
        try encodeResponse(rounds: rounds, iterations: iterations)
    }

    /// A typical answer (the signed-in user, as `GET /users/me` returns it) encoded by
    /// Foundation's JSONEncoder, as the runtime used to, against its `serializedJSON`, as it does now.
    static func encodeResponse(rounds: Int, iterations: Int) throws {
        let user: JSONValue = [
            "id": "usr_8f1c2a7e4b9d4c03a1e6", "email": "ada@example.com", "name": "Ada Lovelace",
            "providers": ["email", "apple"], "createdAt": 1_795_337_978,
        ]
        let response = APIGatewayV2Response(
            statusCode: 200, headers: ["content-type": "application/json", "cache-control": "no-store"],
            body: user.serialized)
        func foundation() throws -> Int {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(response).count
        }
        func runtime() throws -> Int { response.serializedJSON.count }
        var times: [[Double]] = [[], []]
        for _ in 0..<rounds {
            times[0].append(try measure(iterations, foundation))
            times[1].append(try measure(iterations, runtime))
        }
        let (f, r) = (median(times[0]), median(times[1]))
        print(
            "APIGatewayV2Response (\(try runtime()) B): JSONEncoder \(format(f)) µs, serializedJSON \(format(r)) µs,"
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
