/// The text form of a UUID, as user ids, Supabase's ids and Cognito's `sub` are written.
public enum UUIDText {
    /// `text` when it is a UUID in its 8-4-4-4-12 hex form, lower-cased; nil for anything else.
    public static func canonical(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            let isDash = [8, 13, 18, 23].contains(index)
            guard isDash ? byte == UInt8(ascii: "-") : byte.isASCIIHexDigit else { return nil }
        }
        return text.lowercased()
    }
}
