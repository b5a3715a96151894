import Foundation
import GatehouseJSON
import TestServers
import Testing

/// No stranger can keep an owner from signing in, through `start-api` and the real binaries,
/// with the stranger's requests from a source of their own (127.0.0.2, as start-api sees the
/// connection) and the owner's from 127.0.0.1. Before, a number or an address had one hourly
/// allowance, whoever used it: the stranger's requests left the owner a 429.
@Suite(.serialized)
struct OwnerLockoutTests {
    let cli = GatehouseCLI()

    /// A JSON POST of `body` to `path` from `source`: its status and body.
    func post(_ api: LocalAPI, _ path: String, _ body: String, from source: String) async throws -> (Int, JSONValue) {
        let request =
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let answer = await RudeClient.exchange(port: api.port, from: source, request)
        let parts = answer.components(separatedBy: "\r\n\r\n")
        let statusText = parts.first?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        let status = try #require(Int(statusText), "an answer: \(answer)")
        return (status, (try? JSONValue(parsing: Array(parts.dropFirst().joined(separator: "\r\n\r\n").utf8))) ?? .null)
    }

    @Test func aStrangersTextRequestsLeaveTheOwnerTheirCode() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let body = #"{"phoneNumber":"+14155550188"}"#
            for _ in 0..<3 { #expect(try await post(api, "/auth/otp/request", body, from: "127.0.0.2").0 == 200) }
            #expect(try await post(api, "/auth/otp/request", body, from: "127.0.0.2").0 == 429)
            #expect(try await post(api, "/auth/otp/request", body, from: "127.0.0.1").0 == 200)
            let texts = try await cli.run(["outbox", "--json", "--to", "+14155550188"]).stdoutText
            let last = try #require(texts.split(separator: "\n").last)
            let code = try #require(try JSONValue(parsing: Array(last.utf8))["secret"]?.stringValue)
            let verify = #"{"phoneNumber":"+14155550188","code":"\#(code)"}"#
            #expect(try await post(api, "/auth/otp/verify", verify, from: "127.0.0.1").0 == 200)
        }
    }

    @Test func aStrangersMagicLinksLeaveTheOwnerTheirLink() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let body = #"{"email":"owner@example.com","app":"demo"}"#
            for _ in 0..<5 { #expect(try await post(api, "/auth/send-magic-link", body, from: "127.0.0.2").0 == 200) }
            #expect(try await post(api, "/auth/send-magic-link", body, from: "127.0.0.2").0 == 429)
            #expect(try await post(api, "/auth/send-magic-link", body, from: "127.0.0.1").0 == 200)
            let mails = try await cli.run(["outbox", "--json", "--to", "owner@example.com"]).stdoutText
            #expect(mails.split(separator: "\n").count == 6)
        }
    }
}
