extension CORSConfiguration {
    /// Whether `request` is a CORS preflight: OPTIONS with `Origin` and
    /// `Access-Control-Request-Method`.
    static func isPreflight(_ request: APIRequest) -> Bool {
        request.method.uppercased() == "OPTIONS" && !request.values(of: "origin").isEmpty
            && !request.values(of: "access-control-request-method").isEmpty
    }

    /// API Gateway's own answer to a preflight; the function is not invoked. An HTTP API
    /// answers 204, with the CORS headers only for an allowed origin; a REST API's OPTIONS mock
    /// (which SAM adds for `Cors`) answers 200 with its configured values.
    func preflight(_ request: APIRequest, kind: HTTPRoute.Kind) -> APIResponse {
        let origin = request.values(of: "origin").first ?? ""
        var response = APIResponse(status: kind == .rest ? 200 : 204)
        let allowed = kind == .rest ? allowOrigins.first : allowedOrigin(origin)
        guard let allowed else { return response }
        let method = request.values(of: "access-control-request-method").first ?? ""
        let asked = request.values(of: "access-control-request-headers").joined(separator: ",")
        response.headers.append(.init("access-control-allow-origin", allowed))
        response.headers.append(
            .init(
                "access-control-allow-methods",
                allowMethods.isEmpty || allowMethods.contains("*") ? method : allowMethods.joined(separator: ",")))
        let headers = allowHeaders.contains("*") ? asked : allowHeaders.joined(separator: ",")
        if !headers.isEmpty { response.headers.append(.init("access-control-allow-headers", headers)) }
        if let maxAge { response.headers.append(.init("access-control-max-age", String(maxAge))) }
        if allowCredentials { response.headers.append(.init("access-control-allow-credentials", "true")) }
        if allowed != "*" { response.headers.append(.init("vary", "Origin")) }
        return response
    }

    /// An HTTP API's CORS on an actual request: the function's own `Access-Control-*`
    /// headers give way to the API's, which are added when the request's origin is allowed.
    func apply(to response: inout APIResponse, origin: String) {
        response.headers.removeAll { $0.name.lowercased().hasPrefix("access-control-") }
        guard let allowed = allowedOrigin(origin) else { return }
        response.headers.append(.init("access-control-allow-origin", allowed))
        if !exposeHeaders.isEmpty {
            response.headers.append(.init("access-control-expose-headers", exposeHeaders.joined(separator: ",")))
        }
        if allowCredentials { response.headers.append(.init("access-control-allow-credentials", "true")) }
        if allowed != "*" { response.headers.append(.init("vary", "Origin")) }
    }
}
