import AuthKit
import HTTPEdge
import LambdaRuntime
import Store

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

await Lambda.runHTTP {
    // Settings and the store are checked here: a bad one fails the cold start.
    let environment = ProcessInfo.processInfo.environment
    let store = try SQLiteStore(environment: environment)
    let settings = try SessionSettings(environment: environment)
    return EmailMagicLinkHandler(
        assertions: S2SVerifier(store: store, clock: SystemStoreClock(), audience: settings.issuer),
        links: try MagicLinks(environment: environment, store: store))
}
