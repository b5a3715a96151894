import ArgumentParser
import AuthKit

/// `gatehouse apps add` and `update`'s native apps: those that may use this domain's passkeys,
/// listed by `/.well-known/apple-app-site-association` and `/.well-known/assetlinks.json`.
struct NativeAppOptions: ParsableArguments {
    @Option(
        name: .customLong("apple-app-id"),
        help: "An iOS app as TEAMID.bundle.id (e.g. ABCDE12345.com.example.app); repeatable, at most 20.")
    var appleAppIDs: [String] = []
    @Option(
        name: .customLong("android-app"),
        help: """
            An Android app as PACKAGE=SHA256[,SHA256…], its signing certificates' fingerprints \
            (AA:BB:…, as keytool or Play Console print them); repeatable, at most 20.
            """)
    var androidApps: [String] = []

    /// Each `--android-app`, read; `AppError.invalid("android-app", …)` for one that is not.
    func parsedAndroidApps() throws(AppError) -> [AndroidApp] {
        var parsed: [AndroidApp] = []
        for option in androidApps {
            parsed.append(try AndroidApp(option: option))
        }
        return parsed
    }
}
