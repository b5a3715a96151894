import LambdaEvents
import LambdaRuntime

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

await Lambda.run {
    if ProcessInfo.processInfo.environment["MISBEHAVE_INIT"] == "fail" {
        throw InvocationError(type: "Misbehaving.InitFailure", message: "initialisation asked to fail")
    }
    return MisbehavingHandler()
}
