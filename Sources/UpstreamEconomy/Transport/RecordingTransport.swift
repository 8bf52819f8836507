import Foundation
import Synchronization

/// `--record DIR`: sends every upstream GET through `base` (the libcurl transport) and
/// writes each response it gets, secrets removed, to DIR as a `RecordedExchange` file named
/// after its request key (a later exchange with the same key replaces the file). Transport
/// failures (no response) are not recorded. Files are written whole and renamed into place,
/// so a reader never sees half a recording.
public struct RecordingTransport: UpstreamTransport {
    public let base: any UpstreamTransport
    public let directory: String
    /// The providers' base URLs, which keys are made relative to.
    public let baseURLs: [String]
    /// Values replaced by `***` in everything written.
    package let secrets: [String]
    private let failures: Failures

    /// - Throws: `RecordingError` when DIR cannot be created.
    public init(base: any UpstreamTransport, directory: String, baseURLs: [String], secrets: [String])
        throws(RecordingError)
    {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw RecordingError(file: directory, reason: "cannot create the recording directory")
        }
        self.base = base
        self.directory = directory
        self.baseURLs = baseURLs
        self.secrets = secrets
        self.failures = Failures()
    }

    public func get(url: String, headers: [(name: String, value: String)]) async throws -> UpstreamResponse {
        let response = try await base.get(url: url, headers: headers)
        let exchange = RecordedExchange(
            url: url, headers: headers, response: response, baseURLs: baseURLs, secrets: secrets)
        write(exchange)
        return response
    }

    public func discard(url: String, headers: [(name: String, value: String)]) {
        base.discard(url: url, headers: headers)
    }

    /// Files that could not be written, as `path: reason` (for the CLI to report at the end).
    public var writeFailures: [String] { failures.list.withLock { $0 } }

    private func write(_ exchange: RecordedExchange) {
        let path = (directory as NSString).appendingPathComponent(RecordedExchange.fileName(for: exchange.key))
        let temporary = path + ".partial-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(exchange.fileText().utf8)) else {
            failures.list.withLock { $0.append("\(path): cannot write") }
            return
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            failures.list.withLock { $0.append("\(path): \(reason)") }
        }
    }

    private final class Failures: Sendable {
        package let list = Mutex<[String]>([])
    }
}
