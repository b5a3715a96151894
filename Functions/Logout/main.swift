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
    // Settings, keys and the store are checked here: a bad one fails the cold start.
    let environment = ProcessInfo.processInfo.environment
    return LogoutHandler(
        sessions: try SessionService(environment: environment, store: SQLiteStore(environment: environment)))
}
