import AWSCalls
import AWSSigning
import AuthKit
import OutboundHTTP

/// The SES and SNS senders a function passes to the sign-in services, from Lambda's region and
/// credentials: `EMAIL_FROM` (the verified sender address, needed for `EMAIL_DELIVERY=ses`),
/// and `SES_ENDPOINT` / `SNS_ENDPOINT` for a local endpoint.
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
        guard let region = reader.optional("AWS_REGION") ?? reader.optional("AWS_DEFAULT_REGION") else {
            throw SettingsError.missing("AWS_REGION")
        }
        guard let credentials = AWSCredentials(environment: environment) else {
            throw SettingsError.missing("AWS_ACCESS_KEY_ID")
        }
        switch method {
        case .ses:
            let from = try reader.required("EMAIL_FROM")
            let endpoint = reader.optional("SES_ENDPOINT") ?? "https://email.\(region).amazonaws.com"
            return SESEmailSender(
                call: AWSCall(service: "ses", region: region, endpoint: endpoint, credentials: credentials, http: http),
                from: from)
        case .sns:
            let endpoint = reader.optional("SNS_ENDPOINT") ?? "https://sns.\(region).amazonaws.com"
            return SNSTextSender(
                call: AWSCall(service: "sns", region: region, endpoint: endpoint, credentials: credentials, http: http))
        case .outbox:
            throw SettingsError.invalid(channel == .email ? "EMAIL_DELIVERY" : "SMS_DELIVERY", "outbox is not remote")
        }
    }
}
