/// Routes the emulator answers itself, never deployed: the dev OIDC provider and the demo app's
/// pages of `gatehouse start-api`. They are asked only when no route of the template matches,
/// so a template's own route always wins.
public protocol LocalRoutes: Sendable {
    /// Each route as start-api's route table lists it, e.g. `GET /_dev/oidc/oauth2/authorize`.
    var routeDescriptions: [String] { get }

    /// The answer to `request`, or nil when it is not one of these routes. `gateway` lets a route
    /// call the template's functions the way a client would.
    func answer(_ request: APIRequest, gateway: LocalAPIGateway) async -> APIResponse?
}
