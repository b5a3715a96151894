/// Where a `GatehouseClient` keeps its tokens between launches: the Keychain on Apple
/// platforms (the README shows one in a few lines), memory by default.
public protocol TokenStore: Sendable {
    /// The tokens kept, if any.
    func load() async throws -> GatehouseTokens?
    /// Keeps `tokens` in place of any before.
    func save(_ tokens: GatehouseTokens) async throws
    /// Forgets the tokens.
    func clear() async throws
}

/// Tokens in memory only: gone when the process ends.
public actor InMemoryTokenStore: TokenStore {
    private var tokens: GatehouseTokens?

    public init(_ tokens: GatehouseTokens? = nil) {
        self.tokens = tokens
    }

    public func load() -> GatehouseTokens? { tokens }
    public func save(_ tokens: GatehouseTokens) { self.tokens = tokens }
    public func clear() { tokens = nil }
}
