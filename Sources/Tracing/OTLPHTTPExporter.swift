import Dispatch
import HTTPClient
import HTTPTypes
import Synchronization

/// Sends batches of spans to an OTLP/HTTP collector as JSON (`POST <endpoint>/v1/traces`,
/// `Content-Type: application/json`) over the libcurl `HTTPClient`: one try each, bounded by
/// `timeoutMs`; a batch the collector refuses or never answers is counted in `failedBatches`
/// and dropped (the answers of the requests it traced are not affected).
public final class OTLPHTTPExporter: Sendable {
    public let url: String
    let resource: [(key: String, value: AttributeValue)]
    let version: String
    private let client: HTTPClient

    /// - Parameters:
    ///   - endpoint: the collector's base URL (`http://127.0.0.1:4318`); `/v1/traces` is appended.
    ///   - resource: the resource attributes (`service.name`, `service.instance.id`, `service.version`).
    public init(
        endpoint: String, resource: [(key: String, value: AttributeValue)], version: String, timeoutMs: Int = 2_000
    ) {
        var base = endpoint
        while base.hasSuffix("/") { base.removeLast() }
        url = base.hasSuffix("/v1/traces") ? base : base + "/v1/traces"
        self.resource = resource
        self.version = version
        client = HTTPClient(
            configuration: HTTPClient.Configuration(
                connectTimeoutMs: min(timeoutMs, 1_000), timeoutMs: timeoutMs, maxResponseBytes: 1 << 20,
                maxConcurrentRequestsPerHost: 2, maxIdleConnections: 2, transferThreads: 1,
                retry: RetryPolicy(maxTries: 1), userAgent: "MusicGraph-OTLP/1.0"))
    }

    /// Sends `spans`, blocking until the collector answered or the timeout passed; true when it
    /// accepted them (2xx).
    @discardableResult
    public func export(_ spans: [SpanData]) -> Bool {
        let body = OTLPJSON.exportRequest(spans, resource: resource, scopeVersion: version)
        let request = HTTPClientRequest(
            method: "POST", url: url, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
        let done = DispatchSemaphore(value: 0)
        let accepted = Accepted()
        let client = self.client
        Task {
            if let response = try? await client.execute(request) {
                accepted.set((200..<300).contains(response.status.code))
            }
            done.signal()
        }
        done.wait()
        return accepted.value
    }
}

/// Whether the collector accepted a batch, handed from the sending task to the waiting thread.
private final class Accepted: Sendable {
    private let state = Mutex(false)
    func set(_ value: Bool) { state.withLock { $0 = value } }
    var value: Bool { state.withLock { $0 } }
}
