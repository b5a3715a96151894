import ArgumentParser

/// A problem with what the user gave (a file, a name, a flag): one line on standard error and
/// exit status 2, never a stack trace.
struct UsageFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// Runs `body`; any error it throws that is not already an exit code becomes one line and exit 2.
    static func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(2)
        }
    }
}
