import Foundation
import GatehouseJSON
import Testing

@testable import AWSSigning

/// The signer against the 15 requests botocore signed at a fixed clock
/// (`Vectors/sigv4/vectors.json`, beside this file): every canonical request, string to sign,
/// added header and `Authorization` header reproduced exactly.
struct SigV4VectorTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        let json: JSONValue
        var name: String { json["name"]?.stringValue ?? "?" }
        var testDescription: String { name }
    }

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Vectors/sigv4/vectors.json")

    static let vectors: [Vector] = {
        guard let data = try? Data(contentsOf: file), let root = try? JSONValue(parsing: Array(data)),
            let list = root["vectors"]?.arrayValue
        else { return [] }
        return list.map(Vector.init)
    }()

    @Test func allFifteenVectorsAreThere() {
        #expect(Self.vectors.count == 15, "read \(Self.file.path)")
    }

    @Test(arguments: vectors)
    func signsAsBotocoreSigns(_ vector: Vector) throws {
        let json = vector.json
        let credentials = AWSCredentials(
            accessKeyID: try #require(json["credentials"]?["accessKeyId"]?.stringValue),
            secretAccessKey: try #require(json["credentials"]?["secretAccessKey"]?.stringValue),
            sessionToken: json["credentials"]?["sessionToken"]?.stringValue)
        let signer = SigV4Signer(
            credentials: credentials, region: try #require(json["region"]?.stringValue),
            service: try #require(json["service"]?.stringValue))
        let headers = (json["request"]?["headers"]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map {
            (name: $0.key, value: $0.value.stringValue ?? "")
        }
        let request = SigV4Signer.Request(
            method: try #require(json["request"]?["method"]?.stringValue),
            url: try #require(json["request"]?["url"]?.stringValue), headers: headers,
            body: Array((json["request"]?["body"]?.stringValue ?? "").utf8))
        let date = try #require(json["date"]?.stringValue)

        var added: [(name: String, value: String)] = [(name: "x-amz-date", value: date)]
        if let token = credentials.sessionToken { added.append((name: "x-amz-security-token", value: token)) }
        let canonical = try SigV4Canonical(request: request, extraHeaders: added)
        #expect(canonical.canonicalRequest == json["canonicalRequest"]?.stringValue)
        let scope = "\(date.prefix(8))/\(signer.region)/\(signer.service)/aws4_request"
        #expect(
            signer.stringToSign(canonicalRequest: canonical.canonicalRequest, amzDate: date, scope: scope)
                == json["stringToSign"]?.stringValue)

        let signed = try signer.signingHeaders(for: request, amzDate: date)
        #expect(signed.last?.value == json["authorization"]?.stringValue)
        // Every header botocore added (or normalised), with the same value.
        for (name, value) in json["signedHeaders"]?.objectValue ?? [:] {
            let ours = signed.first { $0.name == name }?.value ?? headers.first { $0.name.lowercased() == name }?.value
            #expect(ours == value.stringValue, "\(name)")
        }
    }

    @Test func credentialsComeFromLambdasVariablesAndNeverShowTheSecret() {
        let credentials = AWSCredentials(environment: [
            "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s3cr3t", "AWS_SESSION_TOKEN": "t0k3n",
        ])
        #expect(credentials == AWSCredentials(accessKeyID: "AKID", secretAccessKey: "s3cr3t", sessionToken: "t0k3n"))
        #expect(!"\(credentials!)".contains("s3cr3t") && !"\(credentials!)".contains("t0k3n"))
        #expect(AWSCredentials(environment: ["AWS_ACCESS_KEY_ID": "AKID"]) == nil)
        #expect(AWSCredentials(environment: ["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": ""]) == nil)
    }

    @Test func aURLItCannotReadIsRefused() {
        let signer = SigV4Signer(
            credentials: AWSCredentials(accessKeyID: "a", secretAccessKey: "b"), region: "us-east-1", service: "s")
        #expect(throws: SigV4Error.self) {
            try signer.signingHeaders(
                for: .init(method: "GET", url: "ftp://x/", headers: [], body: []), amzDate: "20150830T123600Z")
        }
    }
}
