/// A typed handler's event, shaped like part of API Gateway's payload 2.0 (required and
/// optional members, maps, lists, a nested object, a large integer): what the decoder
/// comparisons decode.
struct SampleEvent: Decodable, Equatable {
    struct Context: Decodable, Equatable {
        struct HTTP: Decodable, Equatable {
            var method: String
            var sourceIp: String
        }
        var http: HTTP
        var timeEpoch: Int64
    }

    var version: String
    var rawPath: String
    var headers: [String: String]
    var cookies: [String]?
    var isBase64Encoded: Bool
    var requestContext: Context
}
