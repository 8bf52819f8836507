import HTTPTypes

/// How a send one process made for the fleet failed, for the processes that waited on its claim:
/// an upstream answer that is not kept (a 503, a 404, a 200 with `max-age=0`), or a transport failure. Stored under
/// `f:` + the shared key for one claim TTL, with the wall-clock time it failed, so that only
/// those that were waiting then take it (a later caller sends again: failures are not cached).
package enum SharedFailure: Sendable {
    case response(UpstreamResponse)
    case transport(TransportFailure)

    private static let magic = Array("MGF1".utf8)

    /// `MGF1`, the time (8 bytes, big-endian ms), a kind byte, then the response as
    /// `StoredUpstreamResponse` bytes or the failure's detail as UTF-8, with every secret of
    /// `scrubber` masked in the response or the detail.
    package func encode(atMs: Int64, scrubbing scrubber: SecretScrubber? = nil) -> [UInt8] {
        let scrubber = scrubber.flatMap { $0.isEmpty ? nil : $0 }
        let text = { (detail: String) in Array((scrubber?.scrub(detail) ?? detail).utf8) }
        var bytes = Self.magic
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: atMs >> Int64(shift)))
        }
        switch self {
        case .response(let response):
            bytes.append(0)
            bytes += StoredUpstreamResponse.encode(response, scrubbing: scrubber)
        case .transport(let failure):
            switch failure.underlying {
            case .timedOut: bytes.append(1)
            case .connectFailed(let reason): bytes += [2] + text(reason)
            case .responseTooLarge(let limit): bytes += [3] + Array(String(limit).utf8)
            case .failed(let reason): bytes += [4] + text(reason)
            case .notRecorded(let request): bytes += [5] + text(request)
            case .afterTries: bytes += [4]  // `underlying` never is one
            }
        }
        return bytes
    }

    /// The failure in `bytes` and when it happened; nil for anything else.
    package static func decode(_ bytes: [UInt8]) -> (failure: SharedFailure, atMs: Int64)? {
        guard bytes.count >= magic.count + 9, bytes.prefix(magic.count).elementsEqual(magic) else { return nil }
        let time = bytes[magic.count..<magic.count + 8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let kind = bytes[magic.count + 8]
        let rest = Array(bytes[(magic.count + 9)...])
        let text = String(decoding: rest, as: UTF8.self)
        let failure: SharedFailure
        switch kind {
        case 0:
            guard let response = StoredUpstreamResponse.decode(rest) else { return nil }
            failure = .response(response)
        case 1: failure = .transport(.timedOut)
        case 2: failure = .transport(.connectFailed(reason: text))
        case 3:
            guard let limit = Int(text) else { return nil }
            failure = .transport(.responseTooLarge(limitBytes: limit))
        case 4: failure = .transport(.failed(reason: text))
        case 5: failure = .transport(.notRecorded(request: text))
        default: return nil
        }
        return (failure, time)
    }
}
