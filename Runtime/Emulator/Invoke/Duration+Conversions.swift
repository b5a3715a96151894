extension Duration {
    /// The duration in seconds, as a floating-point number (for reports and deadlines).
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in milliseconds, as a floating-point number.
    public var milliseconds: Double { seconds * 1000 }
}
