/// A provider decoder's input as a fuzz target reads it: byte 0 picks the decoder, byte 1 the
/// HTTP status (from `statuses`, so error envelopes are reached as often as success bodies),
/// the rest is the response body. `scripts/fuzz-seeds.py` writes seeds in this layout.
public struct DecoderInput {
    /// The statuses the providers tell apart: success, the client errors with their own
    /// `UpstreamError` case, and server errors.
    public static let statuses = [200, 400, 401, 403, 404, 429, 500, 503]

    /// Which of the target's decoders runs, in `0..<decoderCount`.
    public let decoder: Int
    public let status: Int
    public let body: [UInt8]
    /// What every provider sees on the wire; the decoders read the body, not the type.
    public let headers = ["content-type": "application/json; charset=utf-8"]

    /// Nil for inputs shorter than the two selector bytes.
    public init?(_ data: UnsafePointer<UInt8>, _ size: Int, decoderCount: Int) {
        guard size >= 2 else { return nil }
        decoder = Int(data[0]) % decoderCount
        status = Self.statuses[Int(data[1]) % Self.statuses.count]
        body = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    }
}

/// The input's bytes, copied (libFuzzer owns the buffer only for the call).
public func fuzzBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}

/// Stops the run with `message` when an invariant does not hold: libFuzzer reports the
/// crash and writes the input that caused it (`crash-<sha1>`).
public func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
