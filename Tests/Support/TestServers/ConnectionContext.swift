import Hummingbird

/// Hummingbird's basic context plus the client's port, which tells connections apart.
struct ConnectionContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let clientPort: Int?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientPort = source.channel.remoteAddress?.port
    }
}
