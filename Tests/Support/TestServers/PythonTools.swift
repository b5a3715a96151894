import Emulator
import Foundation

/// Where the tests find the Python tools `.ci/run` installs: in the repository's virtual
/// environments under `.build`, never the system Python's site-packages.
public enum PythonTools {
    /// The repository's root (this file is in Tests/Support/TestServers).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The interpreter to run Python with (through `/usr/bin/env`): `.build/venv/bin/python3`,
    /// which has moto, boto3, selenium and supabase-auth (`Tools/requirements.txt`), when
    /// `.ci/run` has made it; else `python3` from `PATH`.
    public static let python: String = {
        let venv = repositoryRoot.appendingPathComponent(".build/venv/bin/python3").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
    }()

    /// A command-line tool from `.build/venv/bin` (`cfn-lint`, `sam`), when `.ci/run` installed it.
    public static func tool(_ name: String) -> String? {
        let path = repositoryRoot.appendingPathComponent(".build/venv/bin/\(name)").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// The AWS CLI, in a virtual environment of its own (`.build/venv-awscli`,
    /// `Tools/requirements-awscli.txt`): it pins a botocore that boto3 does not accept beside it.
    public static let awsCLI = repositoryRoot.appendingPathComponent(".build/venv-awscli/bin/aws").path

    /// Runs `Tests/Support/<script>` with the repository's Python and `arguments`, to its end:
    /// whether it exited with 0, and what it wrote to its standard error.
    public static func run(_ script: String, _ arguments: [String]) async throws -> (succeeded: Bool, errors: String) {
        let path = repositoryRoot.appendingPathComponent("Tests/Support/\(script)").path
        let run = try await ChildProcess.capture("/usr/bin/env", [python, path] + arguments)
        return (run.termination.reason == .exited(0), run.standardError)
    }
}
