import Emulator
import Foundation
import HTTPTypes
import Hummingbird
import LambdaRuntime
import NIOCore
import TestServers

/// An in-process Runtime API that hands out scripted events and records every request, so a
/// test can see exactly what the runtime client sent.
final class FakeRuntimeAPI: Sendable {
    struct ScriptedEvent: Sendable {
        var requestID: String
        var body: String
        var headers: [String: String]
    }

    struct RecordedRequest: Sendable {
        var method: String
        var path: String
        var headers: [String: String]
        var body: ByteBuffer

        var bodyText: String { String(buffer: body) }
    }

    actor Recorder {
        private(set) var requests: [RecordedRequest] = []
        private var events: [ScriptedEvent]

        init(events: [ScriptedEvent]) { self.events = events }

        func record(_ request: RecordedRequest) { requests.append(request) }

        func nextEvent() -> ScriptedEvent? {
            events.isEmpty ? nil : events.removeFirst()
        }
    }

    let endpoint: RuntimeAPIEndpoint
    let recorder: Recorder
    private let server: LoopbackHTTPServer

    private init(endpoint: RuntimeAPIEndpoint, recorder: Recorder, server: LoopbackHTTPServer) {
        self.endpoint = endpoint
        self.recorder = recorder
        self.server = server
    }

    static func start(events: [ScriptedEvent]) async throws -> FakeRuntimeAPI {
        let recorder = Recorder(events: events)
        let router = Router()
        @Sendable func record(_ request: Request) async throws -> RecordedRequest {
            var request = request
            let body = try await request.collectBody(upTo: 16 * 1024 * 1024)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let recorded = RecordedRequest(
                method: request.method.rawValue, path: request.uri.path, headers: headers, body: body
            )
            await recorder.record(recorded)
            return recorded
        }
        router.get("/2018-06-01/runtime/invocation/next") { request, _ -> Response in
            _ = try await record(request)
            guard let event = await recorder.nextEvent() else {
                return Response(status: .internalServerError)
            }
            var headers = HTTPFields()
            headers[HTTPField.Name("Lambda-Runtime-Aws-Request-Id")!] = event.requestID
            for (name, value) in event.headers { headers[HTTPField.Name(name)!] = value }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: event.body)))
        }
        let accepted: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            _ = try await record(request)
            return Response(status: .accepted, body: .init(byteBuffer: ByteBuffer(string: #"{"status":"OK"}"#)))
        }
        router.post("/2018-06-01/runtime/invocation/:id/response", use: accepted)
        router.post("/2018-06-01/runtime/invocation/:id/error", use: accepted)
        router.post("/2018-06-01/runtime/init/error", use: accepted)

        let server = try await LoopbackHTTPServer.start(router: router)
        return FakeRuntimeAPI(
            endpoint: RuntimeAPIEndpoint("127.0.0.1:\(server.port)")!, recorder: recorder, server: server)
    }

    func stop() async {
        await server.stop()
    }
}
