import GatehouseJSON
import StoreCore

/// What this domain says about the registered apps' native apps, so an iOS or Android app may
/// use the passkeys of the RP ID this API serves: Apple's `apple-app-site-association`
/// (`webcredentials`) and Google's Digital Asset Links `assetlinks.json`
/// (`delegate_permission/common.get_login_creds`).
///
/// Every app's lists, gathered. No function may read the whole `Apps` table (only the CLI lists
/// the apps), so the CLI keeps this in one item of its own there (`itemID`, which is no app's id),
/// written in the transaction that changes an app (`AppRegistry`), and the function reads that one.
public struct AppSiteAssociation: Sendable, Equatable {
    /// The key of the item in `Apps`: not an app id (`App.isValidID` refuses the dots).
    public static let itemID = ".well-known"
    /// Apple's CDN refuses an `apple-app-site-association` larger than 128 KB; neither file
    /// may grow past it, so the item stays far below DynamoDB's 400 KB too.
    public static let maximumBytes = 128 * 1024

    /// Every app's `TEAMID.bundle.id`, sorted, without repeats.
    public let appleAppIDs: [String]
    /// Every package, sorted by name; the fingerprints of a package two apps list are merged, sorted.
    public let androidApps: [AndroidApp]
    /// The item's revision: each write adds one, on the condition that it is still the one read
    /// (0 when there is no item yet).
    public let revision: Int

    /// The lists of `apps`, at `revision`; `AppError.invalid` when the files would be too large.
    public init(apps: [App], revision: Int = 0) throws(AppError) {
        appleAppIDs = Set(apps.flatMap(\.appleAppIDs)).sorted()
        var fingerprints: [String: Set<String>] = [:]
        for android in apps.flatMap(\.androidApps) {
            fingerprints[android.packageName, default: []].formUnion(android.fingerprints)
        }
        var merged: [AndroidApp] = []
        for (name, prints) in fingerprints.sorted(by: { $0.key < $1.key }) {
            // Each was checked once already; merged, a package may hold more than one app's share.
            merged.append(AndroidApp(unchecked: name, fingerprints: prints.sorted()))
        }
        androidApps = merged
        self.revision = revision
        for (field, body) in [("apple-app-id", appleAppSiteAssociation), ("android-app", assetLinks)]
        where body.serialized.utf8.count > Self.maximumBytes {
            throw .invalid(field, "the apps' lists would make the file larger than \(Self.maximumBytes / 1024) KB")
        }
    }

    /// `{"webcredentials": {"apps": [...]}}`: what `/.well-known/apple-app-site-association` answers.
    public var appleAppSiteAssociation: JSONValue {
        ["webcredentials": ["apps": .array(appleAppIDs.map { .string($0) })]]
    }

    /// The statements `/.well-known/assetlinks.json` answers: one per package.
    public var assetLinks: JSONValue {
        .array(
            androidApps.map { android in
                [
                    "relation": ["delegate_permission/common.get_login_creds"],
                    "target": [
                        "namespace": "android_app", "package_name": .string(android.packageName),
                        "sha256_cert_fingerprints": .array(android.fingerprints.map { .string($0) }),
                    ],
                ]
            })
    }

    /// As stored in `Apps`.
    public var item: Item {
        [
            "id": .string(Self.itemID), "revision": .number(Double(revision)),
            "appleAppIds": .array(appleAppIDs.map { .string($0) }), "androidApps": .array(androidApps.map(\.value)),
        ]
    }

    /// Reads the stored item; nil when it is not one this type wrote.
    public init?(item: Item) {
        guard item["id"] == .string(Self.itemID),
            let revision = item["revision"]?.numberValue.flatMap({ Int(exactly: $0) }),
            let apple = item["appleAppIds"]?.arrayValue, let android = item["androidApps"]?.arrayValue,
            case let ids = apple.compactMap(\.stringValue), ids.count == apple.count,
            ids.allSatisfy({ (try? AppleAppID.validate($0)) != nil })
        else { return nil }
        let apps = android.compactMap(AndroidApp.init(value:))
        guard apps.count == android.count else { return nil }
        appleAppIDs = ids
        androidApps = apps
        self.revision = revision
    }

    /// No app lists a native app (and no item is stored yet).
    public static let empty = Self(appleAppIDs: [], androidApps: [], revision: 0)

    private init(appleAppIDs: [String], androidApps: [AndroidApp], revision: Int) {
        self.appleAppIDs = appleAppIDs
        self.androidApps = androidApps
        self.revision = revision
    }
}
