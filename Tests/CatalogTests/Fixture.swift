import Catalog
import Foundation
import Synchronization
import Testing
import UpstreamEconomy

/// Loads a recorded upstream body from the bundled Fixtures folder, byte for byte.
enum Fixture {
    static func bytes(_ path: String) throws -> [UInt8] {
        let base = try #require(Bundle.module.resourceURL, "test bundle has no resources")
        let url = base.appendingPathComponent("Fixtures").appendingPathComponent(path)
        let data = try #require(FileManager.default.contents(atPath: url.path), "missing fixture \(path)")
        return [UInt8](data)
    }
}

/// A transport that answers every GET with one canned outcome and records the URLs and
/// headers it was asked for.
final class CannedTransport: UpstreamTransport {
    enum Outcome: Sendable {
        case response(UpstreamResponse)
        case failure(TransportFailure)
    }

    let outcome: Outcome
    private let log = Mutex<[(url: String, headers: [String])]>([])

    init(_ outcome: Outcome) { self.outcome = outcome }
    convenience init(status: Int, body: [UInt8] = [], headers: [String: String] = [:]) {
        self.init(.response(UpstreamResponse(status: status, headers: headers, body: body)))
    }

    var urls: [String] { log.withLock { $0.map(\.url) } }
    var headerLines: [String] { log.withLock { $0.flatMap(\.headers) } }

    func get(url: String, headers: [(name: String, value: String)]) async throws -> UpstreamResponse {
        log.withLock { $0.append((url, headers.map { "\($0.name): \($0.value)" })) }
        switch outcome {
        case .response(let response): return response
        case .failure(let failure): throw failure
        }
    }
}
