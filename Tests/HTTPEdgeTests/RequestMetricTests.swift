import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Testing

/// Each answered request's Embedded Metric Format line: what CloudWatch reads to make the
/// `Requests` metric by route, outcome and refusal reason.
struct RequestMetricTests {
    func request(_ method: String, _ path: String, query: [String: String] = [:]) -> HTTPRequest {
        HTTPRequest(format: .v2, method: method, path: path, queryParameters: query)
    }

    @Test func outcomesFollowTheStatus() {
        let post = request("POST", "/auth/refresh")
        let cases: [(HTTPResponse, RequestMetric.Outcome, String?)] = [
            (.json(200, ["accessToken": "x"]), .ok, nil),
            (HTTPResponse(statusCode: 303), .ok, nil),
            (.error(401, code: "invalid_grant", message: "No."), .refused, "invalid_grant"),
            (.error(429, code: "rate_limited", message: "Later."), .limited, "rate_limited"),
            (.json(400, ["code": 400, "error_code": "bad_code_verifier", "msg": "x"]), .refused, "bad_code_verifier"),
            (.error(500, code: "internal", message: "Oops."), .failed, nil),
            (HTTPResponse(statusCode: 404, body: "not json"), .refused, nil),
        ]
        for (response, outcome, reason) in cases {
            let metric = RequestMetric(request: post, response: response)
            #expect(metric.outcome == outcome, "\(response.statusCode)")
            #expect(metric.reason == reason, "\(response.statusCode)")
            #expect(metric.route == "POST /auth/refresh")
        }
    }

    /// An error answer hands its code to the metric: the body is not read back.
    @Test func anErrorAnswersCodeIsTakenAsItIs() {
        var page = HTTPResponse(statusCode: 403, body: "<p>Refused</p>")
        page.refusalCode = "invalid_code"
        #expect(RequestMetric(request: request("POST", "/auth/otp/verify"), response: page).reason == "invalid_code")
    }

    /// The token endpoint's grant names the sign-in method; a grant nobody defines is not copied
    /// into the metric (a caller must not be able to make new metric series).
    @Test func theGrantTypeNamesTheMethod() {
        let ok = HTTPResponse.json(200, [:])
        let password = request("POST", "/auth/v1/token", query: ["grant_type": "password"])
        #expect(RequestMetric(request: password, response: ok).route == "POST /auth/v1/token?grant_type=password")
        let made = request("POST", "/auth/v1/token", query: ["grant_type": "anything-\(Int.random(in: 0..<1000))"])
        #expect(RequestMetric(request: made, response: ok).route == "POST /auth/v1/token")
    }

    /// A route with a path parameter is named as declared: the value a caller put in the path
    /// (an identity's or an OAuth client's id) never makes a metric series of its own.
    @Test func aPathParameterStaysUnfilled() throws {
        let ok = HTTPResponse.json(200, [:])
        let id = "client-\(Int.random(in: 0..<1000))"
        let routed = HTTPRequest(
            format: .v2, method: "PUT", path: "/auth/v1/admin/oauth/clients/\(id)",
            pathParameters: ["id": id], route: "/auth/v1/admin/oauth/clients/{id}")
        #expect(RequestMetric(request: routed, response: ok).route == "PUT /auth/v1/admin/oauth/clients/{id}")
        // Read from each format's event: 2.0's `routeKey`, 1.0's `resource`; `$default` names no path.
        let v2 = try HTTPRequestReadingTests.request(
            #"{"version":"2.0","routeKey":"DELETE /auth/v1/user/identities/{id}","rawPath":"/auth/v1/user/identities/i-1","requestContext":{"http":{"method":"DELETE"}}}"#
        )
        #expect(RequestMetric(request: v2, response: ok).route == "DELETE /auth/v1/user/identities/{id}")
        let v1 = try HTTPRequestReadingTests.request(
            #"{"resource":"/items/{id}","path":"/items/i-1","httpMethod":"GET","requestContext":{}}"#)
        #expect(RequestMetric(request: v1, response: ok).route == "GET /items/{id}")
        let fallback = try HTTPRequestReadingTests.request(
            #"{"version":"2.0","routeKey":"$default","rawPath":"/anything","requestContext":{"http":{"method":"GET"}}}"#
        )
        #expect(fallback.route == nil)
        #expect(RequestMetric(request: fallback, response: ok).route == "GET /anything")
    }

    @Test func theLineIsEmbeddedMetricFormat() throws {
        let refused = RequestMetric(
            request: request("POST", "/auth/otp/verify"),
            response: .error(400, code: "invalid_code", message: "Wrong code."))
        let line = try JSONValue(
            parsing: Array(refused.line(namespace: "Gatehouse/test", timestamp: 1_795_337_978_000).utf8))
        let directive = try #require(line["_aws"]?["CloudWatchMetrics"]?.arrayValue?.first)
        #expect(line["_aws"]?["Timestamp"] == 1_795_337_978_000)
        #expect(directive["Namespace"] == "Gatehouse/test")
        #expect(directive["Dimensions"] == [["Route", "Outcome"], ["Outcome"], ["Reason"]])
        #expect(directive["Metrics"] == [["Name": "Requests", "Unit": "Count"]])
        #expect(line["Route"] == "POST /auth/otp/verify")
        #expect(line["Outcome"] == "refused")
        #expect(line["Reason"] == "invalid_code")
        #expect(line["Requests"] == 1)
        // Every dimension a directive names is a member of the line (CloudWatch drops it otherwise).
        let ok = RequestMetric(request: request("GET", "/users/me"), response: .json(200, [:]))
        let okLine = try JSONValue(parsing: Array(ok.line(namespace: "N", timestamp: 0).utf8))
        #expect(
            okLine["_aws"]?["CloudWatchMetrics"]?.arrayValue?.first?["Dimensions"] == [
                ["Route", "Outcome"], ["Outcome"],
            ])
        #expect(okLine["Reason"] == nil)
    }
}
