/// An error the client caused, with the HTTP status and the stable `snake_case` code it is
/// answered with; its description is the human sentence.
public protocol ClientError: Error, CustomStringConvertible {
    var status: Int { get }
    var code: String { get }
}

extension SessionError: ClientError {}
extension RefreshError: ClientError {}
