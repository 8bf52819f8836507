#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A growable byte buffer for JSON output, with the JSON primitives written straight into
/// it. A class over raw memory rather than `[UInt8]`: the response path appends a few
/// bytes per field hundreds of thousands of times, and an array re-checks uniqueness and
/// capacity through several layers on every append.
///
/// Not thread-safe: one buffer belongs to one writer at a time. `@unchecked Sendable`
/// because ownership moves with it: a child task writes a buffer, returns it, and never
/// touches it again; only then does the parent task read it (no lock needed, never shared
/// while being written).
final class JSONByteBuffer: @unchecked Sendable {
    private(set) var pointer: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        guard let memory = malloc(self.capacity) else { fatalError("JSONByteBuffer: out of memory") }
        pointer = memory.assumingMemoryBound(to: UInt8.self)
    }

    deinit { free(pointer) }

    /// A copy of the bytes written.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: pointer, count: count)) }

    /// Forgets everything after `offset` (null propagation rewinds to where a value began).
    func truncate(to offset: Int) {
        precondition(offset <= count)
        count = offset
    }

    @inline(__always) func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        // realloc: large blocks are remapped by the allocator instead of copied.
        guard let grown = realloc(pointer, newCapacity) else { fatalError("JSONByteBuffer: out of memory") }
        pointer = grown.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    @inline(__always) func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        pointer[count] = byte
        count += 1
    }

    @inline(__always) func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let n = bytes.count
        reserve(n)
        if n <= 24 {
            // Keys and short strings: a loop beats a call into memmove.
            var i = 0
            while i < n {
                pointer[count &+ i] = base[i]
                i &+= 1
            }
        } else {
            (pointer + count).update(from: base, count: n)
        }
        count += n
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    func append(_ other: JSONByteBuffer, from start: Int = 0, to end: Int? = nil) {
        append(UnsafeBufferPointer(start: other.pointer + start, count: (end ?? other.count) - start))
    }

    @inline(__always) func appendLiteral(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    // MARK: - JSON primitives

    func writeNull() { appendLiteral("null") }

    func write(bool: Bool) {
        if bool { appendLiteral("true") } else { appendLiteral("false") }
    }

    func write(int value: Int) {
        reserve(20)
        if value >= 0 && value < 10 {
            pointer[count] = UInt8(truncatingIfNeeded: value) &+ 0x30
            count += 1
            return
        }
        var magnitude = value.magnitude
        if value < 0 {
            pointer[count] = UInt8(ascii: "-")
            count += 1
        }
        var digits = 0
        var probe = magnitude
        while probe > 0 {
            digits += 1
            probe /= 10
        }
        var i = count + digits - 1
        while magnitude > 0 {
            pointer[i] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
            magnitude /= 10
            i -= 1
        }
        count += digits
    }

    /// JavaScript's number printing (`JSON.stringify`): integral values without a fraction,
    /// shortest round-trip digits otherwise, `1e+21`-style exponents; never `-0`. NaN and
    /// infinities (no JSON form) print `null`.
    func write(double value: Double) {
        guard value.isFinite else {
            writeNull()
            return
        }
        if let small = Int(exactly: value), small.magnitude < 1 << 53 {
            write(int: small)  // also turns -0.0 into 0
            return
        }
        // The common "few decimals" case: when value·1000 is an integer N and N/1000 rounds
        // back to value, the decimal N/1000 is the shortest round-trip form (doubles are far
        // denser than 0.001 below 1e9).
        if value.magnitude < 1e9 {
            let scaled = (value * 1000).rounded()
            if scaled / 1000 == value, let n = Int(exactly: scaled) {
                if n < 0 { append(UInt8(ascii: "-")) }
                write(int: Int(n.magnitude / 1000))
                append(UInt8(ascii: "."))
                var fraction = n.magnitude % 1000
                var divisor: UInt = 100
                while fraction > 0 {
                    append(UInt8(truncatingIfNeeded: fraction / divisor) &+ 0x30)
                    fraction %= divisor
                    divisor /= 10
                }
                return
            }
        }
        var text = JSNumber.string(value)
        text.withUTF8 { append($0) }
    }

    /// A JSON string literal, escaped like `JSON.stringify`: `"`, `\` and C0 controls.
    func write(string value: String) {
        var value = value
        value.withUTF8 { writeEscaped($0) }
    }

    /// A JSON string literal from UTF-8 bytes.
    func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        reserve(utf8.count + 2)
        pointer[count] = UInt8(ascii: "\"")
        count += 1
        var runStart = 0
        var i = 0
        let n = utf8.count
        // Eight bytes at a time while none needs escaping (SWAR: a byte below 0x20, or equal
        // to '"' or '\\', sets its high bit in `flags`).
        if let base = UnsafeRawPointer(utf8.baseAddress) {
            while i + 8 <= n {
                let word = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let control = (word &- ones &* 0x20) & ~word & highs
                let flags = control | ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs)
                if flags != 0 { break }
                i += 8
            }
        }
        while i < n {
            let byte = utf8[i]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            if runStart < i { append(UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
            append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): append(UInt8(ascii: "\\"))
            case 0x08: append(UInt8(ascii: "b"))
            case 0x0C: append(UInt8(ascii: "f"))
            case 0x0A: append(UInt8(ascii: "n"))
            case 0x0D: append(UInt8(ascii: "r"))
            case 0x09: append(UInt8(ascii: "t"))
            default:
                let hex: StaticString = "0123456789abcdef"
                let digits = hex.utf8Start
                appendLiteral("u00")
                append(digits[Int(byte >> 4)])
                append(digits[Int(byte & 0xF)])
            }
            i += 1
            runStart = i
        }
        if runStart < n { append(UnsafeBufferPointer(rebasing: utf8[runStart..<n])) }
        append(UInt8(ascii: "\""))
    }

    func write(_ value: JSONValue) {
        switch value {
        case .null: writeNull()
        case .bool(let b): write(bool: b)
        case .int(let i): write(int: i)
        case .double(let d): write(double: d)
        case .string(let s): write(string: s)
        case .array(let items):
            append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { append(UInt8(ascii: ",")) }
                write(item)
            }
            append(UInt8(ascii: "]"))
        case .object(let object):
            append(UInt8(ascii: "{"))
            for (i, entry) in object.entries.enumerated() {
                if i > 0 { append(UInt8(ascii: ",")) }
                write(string: entry.key)
                append(UInt8(ascii: ":"))
                write(entry.value)
            }
            append(UInt8(ascii: "}"))
        }
    }
}
