import Foundation

/// Where the CLI writes: results on standard output, everything else on standard error.
enum Console {
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func output(_ bytes: some Sequence<UInt8>) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    static func output(_ line: String) {
        output(Array((line + "\n").utf8))
    }
}
