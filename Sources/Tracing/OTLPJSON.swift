/// The OTLP/JSON encoding of an `ExportTraceServiceRequest` (OTLP 1.x, "JSON Protobuf
/// Encoding"): ids as lower-case hex, 64-bit integers (times, int values) as decimal strings,
/// enums (`kind`, `status.code`) as integers, field names in lowerCamelCase.
public enum OTLPJSON {
    /// The instrumentation scope every span is reported under.
    public static let scopeName = "musicgraph"

    /// One request body holding `spans` of one resource.
    public static func exportRequest(
        _ spans: [SpanData], resource: [(key: String, value: AttributeValue)], scopeVersion: String
    ) -> [UInt8] {
        var out = JSONOut()
        out.raw("{\"resourceSpans\":[{\"resource\":{\"attributes\":")
        out.attributes(resource)
        out.raw("},\"scopeSpans\":[{\"scope\":{\"name\":")
        out.string(scopeName)
        out.raw(",\"version\":")
        out.string(scopeVersion)
        out.raw("},\"spans\":[")
        for (index, span) in spans.enumerated() {
            if index > 0 { out.raw(",") }
            out.span(span)
        }
        out.raw("]}]}]}")
        return out.bytes
    }
}

/// A small JSON byte writer for `OTLPJSON`.
struct JSONOut {
    var bytes: [UInt8] = []

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0a: raw("\\n")
            case 0x0d: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                let digits = Array("0123456789abcdef".utf8)
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0xf)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func attributes(_ attributes: [(key: String, value: AttributeValue)]) {
        raw("[")
        for (index, attribute) in attributes.enumerated() {
            if index > 0 { raw(",") }
            raw("{\"key\":")
            string(attribute.key)
            raw(",\"value\":{")
            switch attribute.value {
            case .string(let value):
                raw("\"stringValue\":")
                string(value)
            case .int(let value): raw("\"intValue\":\"\(value)\"")
            case .bool(let value): raw("\"boolValue\":\(value)")
            }
            raw("}}")
        }
        raw("]")
    }

    mutating func span(_ span: SpanData) {
        raw("{\"traceId\":\"\(span.traceID.hex)\",\"spanId\":\"\(span.spanID.hex)\"")
        if let parent = span.parentID { raw(",\"parentSpanId\":\"\(parent.hex)\"") }
        if let state = span.traceState {
            raw(",\"traceState\":")
            string(state)
        }
        raw(",\"name\":")
        string(span.name)
        raw(",\"kind\":\(span.kind.rawValue)")
        raw(",\"startTimeUnixNano\":\"\(span.startNanos)\",\"endTimeUnixNano\":\"\(span.endNanos)\"")
        raw(",\"attributes\":")
        attributes(span.attributes)
        if let error = span.error {
            raw(",\"status\":{\"code\":2,\"message\":")
            string(error)
            raw("}")
        }
        raw("}")
    }
}
