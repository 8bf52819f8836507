import Foundation

// Programs run as processes by the tests: `musicgraph` as CI scripts and users run it (the built
// binary sits next to the test bundle in the build directory, which `swift build --build-tests`
// fills, or `$MUSICGRAPH_BIN` names it), and the scripts and clients some tests drive.

/// What one run of a program answered.
public struct ProcessRun: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// stdout split into lines, without the final empty one.
    public var lines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

/// Runs `executable arguments…` to its end in `directory` (the test's own by default), feeding it
/// `stdin`, with `environment` (the test's own by default), terminated after `timeoutSeconds` if
/// given. Its stderr goes to a temporary file read once it has exited, so a long stdout never
/// waits on a full stderr pipe.
public func runProcess(
    _ executable: URL, _ arguments: [String], stdin: String = "", in directory: URL? = nil,
    environment: [String: String]? = nil, timeoutSeconds: Double? = nil
) throws -> ProcessRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if let environment { process.environment = environment }
    let errors = FileManager.default.temporaryDirectory.appendingPathComponent("process-\(UUID().uuidString).err")
    guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
        throw CLIProcessError("cannot create \(errors.path)")
    }
    defer { try? FileManager.default.removeItem(at: errors) }
    let errorHandle = try FileHandle(forWritingTo: errors)
    defer { try? errorHandle.close() }
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errorHandle
    try process.run()
    let watchdog = DispatchWorkItem { process.terminate() }
    if let timeoutSeconds { DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds, execute: watchdog) }
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try input.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    return ProcessRun(
        status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
        stderr: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
}

/// The `musicgraph` executable of this build and the environment its children get.
public enum CLI {
    /// The repository root (where `schema.graphql` lives), from this file's path.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    public static var schemaPath: String { root.appendingPathComponent("schema.graphql").path }

    /// What every child starts with under the test's own `environment`: its store in memory
    /// unless a test names another (`--store` wins over the variable), and a cache directory of
    /// this test run's own, so no test reads or writes the user's default store file.
    public static let storeIsolation: [String: String] = [
        "MUSICGRAPH_STORE": "memory",
        "XDG_CACHE_HOME": FileManager.default.temporaryDirectory.appendingPathComponent(
            "musicgraph-cli-cache-\(ProcessInfo.processInfo.processIdentifier)"
        ).path,
    ]

    /// The environment of a child: the test's own, the isolation, then `environment`.
    public static func childEnvironment(_ environment: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(storeIsolation) { _, new in new }.merging(environment) { _, new in
            new
        }
    }

    public static func binary() throws -> URL {
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
    public static func run(
        _ arguments: [String], stdin: String = "", in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> ProcessRun {
        try runProcess(
            binary(), arguments, stdin: stdin, in: directory, environment: childEnvironment(environment))
    }
}

public struct CLIProcessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A long-running `musicgraph` (serve, demo-upstream) whose first stdout line is its address.
public final class CLIChild {
    public let process = Process()
    public let firstLine: String

    /// `standardError`: where the child's stderr goes (discarded by default);
    /// `closingStandardError`: start it with descriptor 2 closed (through `sh -c '… 2>&-'`).
    public init(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        standardError: FileHandle? = nil, closingStandardError: Bool = false
    ) throws {
        if closingStandardError {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #"exec "$0" "$@" 2>&-"#, try CLI.binary().path] + arguments
        } else {
            process.executableURL = try CLI.binary()
            process.arguments = arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        process.environment = CLI.childEnvironment(environment)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = standardError ?? FileHandle.nullDevice
        try process.run()
        firstLine = readFirstLine(of: out)
    }

    /// The URL at the end of the first line (`musicgraph serving http://127.0.0.1:PORT/graphql`).
    public var url: String { String(firstLine.split(separator: " ").last ?? "") }

    public func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

/// The first line a child writes to `pipe` (without its newline; what came before the end of
/// the output when it wrote none), waiting for it.
public func readFirstLine(of pipe: Pipe) -> String {
    var bytes: [UInt8] = []
    while !bytes.contains(UInt8(ascii: "\n")) {
        let chunk = pipe.fileHandleForReading.availableData
        guard !chunk.isEmpty else { break }
        bytes += chunk
    }
    return String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
}
