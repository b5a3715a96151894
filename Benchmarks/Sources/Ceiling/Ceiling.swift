import Hummingbird
import Logging

/// The ceiling for start-api's benchmark: a plain Hummingbird server that answers
/// `GET /ceiling` with a fixed JSON body the size of a `/users/me` answer. No events, no
/// functions, no authorizer: what the same HTTP stack does with nothing behind it.
///
///     ceiling [PORT]   (default 8090, on 127.0.0.1)
@main
struct Ceiling {
    static func main() async throws {
        let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 8090
        let body = ByteBuffer(
            string:
                #"{"id":"Zb3kq9Xw2mT7vN1pR4sLc8","email":"bench@example.com","name":null,"phone":null,"providers":["email"],"createdAt":1763769600000,"updatedAt":1763769600000}"#
        )
        let router = Router()
        router.get("/ceiling") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
        }
        var logger = Logger(label: "ceiling")
        logger.logLevel = .warning
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        try await app.runService()
    }
}
