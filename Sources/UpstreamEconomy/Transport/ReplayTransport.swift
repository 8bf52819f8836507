import Foundation

/// `--replay DIR`: answers every upstream GET from the `RecordedExchange` files in DIR, by
/// request key, and never touches the network. A request that was not recorded fails with
/// `TransportFailure.notRecorded` (the field error `UPSTREAM_NOT_RECORDED`, naming the
/// request without secrets); the rest of the answer still resolves.
///
/// Every file is read and checked when the transport is made, so a corrupt recording stops
/// the start, naming its file, instead of surfacing as one odd field error later.
public struct ReplayTransport: UpstreamTransport {
    public let directory: String
    public let baseURLs: [String]
    package let secrets: [String]
    private let exchanges: [String: RecordedExchange]

    /// The recordings in DIR by key.
    public var keys: [String] { exchanges.keys.sorted() }

    /// - Throws: `RecordingError` for a missing or unreadable DIR, a DIR without recordings,
    ///   a file that is not a recording (naming it and what is wrong), two files with one key.
    public init(directory: String, baseURLs: [String], secrets: [String] = []) throws(RecordingError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw RecordingError(file: directory, reason: "cannot read the recording directory")
        }
        var exchanges: [String: RecordedExchange] = [:]
        var fileOfKey: [String: String] = [:]
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw RecordingError(file: path, reason: "cannot read")
            }
            let exchange = try RecordedExchange.parse(Array(data), file: path)
            if let other = fileOfKey[exchange.key] {
                throw RecordingError(file: path, reason: "records the same request as \(other)")
            }
            fileOfKey[exchange.key] = path
            exchanges[exchange.key] = exchange
        }
        guard !exchanges.isEmpty else {
            throw RecordingError(file: directory, reason: "holds no recordings (*.json); make some with --record")
        }
        self.directory = directory
        self.baseURLs = baseURLs
        self.secrets = secrets
        self.exchanges = exchanges
    }

    public func get(url: String, headers: [(name: String, value: String)]) async throws -> UpstreamResponse {
        let key = RecordedExchange.requestKey(url: url, headers: headers, baseURLs: baseURLs, secrets: secrets)
        guard let exchange = exchanges[key] else {
            throw TransportFailure.notRecorded(request: "GET " + key.replacing("\n", with: " "))
        }
        return exchange.response
    }
}
