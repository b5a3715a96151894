import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sign-in messages through SES and SNS (moto_server) instead of the outbox, with the store on
/// DynamoDB: a magic link emailed and clicked, a phone code texted and verified, both read
/// back through moto's API.
@Suite(.serialized)
struct AWSDeliveryTests {
    let cli = GatehouseCLI()

    @Test func aLinkGoesOutThroughSESAndACodeThroughSNS() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let from = "signin-\(UUID().uuidString.prefix(6))@example.com"
        let verified = try await ChildProcess.capture(
            "/usr/bin/env",
            [
                PythonTools.python, "-c",
                "import boto3; boto3.client('ses', endpoint_url='\(endpoint)', region_name='us-east-1', "
                    + "aws_access_key_id='x', aws_secret_access_key='y').verify_email_identity(EmailAddress='\(from)')",
            ])
        #expect(verified.termination.reason == .exited(0), "\(verified.standardError)")
        let email = ["EMAIL_DELIVERY": "ses", "EMAIL_FROM": from, "SES_ENDPOINT": endpoint]
        let sms = ["SMS_DELIVERY": "sns", "SNS_ENDPOINT": endpoint]
        let variables = ["SendMagicLink": email, "OtpRequest": sms, "OtpVerify": sms]
        // On DynamoDB too (the same moto_server): each function given only its template's tables.
        let store = ["--store", "dynamodb", "--dynamodb-endpoint", endpoint]
        // DynamoDB gets no demo app of itself: added as a developer would (once per server).
        let demo = try await cli.run(
            ["apps", "add", "--id", "demo", "--name", "Demo app", "--base-url", "http://127.0.0.1:3000"] + store)
        #expect(demo.status == 0 || demo.stderr.contains("already exists"), "\(demo.stderr)")
        let api = try await LocalAPI(
            template: GatehouseCLI.projectTemplate, cli: cli, extra: store, variables: variables)
        defer { api.process.kill(SIGINT) }
        do {
            func post(
                _ path: String, _ body: String
            ) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
                try await api.request(
                    "POST", path, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
            }
            let address = "ses-\(UUID().uuidString.prefix(6))@example.com"
            #expect(try await post("/auth/send-magic-link", #"{"email":"\#(address)","app":"demo"}"#).status == 200)
            let mails = try await MotoServer.messaging.state()["ses"]?["Message"]?.arrayValue ?? []
            let mail = try #require(mails.first { $0["destinations"]?["ToAddresses"] == [.string(address)] })
            #expect(mail["source"] == .string(from))
            let body = try #require(mail["body"]?.stringValue)
            let marker = "/auth/email-callback?token="
            let after = try #require(body.components(separatedBy: marker).dropFirst().first)
            let token = after.prefix { !$0.isWhitespace }
            let click = try await api.click(marker + token)
            #expect(click.status == 302)
            #expect(click.headers.first { $0.0 == "location" }?.1.contains("/app/auth/callback?code=") == true)
            #expect(
                try await cli.run(["outbox", "--json", "--to", address] + store).stdoutText.isEmpty, "not in the outbox"
            )

            let number = "+1415555\(Int.random(in: 1000...9999))"
            #expect(try await post("/auth/otp/request", #"{"phoneNumber":"\#(number)"}"#).status == 200)
            let texts = try await MotoServer.messaging.state()["sns"]?["SMS"]?.arrayValue ?? []
            let text = try #require(texts.first { $0["phone_number"] == .string(number) }?["message"]?.stringValue)
            let digits = text.split(whereSeparator: { !$0.isNumber }).map { String($0) }
            let code = try #require(digits.first { $0.count == 6 })
            let verifyBody = #"{"phoneNumber":"\#(number)","code":"\#(code)"}"#
            let verifiedCode = try await post("/auth/otp/verify", verifyBody)
            #expect(verifiedCode.status == 200, "\(String(decoding: verifiedCode.body, as: UTF8.self)) \(verifyBody)")
            #expect(!api.log.contains(String(code)), "the code is in no log line")
        }
        _ = await api.stop()
    }
}
