import Foundation
import Synchronization

/// A local stand-in for Twilio Verify's two calls, answering as Twilio's API reference shows:
/// `POST /v2/Services/{sid}/Verifications` (201 `pending`; the same code again while one is
/// pending; 429 error 60203 after 5 sends) and `POST /v2/Services/{sid}/VerificationCheck` (200
/// `approved` for the right code, which ends the verification, 200 `pending` for a wrong one,
/// 404 error 20404 with no pending verification, 429 error 60202 after 5 checks). Requests
/// without the account's HTTP Basic credentials get 401 error 20003. The test reads the code it
/// "sent" (`code(for:)`) as the person would from their phone, and can expire a verification.
public final class TwilioVerifyStandIn: Sendable {
    public static let accountSID = "AC00000000000000000000000000000001"
    public static let authToken = "stand-in-auth-token"
    public static let serviceSID = "VA00000000000000000000000000000001"

    struct Verification {
        var code: String
        var channel: String
        var sends = 1
        var checks = 0
    }

    /// The pending verifications, by number, shared with the server's answers.
    final class State: Sendable {
        let pending = Mutex<[String: Verification]>([:])
    }

    public let server: RecordingServer
    private let state: State

    /// `http://127.0.0.1:PORT`, what `TWILIO_VERIFY_BASE_URL` is set to.
    public var baseURL: String { server.baseURL }

    /// The variables a function needs to use it. The stand-in answers from the test process,
    /// which the rest of the suite keeps busy: its calls get up to 9 s (the functions' own limit
    /// is 10 s) rather than the 5 s default.
    public var environment: [String: String] {
        [
            "SMS_DELIVERY": "twilio", "TWILIO_VERIFY_BASE_URL": baseURL, "TWILIO_ACCOUNT_SID": Self.accountSID,
            "TWILIO_VERIFY_SID": Self.serviceSID, "TWILIO_AUTH_TOKEN": Self.authToken,
            "GATEHOUSE_OUTBOUND_TIMEOUT_SECONDS": "9",
        ]
    }

    private init(server: RecordingServer, state: State) {
        self.server = server
        self.state = state
    }

    public static func start() async throws -> TwilioVerifyStandIn {
        let state = State()
        let server = try await RecordingServer.start { request in Self.answer(request, state: state) }
        return TwilioVerifyStandIn(server: server, state: state)
    }

    /// The code of the verification pending for `number`, if any.
    public func code(for number: String) -> String? {
        state.pending.withLock { $0[number]?.code }
    }

    /// The channel of the verification pending for `number`, if any.
    public func channel(for number: String) -> String? {
        state.pending.withLock { $0[number]?.channel }
    }

    /// Ends the verification pending for `number`, as its 10 minutes running out would.
    public func expire(_ number: String) {
        _ = state.pending.withLock { $0.removeValue(forKey: number) }
    }

    public func stop() async {
        await server.stop()
    }

    static func answer(_ request: RecordingServer.Recorded, state: State) -> RecordingServer.Answer {
        let basic = "Basic " + Data("\(accountSID):\(authToken)".utf8).base64EncodedString()
        guard request.header("authorization") == basic else {
            return error(401, 20003, "Authenticate")
        }
        let form = Self.form(request.body)
        let prefix = "/v2/Services/\(serviceSID)/"
        guard request.method == "POST", let to = form["To"] else { return error(404, 20404, "Not found") }
        switch request.target {
        case prefix + "Verifications":
            return start(to: to, channel: form["Channel"] ?? "sms", state: state)
        case prefix + "VerificationCheck":
            return check(to: to, code: form["Code"] ?? "", state: state)
        default:
            return error(404, 20404, "The requested resource \(request.target) was not found")
        }
    }

    static func start(to: String, channel: String, state: State) -> RecordingServer.Answer {
        state.pending.withLock { pending in
            if var verification = pending[to] {
                verification.sends += 1
                pending[to] = verification
                if verification.sends > 5 { return error(429, 60203, "Max send attempts reached") }
            } else {
                let code = String(format: "%06d", Int.random(in: 0..<1_000_000))
                pending[to] = Verification(code: code, channel: channel)
            }
            return (201, verification(to: to, channel: channel, status: "pending"))
        }
    }

    static func check(to: String, code: String, state: State) -> RecordingServer.Answer {
        state.pending.withLock { pending in
            guard var verification = pending[to] else {
                return error(
                    404, 20404, "The requested resource /Services/\(serviceSID)/VerificationCheck was not found")
            }
            verification.checks += 1
            pending[to] = verification
            if verification.checks > 5 { return error(429, 60202, "Max check attempts reached") }
            guard verification.code == code else {
                return (200, self.verification(to: to, channel: verification.channel, status: "pending"))
            }
            pending[to] = nil
            return (200, self.verification(to: to, channel: verification.channel, status: "approved"))
        }
    }

    static func verification(to: String, channel: String, status: String) -> String {
        """
        {"sid": "VE00000000000000000000000000000001", "service_sid": "\(serviceSID)", \
        "account_sid": "\(accountSID)", "to": "\(to)", "channel": "\(channel)", "status": "\(status)", \
        "valid": \(status == "approved"), "date_created": "2026-11-27T06:00:00Z", \
        "date_updated": "2026-11-27T06:00:00Z"}
        """
    }

    static func error(_ status: Int, _ code: Int, _ message: String) -> RecordingServer.Answer {
        (
            status,
            #"{"code": \#(code), "message": "\#(message)", "more_info": "https://www.twilio.com/docs/errors/\#(code)", "status": \#(status)}"#
        )
    }

    /// An `application/x-www-form-urlencoded` body's fields.
    static func form(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}
