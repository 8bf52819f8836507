import Foundation

/// A command's arguments split into `--flag value` options, bare `--switch`es and
/// positionals. Which flags take a value is the command's business: it asks with
/// `value(_:)` or `flag(_:)`, and `unknownOption(allowed:)` reports anything it did not expect
/// (`dispatch` asks it with the command's `options`).
struct CommandLineArguments {
    private(set) var options: [String: String] = [:]
    private(set) var switches: Set<String> = []
    private(set) var positionals: [String] = []

    /// Switches that never take a value.
    static let knownSwitches: Set<String> = [
        "--help", "-h", "--json", "--demo", "--no-result-cache", "--no-apq", "--require-trusted-documents",
        "--cache-control-public", "--limit-loopback-connections", "--fail-on-deprecated", "--mock", "--incremental",
        "--no-introspection", "--serve-limits", "--store-reset", "--trace-documents",
    ]

    init(_ argv: [String]) {
        var i = 0
        while i < argv.count {
            let arg = argv[i]
            if arg == "-" {
                positionals.append(arg)
            } else if arg.hasPrefix("-") {
                if let eq = arg.firstIndex(of: "=") {
                    options[String(arg[..<eq])] = String(arg[arg.index(after: eq)...])
                } else if CommandLineArguments.knownSwitches.contains(arg) || i + 1 >= argv.count {
                    switches.insert(arg)
                } else {
                    options[arg] = argv[i + 1]
                    i += 1
                }
            } else {
                positionals.append(arg)
            }
            i += 1
        }
    }

    /// A string option; nil when absent, a `CLIError` when given last with no value
    /// (`serve --store`, `query --upstream`): that must not silently mean the default.
    func value(_ name: String) throws(CLIError) -> String? {
        if switches.contains(name) { throw CLIError("\(name) needs a value") }
        return options[name]
    }
    func flag(_ name: String) -> Bool { switches.contains(name) }
    /// Whether `name` came with no value: given last, or as `name=` (for a message of its own).
    func lacksValue(_ name: String) -> Bool { switches.contains(name) || options[name]?.isEmpty == true }
    var wantsHelp: Bool { flag("--help") || flag("-h") }

    /// An integer option; nil when absent, a `CLIError` when not a non-negative integer or
    /// given last with no value (`serve --port`: it must not silently mean the default).
    func int(_ name: String) throws(CLIError) -> Int? {
        if switches.contains(name) { throw CLIError("\(name) needs a value (a non-negative integer)") }
        guard let text = options[name] else { return nil }
        guard let n = Int(text), n >= 0 else { throw CLIError("\(name) expects a non-negative integer, got '\(text)'") }
        return n
    }

    /// Options and switches not in `allowed`.
    func unknown(allowed: Set<String>) -> [String] {
        (Array(options.keys) + Array(switches)).filter { !allowed.contains($0) && $0 != "--help" && $0 != "-h" }
            .sorted()
    }

    /// The first option or switch not in `allowed` (`--help` and `-h` always are) as the
    /// problem to report, naming the nearest allowed one when there is one; nil when all are.
    func unknownOption(allowed: Set<String>) -> CLIError? {
        guard let first = unknown(allowed: allowed).first else { return nil }
        if let near = nearest(to: first, among: allowed.union(["--help"]).sorted()) {
            return CLIError("unknown option \(first); did you mean \(near)?")
        }
        return CLIError("unknown option \(first); see --help")
    }
}

/// A usage or I/O problem of the CLI itself, reported as one line on stderr (exit 2).
struct CLIError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Reads FILE, or stdin when `path` is nil or `-`; bytes kept as they are (BOM and CRLF included).
func readInput(_ path: String?) throws(CLIError) -> [UInt8] {
    if let path, path != "-" {
        // Straight into the array: going through Data would hold the document twice at peak.
        guard let file = fopen(path, "rb") else { throw CLIError("cannot read '\(path)'") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        // Sized up front: growing by doubling would peak at ~2.25× a large document.
        var status = stat()
        if fstat(fileno(file), &status) == 0 && status.st_size > 0 { bytes.reserveCapacity(Int(status.st_size) + 1) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count {
                if ferror(file) != 0 { throw CLIError("cannot read '\(path)'") }
                return bytes
            }
        }
    }
    return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
}

/// Writes `text` to stdout in one go, from the string's own UTF-8 storage (no copy).
func writeStdout(_ text: String) {
    writeAll(text, to: 1)
}

/// Writes one line to stderr.
func writeStderr(_ line: String) {
    writeAll(line + "\n", to: 2)
}

/// `bytes` to `descriptor`; what a closed pipe (EPIPE, SIGPIPE being ignored) or a bad
/// descriptor refuses is dropped, where FileHandle.write would trap.
func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBufferPointer { writeAll($0, to: descriptor) }
}

private func writeAll(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { writeAll($0, to: descriptor) }
}

private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
    var offset = 0
    while offset < bytes.count {
        let n = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0, errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
    }
}

/// Reports a CLI error as `musicgraph <command>: <message>` and returns exit status 2.
func fail(_ command: String, _ error: CLIError) -> Int32 {
    writeStderr("musicgraph \(command): \(error.message)")
    return 2
}
