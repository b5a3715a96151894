import GatehouseJSON

/// The id of the API Gateway API an event came through: `requestContext.apiId` (HTTP API and
/// REST events, payload 1.0 and 2.0, and REQUEST authorizers'), or the API part of a TOKEN
/// authorizer's `methodArn` (`arn:aws:execute-api:REGION:ACCOUNT:API/STAGE/VERB/PATH`).
///
/// Only API Gateway's ids are read: 10 lowercase letters and digits, so nothing an event carries
/// can add a path, a port or a user to the URL `https://{id}.{domain}`, and a Lambda function
/// URL's event (its `apiId` is the URL's 32-character id) is not taken for an API's. Anything
/// else (no such member, another shape) is no id.
public enum EventAPIID {
    /// The id in the event `bytes`; nil when it has none, or none of that form.
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var id: String?
        var methodARN: String?
        do {
            try JSONReader.readPrefix(bytes) { reader in
                try reader.beginObject()
                while let name = try reader.nextMember() {
                    if name.is("requestContext") {
                        id = try readContext(&reader)
                    } else if name.is("methodArn") {
                        methodARN = try reader.readStringOrSkip()
                    } else {
                        try reader.skipValue()
                    }
                }
            }
        } catch {
            return nil
        }
        return valid(id) ?? valid(methodARN.flatMap(apiID(inMethodARN:)))
    }

    /// The API part of a method ARN: the sixth `:` field up to its first `/`.
    static func apiID(inMethodARN arn: String) -> String? {
        let fields = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0] == "arn", fields[2] == "execute-api" else { return nil }
        return fields[5].split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
    }

    private static func readContext(_ reader: inout JSONReader) throws -> String? {
        do {
            try reader.beginObject()
        } catch is JSONReader.Mismatch {
            try reader.skipValue()
            return nil
        }
        var id: String?
        while let name = try reader.nextMember() {
            if name.is("apiId") {
                id = try reader.readStringOrSkip()
            } else {
                try reader.skipValue()
            }
        }
        return id
    }

    private static func valid(_ id: String?) -> String? {
        guard let id, id.utf8.count == 10,
            id.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) })
        else { return nil }
        return id
    }
}
