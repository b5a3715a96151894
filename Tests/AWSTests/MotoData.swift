import Foundation
import GatehouseJSON

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What moto_server holds, read through its own API (`/moto-api/data.json`): the emails SES
/// sent and the SMS SNS published, as AWS would have delivered them.
enum MotoData {
    static func read(_ endpoint: String) async throws -> JSONValue {
        let (data, _) = try await URLSession.shared.data(from: URL(string: endpoint + "/moto-api/data.json")!)
        return try JSONValue(parsing: Array(data))
    }

    /// SES's sent messages: `source`, `destinations.ToAddresses`, `subject`, `body`.
    static func emails(_ endpoint: String) async throws -> [JSONValue] {
        try await read(endpoint)["ses"]?["Message"]?.arrayValue ?? []
    }

    /// SNS's published SMS: `phone_number`, `message`.
    static func texts(_ endpoint: String) async throws -> [JSONValue] {
        try await read(endpoint)["sns"]?["SMS"]?.arrayValue ?? []
    }
}
