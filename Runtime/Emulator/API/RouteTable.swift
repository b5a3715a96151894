/// Picks the route for a request the way API Gateway does: a route whose path matches exactly
/// beats one with `{parameters}`, which beats a greedy `{proxy+}`, which beats `$default`; among
/// equals, more literal segments win, and a route for the method beats `ANY`.
public struct RouteTable: Sendable {
    /// A route that matched, with the values of its path parameters.
    public struct Match: Sendable, Equatable {
        public let route: HTTPRoute
        public let pathParameters: [String: String]
    }

    public let routes: [HTTPRoute]
    /// Each route's path, split once: matching runs on every request.
    private let patterns: [Pattern]

    /// A route's path as segments; nil for `$default`.
    private typealias Pattern = [Segment]?

    private enum Segment: Sendable {
        case literal(Substring)
        case parameter(String)
        /// `{name+}`: the rest of the path.
        case greedy(String)
    }

    /// No routes: every request is left to the gateway's own routes (the Lambda endpoint's).
    public static let empty = RouteTable(checked: [])

    private init(checked routes: [HTTPRoute]) {
        self.routes = routes
        patterns = []
    }

    /// Refuses two routes with one route key: API Gateway would not deploy them.
    public init(routes: [HTTPRoute]) throws(RouteTableError) {
        var seen: [String: HTTPRoute] = [:]
        for route in routes {
            let key = "\(route.kind.rawValue) \(route.routeKey)"
            if let first = seen[key] { throw .duplicate(route.routeKey, first.function, route.function) }
            seen[key] = route
        }
        self.routes = routes
        patterns = routes.map { route in
            guard route.path != "$default" else { return nil }
            let parts = route.path == "/" ? [] : route.path.dropFirst().split(separator: "/")
            return parts.map { part in
                if part.hasPrefix("{"), part.hasSuffix("+}") { return .greedy(String(part.dropFirst().dropLast(2))) }
                if part.hasPrefix("{"), part.hasSuffix("}") { return .parameter(String(part.dropFirst().dropLast())) }
                return .literal(part)
            }
        }
    }

    /// How specific a match is; compared in order, higher wins: not `$default`, not greedy,
    /// literal segments, a method rather than `ANY`.
    private typealias Score = (Int, Int, Int, Int)

    /// The route for `method` and `path` (the raw path, percent-encoding undone per segment).
    /// A path with a trailing slash that no route of its own takes goes to the route of the path
    /// without it (`GET /passkeys/` to `GET /passkeys`, as supabase-swift asks for its list), as
    /// HTTP APIs route it.
    public func match(method: String, path: String) -> Match? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let request = segments.count == 1 && segments.first!.isEmpty ? [] : Array(segments)
        let found = match(method: method.uppercased(), request: request)
        guard request.count > 1, request.last?.isEmpty == true, found.map({ $0.route.path == "$default" }) ?? true,
            let trimmed = match(method: method.uppercased(), request: Array(request.dropLast())),
            trimmed.route.path != "$default"
        else { return found }
        return trimmed
    }

    private func match(method: String, request: [Substring]) -> Match? {
        var best: (score: Score, index: Int, parameters: [String: String])?
        for (index, route) in routes.enumerated() {
            guard route.method == "ANY" || route.method == method else { continue }
            guard let (parameters, score) = Self.match(patterns[index], request: request) else { continue }
            let fullScore = (score.0, score.1, score.2, route.method == "ANY" ? 0 : 1)
            if best.map({ $0.score < fullScore }) ?? true { best = (fullScore, index, parameters) }
        }
        return best.map { Match(route: routes[$0.index], pathParameters: $0.parameters) }
    }

    /// The path parameters and a score when `pattern` matches the request's segments.
    private static func match(
        _ pattern: Pattern, request: [Substring]
    ) -> ([String: String], (Int, Int, Int))? {
        guard let pattern else { return ([:], (0, 0, 0)) }
        var parameters: [String: String] = [:]
        var literals = 0
        for (index, part) in pattern.enumerated() {
            if case .greedy(let name) = part {
                let rest = request.dropFirst(index)
                guard !rest.isEmpty, !(rest.count == 1 && rest.first!.isEmpty) else { return nil }
                parameters[name] = rest.joined(separator: "/")
                return (parameters, (1, 0, literals))
            }
            guard index < request.count else { return nil }
            let value = request[index]
            switch part {
            case .parameter(let name):
                guard !value.isEmpty else { return nil }
                parameters[name] = String(value)
            case .literal(let literal):
                guard literal == value else { return nil }
                literals += 1
            case .greedy: return nil  // handled above
            }
        }
        guard pattern.count == request.count else { return nil }
        return (parameters, (1, 1, literals))
    }
}

/// Why the template's routes cannot be served together.
public enum RouteTableError: Error, Sendable, Equatable, CustomStringConvertible {
    case duplicate(String, String, String)

    public var description: String {
        switch self {
        case .duplicate(let key, let first, let second): "route \(key) is declared by both \(first) and \(second)"
        }
    }
}
