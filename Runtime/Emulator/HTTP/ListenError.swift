/// A server of the emulator's (the local API, a Runtime API) could not start.
public enum ListenError: Error, CustomStringConvertible {
    case couldNotBind(host: String, port: Int)

    public var description: String {
        switch self {
        case .couldNotBind(let host, let port):
            "could not listen on \(host):\(port == 0 ? "a free port" : String(port))"
        }
    }
}
