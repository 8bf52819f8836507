// JavaScript number semantics that graphql-js's scalar coercion relies on: how a number
// prints (`Number#toString`, used by `String` serialization and `JSON.stringify`) and how
// a string becomes a number (`Number(text)`, used when `Int`/`Float` serialize a string).

/// JavaScript's number ↔ text conversions (ECMA-262 `Number::toString`, `StringToNumber`).
enum JSNumber {
    /// `Number#toString()` of `value`: shortest round-trip digits, positional notation for
    /// 1e-7 < |value| < 1e21 (`"0.000001"`, `"123"`), exponent form otherwise (`"1e+21"`,
    /// `"1.5e-7"`); `"0"` for ±0, `"NaN"`, `"Infinity"`, `"-Infinity"`.
    static func string(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return "0" }
        let sign = value < 0 ? "-" : ""
        // Swift's description already holds the shortest round-trip digits; re-layout them.
        let (digits, pointPosition) = decimalDigits(of: value.magnitude)
        let k = digits.count
        let n = pointPosition
        var out = sign
        if k <= n && n <= 21 {
            out += digits + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            out += digits.prefix(n) + "." + digits.dropFirst(n)
        } else if -6 < n && n <= 0 {
            out += "0." + String(repeating: "0", count: -n) + digits
        } else {
            let exponent = n - 1
            out += String(digits.prefix(1))
            if k > 1 { out += "." + digits.dropFirst(1) }
            out += "e" + (exponent >= 0 ? "+" : "-") + String(exponent.magnitude)
        }
        return out
    }

    /// The significant digits (no leading/trailing zeros) of a positive finite `value` and
    /// the position n of the decimal point: value = 0.d₁d₂…d_k × 10ⁿ.
    private static func decimalDigits(of value: Double) -> (String, Int) {
        let text = value.description  // e.g. "1.5", "1e-05", "1.2345e+20", "5e-324"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        var integerDigits = mantissa
        var fractionDigits = Substring("")
        if let dot = mantissa.firstIndex(of: ".") {
            integerDigits = mantissa[..<dot]
            fractionDigits = mantissa[mantissa.index(after: dot)...]
        }
        var all = String(integerDigits) + fractionDigits
        var point = integerDigits.count + exponent
        while all.first == "0" {
            all.removeFirst()
            point -= 1
        }
        while all.last == "0" { all.removeLast() }
        return (all, point)
    }

    /// JavaScript `Number(text)`: surrounding white space ignored, `""` → 0, decimal
    /// literals with optional sign and exponent, `Infinity`, and unsigned `0x`/`0o`/`0b`
    /// integers; nil where JavaScript gives NaN.
    static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingJSWhitespace()
        if trimmed.isEmpty { return 0 }
        var body = Substring(trimmed)
        var negative = false
        if body.first == "+" || body.first == "-" {
            negative = body.first == "-"
            body = body.dropFirst()
            if body == "Infinity" { return negative ? -.infinity : .infinity }
        } else {
            if body == "Infinity" { return .infinity }
            let lower = body.lowercased()
            for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) {
                let digits = lower.dropFirst(2)
                guard !digits.isEmpty else { return nil }
                var result = 0.0
                for c in digits {
                    guard let d = c.hexDigitValue, d < radix else { return nil }
                    result = result * Double(radix) + Double(d)
                }
                return result
            }
        }
        guard isDecimalLiteral(body), let magnitude = Double(String(body)) else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// `StrUnsignedDecimalLiteral` without `Infinity`: digits with an optional fraction
    /// (either side may be empty, not both) and an optional exponent.
    private static func isDecimalLiteral(_ s: Substring) -> Bool {
        var i = s.startIndex
        var mantissaDigits = 0
        while i < s.endIndex, s[i].isASCII, s[i].isNumber {
            i = s.index(after: i)
            mantissaDigits += 1
        }
        if i < s.endIndex, s[i] == "." {
            i = s.index(after: i)
            while i < s.endIndex, s[i].isASCII, s[i].isNumber {
                i = s.index(after: i)
                mantissaDigits += 1
            }
        }
        guard mantissaDigits > 0 else { return false }
        if i < s.endIndex, s[i] == "e" || s[i] == "E" {
            i = s.index(after: i)
            if i < s.endIndex, s[i] == "+" || s[i] == "-" { i = s.index(after: i) }
            var exponentDigits = 0
            while i < s.endIndex, s[i].isASCII, s[i].isNumber {
                i = s.index(after: i)
                exponentDigits += 1
            }
            guard exponentDigits > 0 else { return false }
        }
        return i == s.endIndex
    }
}

extension String {
    /// Drops ECMAScript white space and line terminators from both ends (what `Number()` trims).
    fileprivate func trimmingJSWhitespace() -> String {
        func isJSSpace(_ c: Unicode.Scalar) -> Bool {
            switch c.value {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F,
                0x205F, 0x3000, 0xFEFF:
                true
            default: false
            }
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isJSSpace($0) }),
            let last = scalars.lastIndex(where: { !isJSSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
