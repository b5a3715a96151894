import GatehouseJSON
import LambdaRuntime
import Testing

/// `PayloadFormat` tells an event's format from its members, never from where it came.
struct PayloadFormatTests {
    static func format(of text: String) throws(PayloadFormatError) -> PayloadFormat {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer throws(PayloadFormatError) in
            try PayloadFormat(event: buffer)
        }
    }

    @Test func versionDecides() throws {
        #expect(try Self.format(of: #"{"version":"2.0","rawPath":"/"}"#) == .v2)
        #expect(try Self.format(of: #"{"version":"1.0","httpMethod":"GET"}"#) == .v1)
        // `version` decides even after REST's `httpMethod`.
        #expect(try Self.format(of: #"{"httpMethod":"GET","version":"2.0"}"#) == .v2)
    }

    @Test func aRESTEventHasNoVersionButAnHTTPMethod() throws {
        #expect(try Self.format(of: #"{"resource":"/x","path":"/x","httpMethod":"POST","body":null}"#) == .v1)
    }

    @Test func othersAreRefusedByName() {
        #expect(throws: PayloadFormatError.unsupportedVersion) { try Self.format(of: #"{"version":"3.0"}"#) }
        #expect(throws: PayloadFormatError.unsupportedVersion) { try Self.format(of: #"{"version":2}"#) }
        #expect(throws: PayloadFormatError.unknown) {
            try Self.format(of: #"{"type":"TOKEN","authorizationToken":"x","methodArn":"arn"}"#)
        }
        #expect(throws: PayloadFormatError.notAnObject) { try Self.format(of: "[1,2]") }
        #expect(throws: PayloadFormatError.notAnObject) { try Self.format(of: "") }
    }

    @Test func templateSpellings() {
        #expect(PayloadFormat(version: "1.0") == .v1)
        #expect(PayloadFormat(version: "2.0") == .v2)
        #expect(PayloadFormat(version: "2") == nil)
    }
}
