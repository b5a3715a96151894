/// An error the client caused, with the HTTP status and the stable `snake_case` code it is
/// answered with; its description is the human sentence. Each folder's errors conform where
/// they are declared.
public protocol ClientError: Error, CustomStringConvertible {
    var status: Int { get }
    var code: String { get }
    /// For a 429: seconds until a retry may succeed (answered as `Retry-After` and `retryAfter`).
    var retryAfter: Int? { get }
}

extension ClientError {
    public var retryAfter: Int? { nil }
}
