/// Serializes `JSONValue`s into UTF-8 JSON text (RFC 8259).
///
/// Shapes: objects keep their entry order (GraphQL responses are ordered, spec §7.1);
/// `.int` prints as an integer; `.double` prints as JavaScript's `Number#toString` would
/// (shortest round-trip digits, `4` for `4.0`, `1e+21`, never `-0`), so our numbers match
/// graphql-js's `JSON.stringify`. NaN and infinities have no JSON form and print as `null`
/// (the executor never produces them: Float serialization rejects them first). Strings
/// escape `"`, `\` and control characters like `JSON.stringify`; everything else,
/// non-ASCII included, is written as UTF-8.
public struct JSONWriter {
    private let buffer: JSONByteBuffer

    public init(reservingCapacity capacity: Int = 1024) {
        buffer = JSONByteBuffer(capacity: capacity)
    }

    /// The bytes written so far.
    public var bytes: [UInt8] { buffer.bytes }

    public mutating func write(_ value: JSONValue) { buffer.write(value) }

    /// The UTF-8 JSON text of `value`.
    public static func serialize(_ value: JSONValue) -> [UInt8] {
        let buffer = JSONByteBuffer()
        buffer.write(value)
        return buffer.bytes
    }

    /// `serialize(_:)` as a `String`.
    public static func string(_ value: JSONValue) -> String {
        String(decoding: serialize(value), as: UTF8.self)
    }
}
