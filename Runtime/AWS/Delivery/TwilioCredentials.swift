import AuthKit
import GatehouseJSON
import OutboundHTTP

/// Twilio Verify's account SID, Verify service SID and auth token: `TWILIO_ACCOUNT_SID`,
/// `TWILIO_VERIFY_SID` and `TWILIO_AUTH_TOKEN` for local runs, else the Secrets Manager secret
/// `TWILIO_SECRET` names, a JSON object `{"accountSid", "verifyServiceSid", "authToken"}` read on
/// the first use. The token is never logged or put in an error.
struct TwilioCredentials: Sendable {
    struct Values: Sendable {
        let accountSID: String
        let serviceSID: String
        let authToken: String
    }

    private let plain: Values?
    private let secret: ProviderSecret?

    init(environment: [String: String], http: OutboundHTTPClient) throws {
        let reader = EnvironmentReader(environment: environment)
        if let account = reader.optional("TWILIO_ACCOUNT_SID"), let service = reader.optional("TWILIO_VERIFY_SID"),
            let token = reader.optional("TWILIO_AUTH_TOKEN")
        {
            plain = Values(accountSID: account, serviceSID: service, authToken: token)
            secret = nil
        } else {
            guard reader.optional("TWILIO_SECRET") != nil else {
                throw SettingsError.missing(
                    "TWILIO_SECRET (or TWILIO_ACCOUNT_SID, TWILIO_VERIFY_SID, TWILIO_AUTH_TOKEN)")
            }
            plain = nil
            secret = try ProviderSecret(plain: nil, secret: "TWILIO_SECRET", environment: environment, http: http)
        }
    }

    /// The three values, from the variables or the secret.
    func values() async throws -> Values {
        if let plain { return plain }
        guard let secret else { throw SettingsError.missing("TWILIO_SECRET") }
        let json = try? JSONValue(parsing: Array(try await secret.value().utf8))
        guard let account = json?["accountSid"]?.stringValue, let service = json?["verifyServiceSid"]?.stringValue,
            let token = json?["authToken"]?.stringValue
        else {
            throw SettingsError.invalid("TWILIO_SECRET", "is not {\"accountSid\", \"verifyServiceSid\", \"authToken\"}")
        }
        return Values(accountSID: account, serviceSID: service, authToken: token)
    }
}
