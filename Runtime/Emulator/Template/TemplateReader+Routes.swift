import GatehouseJSON
import LambdaRuntime

extension TemplateReader {
    static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "ANY"]

    /// The `HttpApi` and `Api` events of function `name`; the other event types are not routes.
    /// `apis` are the template's API resources by logical id, for the settings routes inherit.
    func routes(
        function name: String, properties: [String: JSONValue], apis: [String: APISettings]
    ) throws
        -> [HTTPRoute]
    {
        let place = "Resources.\(name).Properties.Events"
        guard let events = try object(properties["Events"], at: place) else { return [] }
        var routes: [HTTPRoute] = []
        for (eventName, event) in events.sorted(by: { $0.key < $1.key }) {
            let eventPlace = "\(place).\(eventName)"
            guard let type = try string(event["Type"], at: "\(eventPlace).Type") else {
                throw fail("\(eventPlace).Type", "is missing")
            }
            guard let kind = HTTPRoute.Kind(rawValue: type) else { continue }
            let eventProperties = try object(event["Properties"], at: "\(eventPlace).Properties") ?? [:]
            let propertiesPlace = "\(eventPlace).Properties"
            let api = try apiReference(
                kind == .rest ? eventProperties["RestApiId"] : eventProperties["ApiId"],
                at: "\(propertiesPlace).\(kind == .rest ? "RestApiId" : "ApiId")")
            let settings = try api.map { reference in
                guard let settings = apis[reference], settings.kind == kind else {
                    throw fail(
                        "\(propertiesPlace).\(kind == .rest ? "RestApiId" : "ApiId")",
                        "\(reference) is not an \(kind == .rest ? "AWS::Serverless::Api" : "AWS::Serverless::HttpApi") of this template"
                    )
                }
                return settings
            }
            let path = try string(eventProperties["Path"], at: "\(propertiesPlace).Path") ?? "$default"
            let method = (try string(eventProperties["Method"], at: "\(propertiesPlace).Method") ?? "ANY").uppercased()
            guard Self.methods.contains(method) else {
                throw fail("\(propertiesPlace).Method", "\(method) is not an HTTP method API Gateway routes (or ANY)")
            }
            if path == "$default" {
                guard kind == .httpAPI else { throw fail("\(propertiesPlace).Path", "$default is for HTTP APIs only") }
            } else {
                try checkPath(path, at: "\(propertiesPlace).Path")
            }
            var payloadFormat: PayloadFormat = kind == .rest ? .v1 : .v2
            if let version = try string(
                eventProperties["PayloadFormatVersion"], at: "\(propertiesPlace).PayloadFormatVersion")
            {
                guard kind == .httpAPI, let format = PayloadFormat(version: version) else {
                    throw fail(
                        "\(propertiesPlace).PayloadFormatVersion", "must be \"1.0\" or \"2.0\" on an HttpApi event")
                }
                payloadFormat = format
            }
            var authorizer = settings?.defaultAuthorizer
            if let chosen = try string(
                eventProperties["Auth"]?["Authorizer"], at: "\(propertiesPlace).Auth.Authorizer")
            {
                authorizer = chosen == "NONE" ? nil : chosen
            }
            let scopesPlace = "\(propertiesPlace).Auth.AuthorizationScopes"
            let scopes = try (eventProperties["Auth"]?["AuthorizationScopes"]).map { value in
                guard let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                    throw fail(scopesPlace, "must be a list of scope names")
                }
                return list.compactMap(\.stringValue)
            }
            routes.append(
                HTTPRoute(
                    function: name, event: eventName, kind: kind, method: method, path: path,
                    payloadFormat: payloadFormat, authorizer: authorizer, stage: settings?.stage,
                    binaryMediaTypes: settings?.binaryMediaTypes ?? [], cors: settings?.cors,
                    authorizationScopes: scopes ?? []))
        }
        return routes
    }

    /// `{"Ref": "GatehouseApi"}` or absent (the implicit API).
    private func apiReference(_ value: JSONValue?, at place: String) throws -> String? {
        guard let value else { return nil }
        guard let reference = value["Ref"]?.stringValue, value.objectValue?.count == 1 else {
            throw fail(place, "must be {\"Ref\": \"<the API's logical id>\"}")
        }
        return reference
    }

    /// A route path: `/`, or `/`-separated segments, each literal or `{name}`, the last possibly
    /// `{name+}`.
    private func checkPath(_ path: String, at place: String) throws {
        guard path.hasPrefix("/") else { throw fail(place, "must start with /") }
        guard path != "/" else { return }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            guard !segment.isEmpty else { throw fail(place, "\(path) has an empty segment") }
            if segment.hasPrefix("{") || segment.hasSuffix("}") {
                guard segment.hasPrefix("{"), segment.hasSuffix("}"), segment.count > 2 else {
                    throw fail(place, "\(segment) is not a {parameter}")
                }
                if segment.hasSuffix("+}"), index != segments.count - 1 {
                    throw fail(place, "\(segment): a greedy parameter must be the last segment")
                }
            }
        }
    }
}
