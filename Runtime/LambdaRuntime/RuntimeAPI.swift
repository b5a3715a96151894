import NIOCore

/// The Runtime API as the loop uses it: the four calls of Lambda's contract. `RuntimeAPIClient`
/// makes them over HTTP; tests give the loop an in-memory one.
protocol RuntimeAPI {
    /// The next event; blocks until there is one.
    func next() throws -> RuntimeEvent
    /// The invocation's answer. False when the Runtime API refused it (the loop logs that and
    /// goes on, as the invocation is over either way).
    func respond(requestID: String, payload: ByteBuffer) throws -> Bool
    /// The invocation's failure.
    func fail(requestID: String, error: InvocationError) throws
    /// The initialisation's failure, after which the process exits.
    func failInit(_ error: InvocationError) throws
}

/// One event from `/invocation/next`: its request id, its headers and its payload.
struct RuntimeEvent {
    var requestID: String
    /// A header's first value, its name compared case-insensitively.
    var header: (String) -> String?
    var body: ByteBuffer
}
