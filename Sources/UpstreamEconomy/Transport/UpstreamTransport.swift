/// The HTTP GET a provider needs, kept abstract so the libcurl `HTTPClient`, a test double
/// or anything else can carry it.
///
/// Implementations throw `TransportFailure` for failures without a response (the provider
/// turns them into `UpstreamError`); any other thrown error is reported as unreachable.
/// A response with an error status is returned, not thrown: classifying it is the provider's job.
public protocol UpstreamTransport: Sendable {
    /// GETs `url` (absolute, already percent-encoded) with extra request `headers`.
    func get(url: String, headers: [(name: String, value: String)]) async throws -> UpstreamResponse

    /// `get`, for a caller that pays per try: a transport that retries asks `admitRetry` before
    /// each retry and, on `false`, answers with the last try's outcome instead of sending again.
    func get(
        url: String, headers: [(name: String, value: String)], admitRetry: @escaping @Sendable () async -> Bool
    ) async throws -> UpstreamResponse

    /// The response `get` gave for `url` and `headers` could not be used (a 200 that is an HTML
    /// page, or truncated JSON): a transport that keeps responses must not answer with it again.
    func discard(url: String, headers: [(name: String, value: String)])
}

extension UpstreamTransport {
    /// Transports that keep nothing have nothing to discard.
    public func discard(url: String, headers: [(name: String, value: String)]) {}

    /// Transports that never retry have no retry to admit.
    public func get(
        url: String, headers: [(name: String, value: String)], admitRetry: @escaping @Sendable () async -> Bool
    ) async throws -> UpstreamResponse {
        try await get(url: url, headers: headers)
    }
}

/// A complete HTTP response as a provider sees it.
public struct UpstreamResponse: Sendable {
    public var status: Int
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    public var body: [UInt8]
    /// How many times the request was sent to get this response (retries included).
    public var tries: Int
    /// What providers decoded from this response, shared by every reader of a kept response
    /// (the `UpstreamCache` gives each response it keeps one); nil for a response nobody keeps.
    public var decoded: DecodedValues?

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], tries: Int = 1) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
        self.tries = tries
    }
}

/// Why a transport produced no response.
public indirect enum TransportFailure: Error, Sendable, Equatable {
    /// The connect or total timeout elapsed (or the transfer stalled mid-body).
    case timedOut
    /// No connection: refused, DNS failure, TLS failure. `reason` must not contain secrets.
    case connectFailed(reason: String)
    /// The response body was longer than `limitBytes`; the transfer was cut off.
    case responseTooLarge(limitBytes: Int)
    /// Anything else: reset mid-transfer, cancelled.
    case failed(reason: String)
    /// `failure`, the last of `tries` sends (a transport that retries).
    case afterTries(TransportFailure, tries: Int)
    /// A replaying transport has no recording of `request` (method and key, no secrets).
    case notRecorded(request: String)

    /// The failure itself, without the count of tries.
    public var underlying: TransportFailure {
        if case .afterTries(let failure, _) = self { return failure.underlying }
        return self
    }

    /// How many times the request was sent before failing so.
    public var tries: Int {
        if case .afterTries(_, let tries) = self { return tries }
        return 1
    }
}
