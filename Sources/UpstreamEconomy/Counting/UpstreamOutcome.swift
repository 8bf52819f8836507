/// The `outcome` label an upstream request is counted under (`musicgraph_upstream_requests_total`,
/// the log line's counts): what happened to it, in a fixed set, so that a dashboard tells a
/// provider that is down from one that answers garbage or too much.
package enum UpstreamOutcome {
    /// `ok`: a 2xx whose body is a whole JSON object or array; `bad_response`: a 2xx that is not
    /// (an HTML page, a body cut short, an empty one); `http_error`: any other status.
    package static func label(of response: UpstreamResponse) -> String {
        guard (200..<300).contains(response.status) else { return "http_error" }
        return looksLikeJSON(response.body) ? "ok" : "bad_response"
    }

    /// `timeout`, `too_large` (the body passed the transport's size limit and was cut off) or
    /// `unreachable` (no connection, reset, anything else).
    package static func label(of failure: TransportFailure?) -> String {
        switch failure?.underlying {
        case .timedOut: "timeout"
        case .responseTooLarge: "too_large"
        default: "unreachable"
        }
    }

    /// Whether `body` starts with `{` or `[` and ends with the matching `}` or `]` (JSON
    /// whitespace aside): a check of two bytes, not a parse, which the provider's decoder does
    /// and reports at the field. A truncated body ends elsewhere; an HTML page starts with `<`.
    package static func looksLikeJSON(_ body: [UInt8]) -> Bool {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = body.firstIndex(where: { !isSpace($0) }), let last = body.lastIndex(where: { !isSpace($0) })
        else { return false }
        switch (body[first], body[last]) {
        case (UInt8(ascii: "{"), UInt8(ascii: "}")), (UInt8(ascii: "["), UInt8(ascii: "]")): return true
        default: return false
        }
    }
}
