import CCrypto

/// SHA-256 (FIPS 180-4) through OpenSSL's libcrypto: the hash that names a persisted document
/// (Apollo's APQ `sha256Hash`, GraphQL over HTTP's `sha256:` document identifiers).
enum SHA256 {
    /// The 32 bytes of the digest of `bytes`.
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest fails only when OpenSSL cannot allocate a context or has no SHA-256 at all.
        precondition(ok == 1 && length == 32, "libcrypto could not compute a SHA-256 digest")
        return Array(digest.prefix(32))
    }

    /// The digest of `bytes` as 64 lower-case hexadecimal digits, the form both protocols use.
    static func hexDigest(_ bytes: [UInt8]) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest(bytes) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes 64 hexadecimal digits (either case) stand for; nil for anything else.
    static func bytes(fromHex hex: Substring) -> [UInt8]? {
        guard isHexDigest(hex) else { return nil }
        func nibble(_ byte: UInt8) -> UInt8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: byte - UInt8(ascii: "A") + 10
            }
        }
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
    }

    /// The digest of `text`'s UTF-8 bytes.
    static func hexDigest(_ text: String) -> String {
        hexDigest(Array(text.utf8))
    }

    /// Whether `text` has the shape of a hex digest: 64 hexadecimal digits (lower case, as the
    /// protocols write it; upper case is accepted and compared case-insensitively).
    static func isHexDigest(_ text: Substring) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
            }
    }
}
