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
    // Only the store: this function holds no signing key.
    DeleteAccountHandler(
        accounts: Accounts(
            store: try SQLiteStore(environment: ProcessInfo.processInfo.environment), clock: SystemStoreClock()))
}
