// ASCII character classes of the lexical grammar (spec §2.1), as branch-light byte tests.

/// `Digit :: one of 0 1 2 3 4 5 6 7 8 9` (§2.1.9).
@inline(__always)
func isDigit(_ byte: UInt8) -> Bool {
    byte &- 0x30 < 10
}

/// `Letter :: one of A-Z a-z` (§2.1.9).
@inline(__always)
func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) &- 0x61 < 26
}

/// `NameStart :: Letter | _` (§2.1.9).
@inline(__always)
func isNameStart(_ byte: UInt8) -> Bool {
    isLetter(byte) || byte == 0x5F
}

/// `NameContinue :: Letter | Digit | _` (§2.1.9).
@inline(__always)
func isNameContinue(_ byte: UInt8) -> Bool {
    isLetter(byte) || isDigit(byte) || byte == 0x5F
}

/// The value of one `HexDigit` (`0-9 A-F a-f`), or nil.
@inline(__always)
func hexDigitValue(_ byte: UInt8) -> UInt32? {
    if isDigit(byte) { return UInt32(byte &- 0x30) }
    let lower = byte | 0x20
    if lower &- 0x61 < 6 { return UInt32(lower &- 0x61 &+ 10) }
    return nil
}

/// True for a Unicode scalar value: a code point that is not a surrogate (§2.1.1).
@inline(__always)
func isUnicodeScalarValue(_ code: UInt32) -> Bool {
    code <= 0xD7FF || (code >= 0xE000 && code <= 0x10FFFF)
}
