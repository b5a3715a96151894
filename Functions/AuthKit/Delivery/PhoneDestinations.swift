/// Where phone codes may go: numbers of the countries on an allow-list, for texts
/// (`SMS_COUNTRIES`) and, separately, for calls (`VOICE_COUNTRIES`), and never a premium-rate,
/// satellite or international-network range, whatever the lists say. This is the first line
/// against SMS pumping (texts bought by an attacker to numbers that pay them); Twilio's geo
/// permissions and Fraud Guard, or SNS's spend limit, are the second.
///
/// A number's country is read from its calling code, and for `+1` from its area code
/// (`NANPAreaCodes`): Canada and the Caribbean share the plan with the United States, and
/// non-geographic codes (toll-free, `500`s, …) are no country's. A number of no country is never
/// texted, even with `*`. A calling code that other countries share too (`+7`, `+44`, `+262`, …)
/// is allowed when any of them is (so allowing Kazakhstan allows `+7`, Russia's too).
public struct PhoneDestinations: Sendable, Equatable {
    /// The design documents' markets: the United States (the phone-first plan) and Saudi Arabia,
    /// the United Arab Emirates and Kuwait (the Supabase contract's assigned countries).
    public static let defaultTextCountries: Set<String> = ["US", "SA", "AE", "KW"]
    /// Calls, which premium-rate fraud prefers, only to the United States unless configured.
    public static let defaultCallCountries: Set<String> = ["US"]

    /// Ranges never texted or called: international premium rate and shared cost (`+979`,
    /// `+808`, `+800`), satellite and international networks (`+870`–`+878`, `+881`–`+883`),
    /// and national premium-rate ranges (`+1 900`, the UK's `09`, `070` and `087`, France's `089`,
    /// Germany's `0900` and `0137`, Italy's `89`).
    public static let blockedPrefixes: [String] = [
        "+800", "+808", "+870", "+871", "+872", "+873", "+874", "+878", "+879", "+881", "+882", "+883", "+888",
        "+979", "+991", "+1900", "+449", "+4470", "+4487", "+3389", "+49900", "+49137", "+3989",
    ]

    /// The countries (ISO 3166-1 alpha-2) texts may go to; nil: any country.
    public let textCountries: Set<String>?
    /// The countries calls may go to; nil: any country.
    public let callCountries: Set<String>?

    public init(textCountries: Set<String>?, callCountries: Set<String>?) {
        self.textCountries = textCountries
        self.callCountries = callCountries
    }

    /// `SMS_COUNTRIES` and `VOICE_COUNTRIES`: comma- or space-separated country codes, or `*` for
    /// any country; the defaults above when unset. An unknown code fails the cold start.
    public init(environment: [String: String]) throws(SettingsError) {
        let reader = EnvironmentReader(environment: environment)
        textCountries = try Self.countries(reader, "SMS_COUNTRIES", default: Self.defaultTextCountries)
        callCountries = try Self.countries(reader, "VOICE_COUNTRIES", default: Self.defaultCallCountries)
    }

    private static func countries(
        _ reader: EnvironmentReader, _ name: String, default value: Set<String>
    ) throws(SettingsError) -> Set<String>? {
        guard let text = reader.optional(name) else { return value }
        if text == "*" { return nil }
        let codes = Set(reader.list(text).map { $0.uppercased() })
        for code in codes where CallingCodes.byCountry[code] == nil {
            throw .invalid(name, "\"\(code)\" is not an ISO 3166-1 alpha-2 country code")
        }
        return codes
    }

    /// Refuses a number that `channel` may not reach: a 400 naming the field, before anything
    /// is counted or sent.
    public func check(_ phone: PhoneNumber, channel: PhoneCodeChannel) throws(SignInError) {
        if Self.blockedPrefixes.contains(where: { phone.value.hasPrefix($0) }) {
            throw .invalidField("phoneNumber", "is in a premium-rate or satellite range, which is never texted")
        }
        let countries = Self.countries(of: phone)
        guard !countries.isEmpty else {
            throw .invalidField(
                "phoneNumber", "is in no country's range (a service or network number), which is never texted")
        }
        let allowed = channel == .sms ? textCountries : callCountries
        guard let allowed else { return }
        guard !countries.isDisjoint(with: allowed) else {
            throw channel == .sms
                ? .invalidField("phoneNumber", "is in a country this service does not text")
                : .invalidField("channel", "calls to this number's country are not allowed here")
        }
    }

    /// The countries `phone` may belong to: those of its calling code (the longest that
    /// matches), and for `+1` the one its area code names.
    static func countries(of phone: PhoneNumber) -> Set<String> {
        let digits = phone.value.dropFirst()
        if digits.hasPrefix("1") {
            let area = String(digits.dropFirst().prefix(3))
            if NANPAreaCodes.nonGeographic.contains(area) { return [] }
            return [NANPAreaCodes.country[area] ?? "US"]
        }
        for length in [3, 2, 1] {
            let code = String(digits.prefix(length))
            let countries = countriesByCallingCode[code] ?? []
            if !countries.isEmpty { return countries }
        }
        return []
    }

    private static let countriesByCallingCode: [String: Set<String>] = {
        var map: [String: Set<String>] = [:]
        for (country, code) in CallingCodes.byCountry { map[code, default: []].insert(country) }
        return map
    }()
}
