import Foundation
import Testing

// `musicgraph` run as a real process, as CI scripts and users run it: the built binary sits
// next to the test bundle in the build directory (`swift build --build-tests` builds it), or
// `$MUSICGRAPH_BIN` names it.

/// What one run of the CLI answered.
struct CLIRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// stdout split into lines, without the final empty one.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

enum CLI {
    /// The repository root (where `schema.graphql` lives), from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var schemaPath: String { root.appendingPathComponent("schema.graphql").path }

    /// What every child starts with under the test's own `environment`: its store in memory
    /// unless a test names another (`--store` wins over the variable), and a cache directory of
    /// this test run's own, so no test reads or writes the user's default store file.
    static let storeIsolation: [String: String] = [
        "MUSICGRAPH_STORE": "memory",
        "XDG_CACHE_HOME": FileManager.default.temporaryDirectory.appendingPathComponent(
            "musicgraph-cli-cache-\(ProcessInfo.processInfo.processIdentifier)"
        ).path,
    ]

    /// The environment of a child: the test's own, the isolation, then `environment`.
    static func childEnvironment(_ environment: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(storeIsolation) { _, new in new }.merging(environment) { _, new in
            new
        }
    }

    static func binary() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["MUSICGRAPH_BIN"] { return URL(fileURLWithPath: path) }
        let directories = [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
            .compactMap { $0?.deletingLastPathComponent() }
        for directory in directories + directories.map({ $0.deletingLastPathComponent() }) {
            let candidate = directory.appendingPathComponent("musicgraph")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CLIProcessError("build the musicgraph executable first (swift build --build-tests)")
    }

    /// Runs `musicgraph arguments…` in `directory` to its end, feeding `stdin`.
    static func run(
        _ arguments: [String], stdin: String = "", in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> CLIRun {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = CLI.childEnvironment(environment)
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        // stderr is drained on its own thread: a long stdout must not wait on a full stderr pipe.
        let errorData = ErrorDrain(errors.fileHandleForReading)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRun(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errorData.wait(), as: UTF8.self))
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

struct CLIProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A fresh temporary directory holding `files` (relative path → contents), removed by `remove()`.
struct TemporaryTree {
    let url: URL

    init(_ files: [String: [UInt8]]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("musicgraph-cli-\(UUID().uuidString)")
        for (path, bytes) in files {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    init(text files: [String: String]) throws {
        try self.init(files.mapValues { Array($0.utf8) })
    }

    func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A long-running `musicgraph` (serve, demo-upstream) whose first stdout line is its address.
final class CLIChild {
    let process = Process()
    let firstLine: String

    /// `standardError`: where the child's stderr goes (discarded by default).
    init(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        standardError: FileHandle? = nil
    ) throws {
        process.executableURL = try CLI.binary()
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = CLI.childEnvironment(environment)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = standardError ?? FileHandle.nullDevice
        try process.run()
        var bytes: [UInt8] = []
        while !bytes.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            bytes += chunk
        }
        firstLine = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }

    /// The URL at the end of the first line (`musicgraph serving http://127.0.0.1:PORT/graphql`).
    var url: String { String(firstLine.split(separator: " ").last ?? "") }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
