import Foundation
import LambdaRuntime

/// What a typed function pays to decode its event: Foundation's JSONDecoder against the
/// runtime's JSONValueDecoder, on the project's sample events, interleaved in one run.
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
            func runtime() throws -> APIGatewayV2Request {
                try bytes.withUnsafeBufferPointer { try JSONValueDecoder().decode(APIGatewayV2Request.self, from: $0) }
            }
            guard try foundation() == runtime() else { fatalError("the two decoders disagree on \(name)") }
            var foundationTimes: [Double] = []
            var runtimeTimes: [Double] = []
            for _ in 0..<rounds {
                foundationTimes.append(try measure(iterations, foundation))
                runtimeTimes.append(try measure(iterations, runtime))
            }
            let f = median(foundationTimes)
            let r = median(runtimeTimes)
            print(
                "events/\(name).json (\(bytes.count) B): JSONDecoder \(format(f)) µs, JSONValueDecoder \(format(r)) µs,"
                    + " \(String(format: "%.2f", f / r))x (median of \(rounds) rounds of \(iterations))")
        }
    }

    static func measure(_ iterations: Int, _ body: () throws -> APIGatewayV2Request) throws -> Double {
        for _ in 0..<100 { _ = try body() }
        let elapsed = try ContinuousClock().measure { for _ in 0..<iterations { _ = try body() } }
        return (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
            / Double(iterations)
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
