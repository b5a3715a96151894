/// The members of one object a direct reader has taken so far, by position in its list of
/// names: a second occurrence throws, so that the `Decodable` path (where the last one wins)
/// decides instead.
struct MemberSet {
    private var bits: UInt64 = 0

    /// Records member `index` (below 64); throws when it was already seen.
    mutating func take(_ index: Int) throws(JSONShapeMismatch) {
        let bit: UInt64 = 1 << UInt64(index)
        guard bits & bit == 0 else { throw JSONShapeMismatch() }
        bits |= bit
    }
}
