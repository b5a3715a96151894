import Logging
import NIOCore
import Synchronization

/// The handler of a function whose environment is not complete at its cold start
/// (`StartingEnvironment`): it starts the fetch at once, and builds the real handler on the
/// first event, from the fetched environment and the issuer of that event's API.
///
/// - An event without an API id, while the issuer comes from one (a direct invoke, a test
///   event), fails by name (`Runtime.NoIssuer`); so does an event from another API than the one
///   the handler was built for (`Runtime.OtherAPI`): one process issues for one API.
/// - A failed fetch or build fails that invocation with its own error (as an initialisation
///   error would fail it), and the next event tries again, with a new fetch when the fetch
///   failed.
final class FirstEventHandler: ByteLambdaHandler {
    private enum State {
        case fetching(Task<[String: String], any Error>)
        case built(any ByteLambdaHandler, apiID: String?)
    }

    private let start: StartingEnvironment
    private let makeHandler: @Sendable ([String: String]) async throws -> any ByteLambdaHandler
    private let state: Mutex<State>

    init(
        start: StartingEnvironment,
        makeHandler: @escaping @Sendable ([String: String]) async throws -> any ByteLambdaHandler
    ) {
        self.start = start
        self.makeHandler = makeHandler
        state = Mutex(.fetching(Self.fetch(start)))
    }

    func handle(_ event: ByteBuffer, context: LambdaContext) async throws -> ByteBuffer {
        let apiID = try start.issuerDomain == nil ? nil : apiID(of: event)
        switch state.withLock({ $0 }) {
        case .built(let handler, let builtFor):
            guard builtFor == apiID else {
                throw InvocationError(
                    type: "Runtime.OtherAPI",
                    message:
                        "this process issues for the API \(builtFor ?? "-"); the event came through \(apiID ?? "-")")
            }
            return try await handler.handle(event, context: context)
        case .fetching(let task):
            let handler: any ByteLambdaHandler
            do {
                handler = try await build(fetching: task, apiID: apiID)
            } catch {
                let report = InvocationError(reporting: error)
                context.logger.error(
                    "initialisation failed on the first event", metadata: ["errorType": .string(report.type)])
                throw report
            }
            return try await handler.handle(event, context: context)
        }
    }

    /// The event's API id; fails the invocation by name when it has none.
    private func apiID(of event: ByteBuffer) throws(InvocationError) -> String {
        let id = event.withUnsafeReadableBytes { raw in EventAPIID.read(raw.bindMemory(to: UInt8.self)) }
        guard let id else {
            throw InvocationError(
                type: "Runtime.NoIssuer",
                message:
                    "ISSUER is not set and the issuer comes from the API Gateway event's requestContext.apiId (\(StartingEnvironment.issuerDomainVariable)), which this event lacks: invoke the function through its API, or set ISSUER"
            )
        }
        return id
    }

    private func build(
        fetching task: Task<[String: String], any Error>, apiID: String?
    ) async throws
        -> any ByteLambdaHandler
    {
        var environment: [String: String]
        do {
            environment = try await task.value
        } catch {
            state.withLock { $0 = .fetching(Self.fetch(start)) }
            throw error
        }
        if let apiID, let issuer = start.issuer(apiID: apiID) { environment["ISSUER"] = issuer }
        let handler = try await makeHandler(environment)
        state.withLock { $0 = .built(handler, apiID: apiID) }
        return handler
    }

    private static func fetch(_ start: StartingEnvironment) -> Task<[String: String], any Error> {
        let environment = start.environment
        guard let fetch = start.fetch else { return Task { environment } }
        return Task { try await fetch(environment) }
    }
}
