/// Comparing secrets (tokens, state, client secrets, derived keys) in a time that does not
/// depend on where they differ, only on their length.
public enum ConstantTime {
    /// Whether `left` and `right` are the same bytes.
    public static func equal(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    /// Whether `left` and `right` are the same UTF-8 bytes.
    public static func equal(_ left: String, _ right: String) -> Bool {
        equal(Array(left.utf8), Array(right.utf8))
    }
}
