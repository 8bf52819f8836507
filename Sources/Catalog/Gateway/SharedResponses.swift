import SharedState

/// The upstream responses of a `Gateway` in its `SharedStore`, under the in-process
/// `UpstreamCache`: a response another process (or this one before a restart) fetched is a
/// cache hit here. Keys are `u:` + the cache key (which holds no secret); values are
/// `StoredUpstreamResponse` bytes with the response's expiry in wall-clock milliseconds.
///
/// Every store failure is a miss (reads) or nothing kept (writes): the store never fails a
/// query, it only saves upstream requests when it works.
struct SharedResponses: Sendable {
    let store: any SharedStore
    let clock: WallClock

    /// The live response stored under `key` and the instant it stops being served; nil when
    /// there is none, it has expired, it does not decode, or the store failed.
    func lookUp(_ key: String) async -> (response: UpstreamResponse, expires: ContinuousClock.Instant)? {
        guard let entry = try? await store.entry("u:" + key),
            let response = StoredUpstreamResponse.decode(entry.value)
        else { return nil }
        let remainingMs = entry.expiresAtMs - clock.nowMs()
        guard remainingMs > 0 else { return nil }
        return (response, ContinuousClock.now.advanced(by: .milliseconds(remainingMs)))
    }

    /// Keeps `response` under `key` until `expires` (a failure keeps nothing).
    func store(_ response: UpstreamResponse, for key: String, until expires: ContinuousClock.Instant) async {
        let remaining = ContinuousClock.now.duration(to: expires)
        let remainingMs =
            remaining.components.seconds * 1_000 + remaining.components.attoseconds / 1_000_000_000_000_000
        guard remainingMs > 0 else { return }
        let entry = StoredEntry(
            value: StoredUpstreamResponse.encode(response), expiresAtMs: clock.nowMs() + remainingMs)
        try? await store.putEntry("u:" + key, entry)
    }

    /// Drops the response under `key` (one the caller found it cannot use).
    func remove(_ key: String) async {
        try? await store.removeEntry("u:" + key)
    }
}

/// An `UpstreamResponse` as bytes in a shared store: `MGU1`, the status (2 bytes), the header
/// count (2 bytes), each header's name and value, then the body, each as a 4-byte big-endian
/// length and its bytes. `tries` is not kept: a hit was not sent.
enum StoredUpstreamResponse {
    private static let magic = Array("MGU1".utf8)

    static func encode(_ response: UpstreamResponse) -> [UInt8] {
        var bytes = magic
        bytes.reserveCapacity(response.body.count + 64 + response.headers.count * 48)
        append(UInt32(clamping: response.status), width: 2, to: &bytes)
        let headers = response.headers.sorted { $0.key < $1.key }.prefix(Int(UInt16.max))
        append(UInt32(headers.count), width: 2, to: &bytes)
        for (name, value) in headers {
            appendField(Array(name.utf8), to: &bytes)
            appendField(Array(value.utf8), to: &bytes)
        }
        appendField(response.body, to: &bytes)
        return bytes
    }

    /// The response `bytes` hold; nil when they are not one (another version, truncated, extra bytes).
    static func decode(_ bytes: [UInt8]) -> UpstreamResponse? {
        var reader = Reader(bytes: bytes)
        guard reader.take(magic.count) == magic[...], let status = reader.number(width: 2),
            let count = reader.number(width: 2)
        else { return nil }
        var headers: [String: String] = [:]
        for _ in 0..<count {
            guard let name = reader.field(), let value = reader.field() else { return nil }
            headers[String(decoding: name, as: UTF8.self)] = String(decoding: value, as: UTF8.self)
        }
        guard let body = reader.field(), reader.atEnd else { return nil }
        return UpstreamResponse(status: Int(status), headers: headers, body: Array(body))
    }

    private static func append(_ value: UInt32, width: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }

    private static func appendField(_ field: [UInt8], to bytes: inout [UInt8]) {
        append(UInt32(clamping: field.count), width: 4, to: &bytes)
        bytes.append(contentsOf: field)
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var atEnd: Bool { offset == bytes.count }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func number(width: Int) -> UInt32? {
            take(width).map { $0.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        }

        mutating func field() -> ArraySlice<UInt8>? {
            number(width: 4).flatMap { take(Int($0)) }
        }
    }
}
