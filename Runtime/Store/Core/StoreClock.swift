#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the store gets "now" (epoch seconds) for TTL: injected, so tests set the time.
public protocol StoreClock: Sendable {
    var now: Double { get }
}

/// The wall clock.
public struct SystemStoreClock: StoreClock {
    public init() {}
    public var now: Double { Date().timeIntervalSince1970 }
}
