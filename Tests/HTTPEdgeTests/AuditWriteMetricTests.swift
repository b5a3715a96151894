import AuthKit
import GatehouseJSON
import LambdaRuntime
import Testing

@testable import HTTPEdge

/// What a function's adapter hands the audit log for each request, and the metric of a failed
/// audit write.
struct AuditWriteMetricTests {
    struct Answering: HTTPHandler {
        func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse { .json(200, [:]) }
    }

    @Test func aFailedWriteIsOneCountOfAuditWriteFailuresWithNothingElse() throws {
        let line = try JSONValue(parsing: Array(AuditWriteMetric.line(namespace: "Gatehouse/auth", timestamp: 1).utf8))
        #expect(line["AuditWriteFailures"] == 1)
        let metric = try #require(line["_aws"]?["CloudWatchMetrics"]?.arrayValue?.first)
        #expect(metric["Namespace"] == "Gatehouse/auth")
        #expect(metric["Metrics"] == [["Name": "AuditWriteFailures", "Unit": "Count"]])
        #expect(metric["Dimensions"] == [[]])
        #expect(line.objectValue?.keys.sorted() == ["AuditWriteFailures", "_aws"])
    }

    @Test func theRequestGivesItsSourceAndOnlyItsClientsFamily() {
        let request = HTTPRequest(
            format: .v2, method: "POST", path: "/auth/v1/token",
            headers: [
                "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0",
                "x-client-info": "supabase-js-web/2.45.0",
            ], sourceIP: "203.0.113.9")
        let audit = HTTPEdgeAdapter(handler: Answering(), metricsNamespace: nil).audit(of: request)
        #expect(audit.sourceIP == "203.0.113.9")
        #expect(audit.agent == .supabaseJS)
        let bare = HTTPEdgeAdapter(handler: Answering(), metricsNamespace: nil).audit(
            of: HTTPRequest(format: .v2, method: "GET", path: "/users/me"))
        #expect(bare.agent == nil && bare.sourceIP == nil)
    }
}
