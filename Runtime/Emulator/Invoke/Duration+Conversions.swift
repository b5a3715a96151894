extension Duration {
    /// The duration in seconds, as a floating-point number (for reports and deadlines).
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in milliseconds, as a floating-point number.
    var milliseconds: Double { seconds * 1000 }
}
