import Foundation

/// A challenge of a factor (`GatehouseClient.challengeFactor`): what a code is verified
/// against, by the session that made it, within 5 minutes.
public struct GatehouseFactorChallenge: Sendable, Equatable {
    public var id: String
    public var expiresAt: Date
}
