#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The current invocation's deadline, for code that cannot be handed the `LambdaContext`: the
/// runtime loop binds it around each handler call, and tasks the handler starts inherit it. An
/// outbound call (the functions' HTTPS client) never waits past it.
public enum InvocationDeadline {
    /// `Lambda-Runtime-Deadline-Ms`: milliseconds since the epoch; nil outside an invocation or
    /// when the Runtime API sent none.
    @TaskLocal public static var milliseconds: Int64?

    /// Milliseconds left before the current invocation's deadline (at least 0); nil outside an
    /// invocation.
    public static func remainingMilliseconds(nowMilliseconds: Int64 = epochMilliseconds()) -> Int64? {
        milliseconds.map { max(0, $0 - nowMilliseconds) }
    }

    /// The wall clock in milliseconds since the epoch, as the deadline is.
    public static func epochMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
