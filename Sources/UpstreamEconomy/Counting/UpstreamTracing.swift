import Tracing

/// The spans of the gateway's upstream reads (OpenTelemetry HTTP client conventions): one per
/// read through `RequestTransport`, a CLIENT span when the read was sent (with the status
/// code, retries and quota units it cost), INTERNAL when the cache or a send in flight answered
/// it; and one INTERNAL span per DataLoader batch. Nothing is made when tracing is off
/// (`Span.current == nil`).
package enum UpstreamTracing {
    /// `body` under a span of the read of `url` from `service`.
    package static func read<T>(
        _ service: UpstreamService, url: String, pathWords: Set<Substring>, _ body: () async throws -> T
    ) async throws -> T {
        guard let parent = Span.current else { return try await body() }
        let (template, host, port) = URLTemplate.of(url, fixed: pathWords)
        return try await parent.inChild("GET \(template)") { span in
            span.set("http.request.method", "GET")
            span.set("url.template", template)
            span.set("server.address", host)
            if let port { span.set("server.port", port) }
            span.set("musicgraph.upstream.service", service.rawValue)
            do {
                return try await body()
            } catch {
                span.fail(Self.description(of: error))
                throw error
            }
        }
    }

    /// The read is being sent by this request, for `units` of quota.
    package static func sending(units: Int) {
        guard let span = Span.current else { return }
        span.setKind(.client)
        span.set("musicgraph.upstream.quota_units", units)
    }

    /// What the send this read made got back.
    package static func answered(status: Int, tries: Int) {
        guard let span = Span.current else { return }
        span.set("http.response.status_code", status)
        span.set("musicgraph.upstream.retries", max(0, tries - 1))
        if status >= 400 { span.fail(String(status)) }
    }

    /// The send this read made failed after `tries` without a response.
    package static func failed(_ error: any Error, tries: Int) {
        guard let span = Span.current else { return }
        span.set("musicgraph.upstream.retries", max(0, tries - 1))
        span.set("error.type", Self.description(of: error))
    }

    package static func note(_ key: String) {
        Span.current?.set(key, true)
    }

    /// A failure's type for a span: never its message, which could hold a URL.
    private static func description(of error: any Error) -> String {
        switch error {
        case let failure as TransportFailure:
            switch failure.underlying {
            case .timedOut: "timeout"
            case .connectFailed: "connect_failed"
            case .responseTooLarge: "response_too_large"
            default: "transport"
            }
        case let error as UpstreamError: error.code
        case is CancellationError: "cancelled"
        default: "_OTHER"
        }
    }

    /// `body` under a span of one DataLoader batch of `keys` keys of the loader `name`.
    package static func batch<T, E: Error>(_ name: String, keys: Int, _ body: () async throws(E) -> T) async throws(E)
        -> T
    {
        guard let parent = Span.current else { return try await body() }
        return try await parent.inChild("dataloader.batch \(name)") { (span: Span) async throws(E) -> T in
            span.set("musicgraph.dataloader.name", name)
            span.set("musicgraph.dataloader.batch_size", keys)
            return try await body()
        }
    }
}
