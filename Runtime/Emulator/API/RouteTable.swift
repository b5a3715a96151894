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

    /// Refuses two routes with one route key: API Gateway would not deploy them.
    public init(routes: [HTTPRoute]) throws(RouteTableError) {
        var seen: [String: HTTPRoute] = [:]
        for route in routes {
            let key = "\(route.kind.rawValue) \(route.routeKey)"
            if let first = seen[key] { throw .duplicate(route.routeKey, first.function, route.function) }
            seen[key] = route
        }
        self.routes = routes
    }

    /// The route for `method` and `path` (the raw path, percent-encoding undone per segment).
    public func match(method: String, path: String) -> Match? {
        let requestSegments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var best: (score: [Int], match: Match)?
        for route in routes {
            guard route.method == "ANY" || route.method == method.uppercased() else { continue }
            guard let (parameters, score) = Self.match(route, segments: Array(requestSegments)) else { continue }
            let fullScore = score + [route.method == "ANY" ? 0 : 1]
            if best.map({ $0.score.lexicographicallyPrecedes(fullScore) }) ?? true {
                best = (fullScore, Match(route: route, pathParameters: parameters))
            }
        }
        return best?.match
    }

    /// The path parameters and a score (higher is more specific) when `route` matches.
    private static func match(_ route: HTTPRoute, segments: [Substring]) -> ([String: String], [Int])? {
        if route.path == "$default" { return ([:], [0, 0, 0]) }
        let pattern = route.path == "/" ? [] : route.path.dropFirst().split(separator: "/").map(String.init)
        let request = segments.count == 1 && segments[0].isEmpty ? [] : segments
        var parameters: [String: String] = [:]
        var literals = 0
        for (index, part) in pattern.enumerated() {
            if part.hasPrefix("{"), part.hasSuffix("+}") {
                let rest = request.dropFirst(index)
                guard !rest.isEmpty, !(rest.count == 1 && rest.first!.isEmpty) else { return nil }
                parameters[String(part.dropFirst().dropLast(2))] = rest.joined(separator: "/")
                return (parameters, [1, 0, literals])
            }
            guard index < request.count else { return nil }
            let value = request[index]
            if part.hasPrefix("{"), part.hasSuffix("}") {
                guard !value.isEmpty else { return nil }
                parameters[String(part.dropFirst().dropLast())] = String(value)
            } else {
                guard part == value else { return nil }
                literals += 1
            }
        }
        guard pattern.count == request.count else { return nil }
        return (parameters, [1, 1, literals])
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
