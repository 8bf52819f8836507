/// Serializes `JSONValue`s into UTF-8 bytes (RFC 8259), fast enough for the response path.
///
/// Shapes: objects keep their entry order (GraphQL responses are ordered, spec §7.1);
/// `.int` prints as an integer; `.double` prints as JavaScript's `Number#toString` would
/// (shortest round-trip digits, `4` for `4.0`, `1e+21`, never `-0`), so our output matches
/// graphql-js's `JSON.stringify` byte for byte on numbers. NaN and infinities have no JSON
/// form and print as `null` (the executor never produces them: Float serialization rejects
/// them first). Strings escape `"`, `\` and control characters like `JSON.stringify`;
/// everything else, non-ASCII included, is written as UTF-8.
public struct JSONWriter: Sendable {
  /// The bytes written so far.
  public private(set) var bytes: [UInt8] = []

  public init(reservingCapacity capacity: Int = 1024) {
    bytes.reserveCapacity(capacity)
  }

  /// The UTF-8 JSON text of `value`.
  public static func serialize(_ value: JSONValue) -> [UInt8] {
    var writer = JSONWriter()
    writer.write(value)
    return writer.bytes
  }

  /// `serialize(_:)` as a `String`.
  public static func string(_ value: JSONValue) -> String {
    String(decoding: serialize(value), as: UTF8.self)
  }

  public mutating func write(_ value: JSONValue) {
    switch value {
    case .null: appendLiteral("null")
    case .bool(let b): appendLiteral(b ? "true" : "false")
    case .int(let i): write(int: i)
    case .double(let d): write(double: d)
    case .string(let s): write(string: s)
    case .array(let items):
      bytes.append(UInt8(ascii: "["))
      var first = true
      for item in items {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        write(item)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let object):
      bytes.append(UInt8(ascii: "{"))
      var first = true
      for entry in object.entries {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        write(string: entry.key)
        bytes.append(UInt8(ascii: ":"))
        write(entry.value)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// Appends raw ASCII text (a literal or punctuation the caller knows is valid JSON).
  public mutating func appendLiteral(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  public mutating func write(int value: Int) {
    if value >= 0 && value < 10 {
      bytes.append(UInt8(truncatingIfNeeded: value) &+ 0x30)
      return
    }
    // Digits into a small stack buffer, least significant first; the magnitude is taken
    // as UInt so Int.min does not overflow.
    var magnitude = value.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      while magnitude > 0 {
        buffer[count] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
        magnitude /= 10
        count += 1
      }
    }
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    withUnsafeBytes(of: &digits) { buffer in
      var i = count - 1
      while i >= 0 {
        bytes.append(buffer[i])
        i -= 1
      }
    }
  }

  public mutating func write(double value: Double) {
    guard value.isFinite else {
      appendLiteral("null")
      return
    }
    if let small = Int(exactly: value), small.magnitude < 1 << 53 {
      write(int: small)  // also turns -0.0 into 0
      return
    }
    // Fast path for the common "few decimals" case (prices, ratings): when value·1000 is
    // an integer N and N/1000 rounds back to value, the decimal N/1000 is the shortest
    // round-trip form (doubles are far denser than 0.001 below 1e9).
    if value.magnitude < 1e9 {
      let scaled = (value * 1000).rounded()
      if scaled / 1000 == value, let n = Int(exactly: scaled) {
        let whole = n.magnitude / 1000
        var fraction = n.magnitude % 1000
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        write(int: Int(whole))
        bytes.append(UInt8(ascii: "."))
        var divisor: UInt = 100
        while fraction > 0 {
          bytes.append(UInt8(truncatingIfNeeded: fraction / divisor) &+ 0x30)
          fraction %= divisor
          divisor /= 10
        }
        return
      }
    }
    bytes.append(contentsOf: JSNumber.string(value).utf8)
  }

  /// Writes `value` as a JSON string literal, escaping like `JSON.stringify`.
  public mutating func write(string value: String) {
    bytes.append(UInt8(ascii: "\""))
    let done: Void? = value.utf8.withContiguousStorageIfAvailable { appendEscaped($0) }
    if done == nil {
      appendEscaped(Array(value.utf8).withUnsafeBufferPointer { $0 })
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    var i = 0
    let count = utf8.count
    while i < count {
      let byte = utf8[i]
      if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
        i += 1
        continue
      }
      if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
      bytes.append(UInt8(ascii: "\\"))
      switch byte {
      case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
      case 0x08: bytes.append(UInt8(ascii: "b"))
      case 0x0C: bytes.append(UInt8(ascii: "f"))
      case 0x0A: bytes.append(UInt8(ascii: "n"))
      case 0x0D: bytes.append(UInt8(ascii: "r"))
      case 0x09: bytes.append(UInt8(ascii: "t"))
      default:
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
      }
      i += 1
      runStart = i
    }
    if runStart < count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count])) }
  }
}
