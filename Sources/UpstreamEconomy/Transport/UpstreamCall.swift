import Foundation
import HTTPTypes

/// The one place a provider's GET goes through: runs the transport and turns everything
/// that is not a response into an `UpstreamError`, with the provider's secrets redacted.
package struct UpstreamCall {
    package let service: UpstreamService
    package let transport: any UpstreamTransport
    /// Key/token values that must never appear in an error.
    package let secrets: [String]

    package init(service: UpstreamService, transport: any UpstreamTransport, secrets: [String]) {
        self.service = service
        self.transport = transport
        self.secrets = secrets
    }

    package func get(_ url: String, headers: [(name: String, value: String)] = []) async throws(UpstreamError)
        -> UpstreamResponse
    {
        do {
            return try await transport.get(url: url, headers: headers)
        } catch let failure as TransportFailure {
            throw UpstreamError(service: service, kind: kind(of: failure), upstreamPath: path(of: url))
        } catch var error as UpstreamError {
            if error.upstreamPath == nil { error.upstreamPath = path(of: url) }
            throw error
        } catch is CancellationError {
            throw UpstreamError(service: service, kind: .unreachable(reason: "cancelled"), upstreamPath: path(of: url))
        } catch {
            throw UpstreamError(
                service: service, kind: .unreachable(reason: redact(String(describing: error))),
                upstreamPath: path(of: url))
        }
    }

    /// The path of `url` without scheme, host and query: what errors may name of a request.
    package func path(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        let path = rest.drop { $0 != "/" }.prefix { $0 != "?" && $0 != "#" }
        return redact(path.isEmpty ? "/" : String(path))
    }

    /// GETs `url` and decodes the response with `decode`; any error's text is redacted. A kept
    /// response (one the cache shares) is decoded once per call site: later reads get the value
    /// its first reader decoded (`DecodedValues`), keyed by `T` and `fileID`:`line`, so one call
    /// site must always pass the same decoder (a closure's captures may not change its result).
    package func fetch<T: Sendable>(
        _ url: String, headers: [(name: String, value: String)] = [], fileID: StaticString = #fileID,
        line: UInt = #line,
        decode: (_ status: Int, _ headers: [String: String], _ body: [UInt8]) throws(UpstreamError) -> T
    ) async throws(UpstreamError) -> T {
        let response = try await get(url, headers: headers)
        let decoder = DecodedValues.Decoder(T.self, fileID: fileID, line: line)
        let kept = (200..<300).contains(response.status) ? response.decoded : nil
        if let kept, let value = kept.value(decoder, as: T.self) { return value }
        // An error body is only read for its message: its secrets go before anything reads it,
        // so a summary cut at 200 characters cannot keep the first half of an echoed key.
        let body =
            (200..<300).contains(response.status) || secrets.isEmpty
            ? response.body
            : SecretScrubber(secrets: secrets).scrub(Array(response.body.prefix(Self.maxErrorBodyBytes)))
        do {
            let value = try decode(response.status, response.headers, body)
            kept?.keep(value, for: decoder)
            return value
        } catch {
            // A 2xx the provider cannot read was cached like any 2xx; an error must not outlive
            // the upstream's recovery by a whole TTL.
            if case .badResponse = error.kind { transport.discard(url: url, headers: headers) }
            var error = error.redacting(secrets)
            if error.upstreamPath == nil { error.upstreamPath = path(of: url) }
            throw error
        }
    }

    package func redact(_ text: String) -> String { Redaction.redact(text, secrets: secrets) }

    /// How much of an error response is read for its message: 64 KiB, far above any API's
    /// error document, far below the 8 MiB a data response may take.
    package static let maxErrorBodyBytes = 64 << 10

    /// The error kind of a transport failure, however many tries it took.
    private func kind(of failure: TransportFailure) -> UpstreamError.Kind {
        switch failure {
        case .timedOut: .timeout
        case .responseTooLarge(let limit): .responseTooLarge(limitBytes: limit)
        case .connectFailed(let reason), .failed(let reason): .unreachable(reason: redact(reason))
        case .afterTries(let last, _): kind(of: last)
        case .notRecorded(let request): .notRecorded(request: redact(request))
        }
    }
}

extension UpstreamError {
    /// This error with every secret removed from its texts (an upstream may echo a key back).
    package func redacting(_ secrets: [String]) -> UpstreamError {
        var copy = self
        switch kind {
        case .httpStatus(let code, let summary):
            copy.kind = .httpStatus(code: code, bodySummary: Redaction.redact(summary, secrets: secrets))
        case .badResponse(let reason): copy.kind = .badResponse(reason: Redaction.redact(reason, secrets: secrets))
        case .unreachable(let reason): copy.kind = .unreachable(reason: Redaction.redact(reason, secrets: secrets))
        case .notRecorded(let request):
            copy.kind = .notRecorded(request: Redaction.redact(request, secrets: secrets))
        case .timeout, .quotaExceeded, .authFailed, .notConfigured, .budgetExceeded, .dailyQuotaSpent,
            .clientQuotaSpent, .notSent,
            .responseTooLarge:
            break
        }
        return copy
    }
}

/// The `Retry-After` header (name matched case-insensitively) in whole seconds; HTTP-date
/// forms are ignored.
package func retryAfterSeconds(_ headers: [String: String]) -> Int? {
    let value = headers["retry-after"] ?? headers.first { $0.key.lowercased() == "retry-after" }?.value
    return value.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
}
