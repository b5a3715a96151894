import Foundation
import GatehouseJSON
import LambdaRuntime
import NIOCore

/// The `{"errorType","errorMessage",...}` JSON that Lambda returns for a failed invocation.
public enum ErrorPayload {
    /// `{"errorMessage":…,"errorType":…}` with the strings escaped.
    public static func json(errorType: String, errorMessage: String) -> String {
        JSONValue.object(["errorMessage": .string(errorMessage), "errorType": .string(errorType)]).serialized
    }

    /// What a runtime posted to `/error` or `/init/error`: kept as it is when it is a JSON object
    /// (its own `errorType` wins over the header), otherwise wrapped so callers always get JSON.
    static func normalise(posted body: ByteBuffer, headerType: String?) -> (errorType: String, payload: ByteBuffer) {
        let fallbackType = headerType.flatMap { $0.isEmpty ? nil : $0 } ?? "Unhandled"
        if let value = try? JSONValue(parsing: body.readableBytesView), let object = value.objectValue {
            return (object["errorType"]?.stringValue ?? fallbackType, body)
        }
        let text = String(buffer: body)
        return (fallbackType, ByteBuffer(string: json(errorType: fallbackType, errorMessage: text)))
    }
}
