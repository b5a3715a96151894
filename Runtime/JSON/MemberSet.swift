/// The members of one object a direct reader has taken so far, by position in its list of
/// names: a second occurrence throws, so that a caller that needs the last one to win (as
/// `Decodable` does) can decide otherwise.
public struct MemberSet: Sendable {
    private var bits: UInt64 = 0

    /// An empty set.
    public init() {}

    /// Records member `index` (below 64); throws when it was already seen.
    public mutating func take(_ index: Int) throws(RepeatedMember) {
        let bit: UInt64 = 1 << UInt64(index)
        guard bits & bit == 0 else { throw RepeatedMember(index: index) }
        bits |= bit
    }

    /// A member that came twice.
    public struct RepeatedMember: Error, Sendable, Equatable {
        /// Its position in the reader's list of names.
        public let index: Int
    }
}
