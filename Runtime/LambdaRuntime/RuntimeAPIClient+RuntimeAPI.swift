import GatehouseJSON
import NIOCore

/// The contract's four calls over HTTP, with the paths, headers and statuses Lambda documents.
extension RuntimeAPIClient: RuntimeAPI {
    static let apiPrefix = "/2018-06-01/runtime"

    func next() throws -> RuntimeEvent {
        let next = try send("GET", "\(Self.apiPrefix)/invocation/next")
        guard next.status == 200 else {
            throw RuntimeLoopError.unexpectedStatus(path: "/invocation/next", status: next.status)
        }
        guard let requestID = next.header("Lambda-Runtime-Aws-Request-Id"), !requestID.isEmpty else {
            throw RuntimeLoopError.missingRequestID
        }
        return RuntimeEvent(requestID: requestID, header: next.header, body: next.body)
    }

    func respond(requestID: String, payload: ByteBuffer) throws -> Bool {
        let answer = try send(
            "POST", "\(Self.apiPrefix)/invocation/\(requestID)/response",
            headers: [("Content-Type", "application/json")], body: payload)
        return answer.status == 202
    }

    func fail(requestID: String, error: InvocationError) throws {
        _ = try send(
            "POST", "\(Self.apiPrefix)/invocation/\(requestID)/error", headers: Self.errorHeaders(error),
            body: Self.errorBody(error))
    }

    func failInit(_ error: InvocationError) throws {
        _ = try send(
            "POST", "\(Self.apiPrefix)/init/error", headers: Self.errorHeaders(error), body: Self.errorBody(error))
    }

    private static func errorHeaders(_ error: InvocationError) -> [(String, String)] {
        [("Lambda-Runtime-Function-Error-Type", error.type), ("Content-Type", "application/json")]
    }

    /// `{"errorType","errorMessage","stackTrace":[]}`, the body the Runtime API expects.
    static func errorBody(_ report: InvocationError) -> ByteBuffer {
        var text = "{\"errorType\":"
        JSONValue.appendQuoted(report.type, to: &text)
        text += ",\"errorMessage\":"
        JSONValue.appendQuoted(report.message, to: &text)
        text += ",\"stackTrace\":[]}"
        return ByteBuffer(string: text)
    }
}
