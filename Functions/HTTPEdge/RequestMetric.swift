import GatehouseJSON

/// The one metric every HTTP function writes: each answered request as a CloudWatch Embedded
/// Metric Format line on standard error (Lambda's log stream; CloudWatch turns it into the
/// metric with no API call and no latency), `Requests` = 1 with these dimensions:
///
/// - `Route` and `Outcome`: sign-ins by method and outcome (`POST /auth/otp/verify`,
///   `POST /auth/v1/token?grant_type=password`, …), refreshes (`POST /auth/refresh`);
/// - `Outcome` alone (`ok`, `refused`, `limited`, `failed`): what the template's
///   `FailureRateAlarm` divides;
/// - `Reason`, on refusals only: the error code answered (`invalid_grant`, `rate_limited`, …).
///
/// Written only when `METRICS_NAMESPACE` is set (the template sets it); no value in the line is
/// taken from the request but its route and method, so no secret can reach it.
public struct RequestMetric: Sendable, Equatable {
    /// What became of a request.
    public enum Outcome: String, Sendable {
        case ok, refused, limited, failed
    }

    public var route: String
    public var outcome: Outcome
    /// The error code of a 4xx answer.
    public var reason: String?

    /// The metric of `response` to `request`.
    public init(request: HTTPRequest, response: HTTPResponse) {
        // The route as declared, never the path a caller filled in: a path parameter's value
        // (an identity's or a client's id) would make a new metric series for each.
        var route = "\(request.method) \(request.route ?? request.path)"
        // The token endpoints sign in by several methods: the grant names which.
        if let grant = request.queryParameters["grant_type"], Self.grantTypes.contains(grant) {
            route += "?grant_type=\(grant)"
        }
        self.route = route
        switch response.statusCode {
        case 429: outcome = .limited
        case 400..<500: outcome = .refused
        case 500...: outcome = .failed
        default: outcome = .ok
        }
        // An error answer hands its code over; only a refusal a handler wrote itself is read back.
        reason = outcome == .ok || outcome == .failed ? nil : response.refusalCode ?? Self.errorCode(of: response)
    }

    /// The grant types a route may name; any other value is not copied into the metric.
    static let grantTypes: Set<String> = ["password", "refresh_token", "pkce", "id_token", "authorization_code"]

    /// The answer's error code: Supabase's `error_code`/`code`, or Gatehouse's `error`.
    static func errorCode(of response: HTTPResponse) -> String? {
        guard let body = response.body, let value = try? JSONValue(parsing: Array(body.utf8)) else { return nil }
        for key in ["error_code", "code", "error"] {
            if let code = value[key]?.stringValue, code.utf8.count <= 64 { return code }
        }
        return nil
    }

    /// The EMF line (without its newline) at `timestamp` (milliseconds since 1970).
    public func line(namespace: String, timestamp: Int) -> String {
        var dimensions: JSONValue = [["Route", "Outcome"], ["Outcome"]]
        if reason != nil, case .array(var sets) = dimensions {
            sets.append(["Reason"])
            dimensions = .array(sets)
        }
        var line: [String: JSONValue] = [
            "_aws": [
                "Timestamp": .number(Double(timestamp)),
                "CloudWatchMetrics": [
                    [
                        "Namespace": .string(namespace), "Dimensions": dimensions,
                        "Metrics": [["Name": "Requests", "Unit": "Count"]],
                    ]
                ],
            ],
            "Route": .string(route), "Outcome": .string(outcome.rawValue), "Requests": 1,
        ]
        if let reason { line["Reason"] = .string(reason) }
        return JSONValue.object(line).serialized
    }
}
