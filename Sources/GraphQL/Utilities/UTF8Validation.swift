/// Where UTF-8 text stops being UTF-8 (RFC 3629 §4, the Unicode Standard's table 3-7):
/// the first byte that does not begin or continue a well-formed sequence — a stray
/// continuation byte, a lead byte whose sequence is cut short, an overlong form, a surrogate
/// (U+D800–U+DFFF) or a value above U+10FFFF, and the bytes 0xC0, 0xC1, 0xF5–0xFF.
///
/// Used wherever client text enters (documents, JSON bodies, URL query parameters) so that
/// an invalid byte is an error that names its offset, never a U+FFFD the client did not send.
public enum UTF8Validation {
    /// The offset of the first byte of `bytes` that is not part of a well-formed UTF-8
    /// sequence, or nil when `bytes` is entirely UTF-8.
    public static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        var i = 0
        while i < n {
            // Eight ASCII bytes at a time: documents and JSON are almost all ASCII.
            if i + 8 <= n, let base = UnsafeRawPointer(bytes.baseAddress),
                base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                i += 8
                continue
            }
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // The allowed range of the second byte depends on the lead (table 3-7).
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return i
            }
            guard i + 1 < n, (low...high).contains(bytes[i + 1]) else { return i }
            var k = 2
            while k < length {
                guard i + k < n, bytes[i + k] & 0xC0 == 0x80 else { return i }
                k += 1
            }
            i += length
        }
        return nil
    }

    /// `firstInvalidOffset(in:)` of an array.
    public static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidOffset(in: $0) }
    }

    /// The message naming the invalid byte at `offset` of `bytes`: `byte 0xFF at offset 12`.
    public static func describe(_ bytes: [UInt8], at offset: Int) -> String {
        let byte = String(bytes[offset], radix: 16, uppercase: true)
        return "byte 0x\(byte.count == 1 ? "0" + byte : byte) at offset \(offset)"
    }
}
