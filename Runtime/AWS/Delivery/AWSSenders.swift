import AWSCalls
import AWSSecrets
import AWSSigning
import AuthKit
import OutboundHTTP

/// The remote senders a function passes to the sign-in services. SES and SNS, from Lambda's
/// region and credentials: `EMAIL_FROM` (the verified sender address, needed for
/// `EMAIL_DELIVERY=ses` and `resend`), and `SES_ENDPOINT` / `SNS_ENDPOINT` for a local endpoint.
/// Resend: its API key from `RESEND_API_KEY_SECRET` (a Secrets Manager secret) or
/// `RESEND_API_KEY`, `RESEND_BASE_URL` for a local stand-in. Twilio Verify: `TwilioCredentials`,
/// `TWILIO_VERIFY_BASE_URL` for a local stand-in. Lambda, for the access-token hook
/// (`LambdaInvoker`, `AWS_ENDPOINT_URL_LAMBDA` for a local endpoint).
public struct AWSSenders: RemoteSenders {
    let environment: [String: String]
    let http: OutboundHTTPClient

    public init(environment: [String: String], http: OutboundHTTPClient = .shared) {
        self.environment = environment
        self.http = http
    }

    public func sender(
        for method: DeliverySettings.Method, channel: OutgoingMessage.Channel
    ) throws
        -> any MessageSender
    {
        let reader = EnvironmentReader(environment: environment)
        switch method {
        case .ses:
            let (region, credentials) = try aws()
            let from = try reader.required("EMAIL_FROM")
            let endpoint = reader.optional("SES_ENDPOINT") ?? "https://email.\(region).amazonaws.com"
            return SESEmailSender(
                call: AWSCall(service: "ses", region: region, endpoint: endpoint, credentials: credentials, http: http),
                from: from)
        case .sns:
            let (region, credentials) = try aws()
            let endpoint = reader.optional("SNS_ENDPOINT") ?? "https://sns.\(region).amazonaws.com"
            return SNSTextSender(
                call: AWSCall(service: "sns", region: region, endpoint: endpoint, credentials: credentials, http: http))
        case .resend:
            return ResendEmailSender(
                baseURL: reader.optional("RESEND_BASE_URL") ?? ResendEmailSender.defaultBaseURL,
                from: try reader.required("EMAIL_FROM"),
                apiKey: try ProviderSecret(
                    plain: "RESEND_API_KEY", secret: "RESEND_API_KEY_SECRET", environment: environment, http: http),
                http: http)
        case .outbox, .twilio:
            throw SettingsError.invalid(
                channel == .email ? "EMAIL_DELIVERY" : "SMS_DELIVERY", "\(method.rawValue) has no message sender")
        }
    }

    public func phoneVerification() throws -> any PhoneVerificationProvider {
        TwilioVerify(
            baseURL: EnvironmentReader(environment: environment).optional("TWILIO_VERIFY_BASE_URL")
                ?? TwilioVerify.defaultBaseURL,
            credentials: try TwilioCredentials(environment: environment, http: http), http: http)
    }

    public func functions() -> (any FunctionInvoker)? {
        LambdaInvoker(environment: environment, http: http)
    }

    /// Lambda's region and credentials, for SES and SNS.
    private func aws() throws -> (String, AWSCredentials) {
        let reader = EnvironmentReader(environment: environment)
        guard let region = reader.optional("AWS_REGION") ?? reader.optional("AWS_DEFAULT_REGION") else {
            throw SettingsError.missing("AWS_REGION")
        }
        guard let credentials = AWSCredentials(environment: environment) else {
            throw SettingsError.missing("AWS_ACCESS_KEY_ID")
        }
        return (region, credentials)
    }
}
