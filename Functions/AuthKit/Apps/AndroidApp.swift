import GatehouseJSON

/// An Android app that may use this domain's passkeys: its package name and the SHA-256
/// fingerprints of the certificates it is signed with, as `assetlinks.json` lists them
/// (`AppSiteAssociation`).
public struct AndroidApp: Sendable, Equatable {
    /// How many packages one app may list, and how many fingerprints each.
    public static let maximumPerApp = 20
    public static let maximumFingerprints = 10
    /// A package name's longest.
    static let maximumNameLength = 255

    /// A Java package name: two or more parts of letters, digits and `_`, each starting with a letter.
    public let packageName: String
    /// Each `AA:BB:…`, 32 upper-case hex bytes, in their order, without repeats.
    public let fingerprints: [String]

    /// Checks both; `AppError.invalid("android-app", …)` says what is wrong. A fingerprint may
    /// be given in lower case; it is kept in upper case, as Android's tools print it.
    public init(packageName: String, fingerprints: [String]) throws(AppError) {
        let parts = packageName.split(separator: ".", omittingEmptySubsequences: false)
        guard packageName.utf8.count <= Self.maximumNameLength, parts.count >= 2,
            parts.allSatisfy({ part in
                guard let first = part.unicodeScalars.first, Self.isLetter(first) else { return false }
                return part.unicodeScalars.allSatisfy { Self.isLetter($0) || ("0"..."9").contains($0) || $0 == "_" }
            })
        else {
            throw .invalid(
                "android-app", "\(AppleAppID.quoted(packageName)) is not a package name such as com.example.app")
        }
        var kept: [String] = []
        for fingerprint in fingerprints {
            let upper = fingerprint.uppercased()
            guard Self.isFingerprint(upper) else {
                throw .invalid(
                    "android-app",
                    "\(AppleAppID.quoted(fingerprint)) is not a SHA-256 certificate fingerprint (32 bytes as AA:BB:…)")
            }
            if !kept.contains(upper) { kept.append(upper) }
        }
        guard !kept.isEmpty else { throw .invalid("android-app", "\(packageName) needs a fingerprint") }
        self.packageName = packageName
        self.fingerprints = kept
    }

    /// `packageName` and `fingerprints` as they are: checked already.
    init(unchecked packageName: String, fingerprints: [String]) {
        self.packageName = packageName
        self.fingerprints = fingerprints
    }

    /// Reads `gatehouse apps add --android-app`'s `com.example.app=AA:BB:…[,CC:DD:…]`.
    public init(option text: String) throws(AppError) {
        let halves = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else {
            throw .invalid("android-app", "\(AppleAppID.quoted(text)) is not PACKAGE=FINGERPRINT[,FINGERPRINT…]")
        }
        try self.init(
            packageName: String(halves[0]), fingerprints: halves[1].split(separator: ",").map(String.init))
    }

    /// `apps` checked, one entry per package (the fingerprints of a package named twice are
    /// merged), in their order; at most `maximumPerApp` packages of `maximumFingerprints` each.
    public static func checked(_ apps: [AndroidApp]) throws(AppError) -> [AndroidApp] {
        var merged: [AndroidApp] = []
        for app in apps {
            if let index = merged.firstIndex(where: { $0.packageName == app.packageName }) {
                merged[index] = try AndroidApp(
                    packageName: app.packageName, fingerprints: merged[index].fingerprints + app.fingerprints)
            } else {
                merged.append(try AndroidApp(packageName: app.packageName, fingerprints: app.fingerprints))
            }
        }
        guard merged.count <= maximumPerApp else {
            throw .invalid("android-app", "an app lists at most \(maximumPerApp) packages")
        }
        if let crowded = merged.first(where: { $0.fingerprints.count > maximumFingerprints }) {
            throw .invalid("android-app", "\(crowded.packageName) lists at most \(maximumFingerprints) fingerprints")
        }
        return merged
    }

    /// As stored: `{"packageName": …, "sha256CertFingerprints": […]}`.
    public var value: JSONValue {
        ["packageName": .string(packageName), "sha256CertFingerprints": .array(fingerprints.map { .string($0) })]
    }

    /// Reads a stored entry; nil when it is not a valid one (how many it may hold is for its
    /// reader to check: `checked`).
    public init?(value: JSONValue) {
        guard let name = value["packageName"]?.stringValue,
            let fingerprints = value["sha256CertFingerprints"]?.arrayValue?.compactMap(\.stringValue),
            fingerprints.count == value["sha256CertFingerprints"]?.arrayValue?.count,
            let app = try? AndroidApp(packageName: name, fingerprints: fingerprints)
        else { return nil }
        self = app
    }

    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// Whether `text` is 32 upper-case hex bytes apart by `:`.
    static func isFingerprint(_ text: String) -> Bool {
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        return bytes.count == 32
            && bytes.allSatisfy { byte in
                byte.unicodeScalars.count == 2
                    && byte.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("A"..."F").contains($0) }
            }
    }
}
