extension APIResponse {
    /// API Gateway's own answers, which differ between the two kinds of API.
    enum Gateway {
        /// No route matches: HTTP API 404; REST 403 "Missing Authentication Token".
        static func notFound(_ kind: HTTPRoute.Kind) -> APIResponse {
            kind == .rest ? .message(403, "Missing Authentication Token") : .message(404, "Not Found")
        }

        /// The function failed, timed out, crashed or answered something malformed: HTTP API
        /// 500; REST 502.
        static func integrationFailure(_ kind: HTTPRoute.Kind) -> APIResponse {
            kind == .rest ? .message(502, "Internal server error") : .message(500, "Internal Server Error")
        }

        /// Every instance stayed busy (Lambda's 429): HTTP API 503; REST 500, which is what it
        /// makes of a throttled Lambda.
        static func throttled(_ kind: HTTPRoute.Kind) -> APIResponse {
            kind == .rest ? .message(500, "Internal server error") : .message(503, "Service Unavailable")
        }

        /// The event would be over Lambda's 6 MiB, or the request over the API's own limit.
        static func tooLarge(_ kind: HTTPRoute.Kind) -> APIResponse {
            kind == .rest ? .message(413, "Request Too Long") : .message(413, "Request Entity Too Large")
        }

        /// No identity, a token that fails the validation expression, or an authorizer that
        /// failed with `Unauthorized`.
        static let unauthorized = APIResponse.message(401, "Unauthorized")

        /// The authorizer refused. REST says whether a policy statement denied it.
        static func forbidden(_ kind: HTTPRoute.Kind, explicitly: Bool) -> APIResponse {
            guard kind == .rest else { return .message(403, "Forbidden") }
            let text =
                explicitly
                ? "User is not authorized to access this resource with an explicit deny"
                : "User is not authorized to access this resource"
            return APIResponse(
                status: 403, headers: [HeaderLine("content-type", "application/json")],
                body: Array(#"{"Message":"\#(text)"}"#.utf8))
        }

        /// The authorizer failed or answered something unusable: HTTP API 500; REST 500 with
        /// `{"message": null}` (AuthorizerConfigurationException).
        static func authorizerFailure(_ kind: HTTPRoute.Kind) -> APIResponse {
            guard kind == .rest else { return .message(500, "Internal Server Error") }
            return APIResponse(
                status: 500, headers: [HeaderLine("content-type", "application/json")],
                body: Array(#"{"message":null}"#.utf8))
        }
    }
}
