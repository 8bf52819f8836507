import Catalog
import DemoUpstream
import Foundation
import HTTPClient
import Testing
import UpstreamEconomy

/// Tests against a DemoUpstream: over real loopback HTTP, and in-process. Serialized: they
/// start servers, measure timeouts and search the derived catalog (CPU-bound in debug
/// builds), which parallel runs on a shared two-core machine would distort.
@Suite(.serialized) enum LoopbackTests {}

/// A DemoUpstream on an ephemeral loopback port plus a libcurl client tuned for tests
/// (short timeouts, quick back-off), torn down after `body`.
struct Loopback {
    let server: DemoUpstreamServer
    let client: HTTPClient

    var baseURL: String { server.baseURL }
    var transport: HTTPClientTransport { HTTPClientTransport(client: client) }

    /// Another transport to the same server, with its own timeout and tries.
    func transport(timeoutMs: Int, maxTries: Int = 1) -> HTTPClientTransport {
        HTTPClientTransport(
            client: HTTPClient(configuration: Self.clientConfiguration(maxTries: maxTries, timeoutMs: timeoutMs)))
    }

    /// Client timeouts: 2.5 s per try by default (generous: debug builds on a busy shared
    /// machine; timeout tests pass a short one), 2 tries, 10–40 ms back-off, Retry-After
    /// honoured up to 1.5 s.
    static func clientConfiguration(maxTries: Int = 2, timeoutMs: Int = 2_500) -> HTTPClient.Configuration {
        HTTPClient.Configuration(
            connectTimeoutMs: 1_000, timeoutMs: timeoutMs,
            retry: RetryPolicy(maxTries: maxTries, baseBackoffMs: 10, maxBackoffMs: 40, maxRetryAfterMs: 1_500),
            secretQueryParameters: HTTPClientTransport.secretQueryParameters)
    }

    static func run<T>(
        maxTries: Int = 2, timeoutMs: Int = 2_500, _ body: (Loopback) async throws -> T
    ) async throws -> T {
        let demo = try await DemoUpstream.make(options: .init(hangLimitMs: 3_000))
        let server = try DemoUpstreamServer(demo: demo, shutdownGraceMs: 50)
        let loopback = Loopback(
            server: server,
            client: HTTPClient(configuration: clientConfiguration(maxTries: maxTries, timeoutMs: timeoutMs)))
        do {
            let result = try await body(loopback)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// Sets fault rules (JSON text as `POST /__demo/faults` takes it).
    func setFaults(_ json: String) async throws {
        let response = try await client.post(baseURL + "/__demo/faults", body: Array(json.utf8))
        guard response.status == 200 else {
            throw HarnessError("faults rejected: \(String(decoding: response.body, as: UTF8.self))")
        }
    }

    /// The request log as (path, query, status) triples, plus its raw text.
    func requestLog() async throws -> (entries: [(path: String, query: String, status: Int)], text: String) {
        let response = try await client.get(baseURL + "/__demo/requests")
        let text = String(decoding: response.body, as: UTF8.self)
        guard let array = try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]] else {
            throw HarnessError("request log is not a JSON array: \(text)")
        }
        let entries = array.map { entry in
            (
                entry["path"] as? String ?? "", entry["query"] as? String ?? "",
                (entry["status"] as? NSNumber)?.intValue ?? -1
            )
        }
        return (entries, text)
    }

    func clearLog() async throws {
        _ = try await client.execute(HTTPClientRequest(method: "DELETE", url: baseURL + "/__demo/requests"))
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
