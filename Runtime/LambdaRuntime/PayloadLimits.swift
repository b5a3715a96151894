/// Lambda's size limits for synchronous invocations.
public enum PayloadLimits {
    /// 6 MiB plus the 100 bytes Lambda allows on top: the largest request or response payload
    /// of a synchronous invocation. Anything larger is an error, never truncated.
    public static let synchronousPayloadBytes = 6 * 1024 * 1024 + 100
}
