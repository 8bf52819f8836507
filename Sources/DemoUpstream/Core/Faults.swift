import Foundation

/// Faults injected per path prefix, set with `POST /__demo/faults`:
///
///     {"/youtube": {"status": 503}, "/lookup": {"latencyMs": 2000}}
///
/// A request gets the rule of the longest prefix of its path (`{}` clears every rule).
/// Keys of a rule, all optional:
/// - `status`: answer with this status and the service's own error body for it;
/// - `retryAfter`: seconds, sent as `Retry-After` with `status`;
/// - `latencyMs`: wait this long before answering;
/// - `hang`: never answer (wait until the client gives up, at most `hangLimitMs`);
/// - `malformed`: the normal answer with its body made invalid JSON;
/// - `truncated`: the normal answer with only the first half of its body;
/// - `html`: an HTML error page (with `status`, or 200 as iTunes sometimes does);
/// - `echo`: a JSON error (with `status`, or 400) in no API's own shape, `{"message": …}`, that
///   repeats the request's `Authorization` header and query (decoded, then as sent), the way a
///   careless proxy in front of an upstream echoes credentials back: providers summarise such
///   a body as text, JSON escapes and all;
/// - `padBytes`: the normal answer padded with trailing spaces (still the same JSON) to at
///   least this many bytes, the way a misbehaving upstream sends a huge body;
/// - `omitKeys`: the normal answer with every object member of these names removed, at any
///   depth (`["title"]` drops `snippet.title`), the way an upstream leaves out a field its
///   documentation calls optional;
/// - `everyNth`: apply the rule only to the Nth, 2Nth, … request matching the prefix
///   (counted from when the rules were set); other requests are answered normally.
struct FaultRule: Decodable, Sendable, Equatable {
    var status: Int?
    var retryAfter: Int?
    var latencyMs: Int?
    var hang: Bool?
    var malformed: Bool?
    var truncated: Bool?
    var html: Bool?
    var echo: Bool?
    var padBytes: Int?
    var omitKeys: [String]?
    var everyNth: Int?

    enum ParseError: Error, CustomStringConvertible {
        case invalid(String)
        var description: String {
            switch self {
            case .invalid(let why): why
            }
        }
    }

    /// Parses the `POST /__demo/faults` body: an object of prefix → rule.
    static func parse(_ body: [UInt8]) throws(ParseError) -> [(prefix: String, rule: FaultRule)] {
        let table: [String: FaultRule]
        do {
            table = try JSONDecoder().decode([String: FaultRule].self, from: Data(body))
        } catch {
            throw .invalid(
                "expected a JSON object of path prefix → {status, latencyMs, retryAfter, hang, malformed, truncated, html, echo, padBytes, omitKeys, everyNth}"
            )
        }
        for (prefix, rule) in table {
            guard prefix.hasPrefix("/") else { throw .invalid("prefix '\(prefix)' must start with /") }
            if let status = rule.status, !(100...599).contains(status) {
                throw .invalid("status \(status) out of range")
            }
            if let n = rule.everyNth, n < 1 { throw .invalid("everyNth must be at least 1") }
            if let ms = rule.latencyMs, ms < 0 { throw .invalid("latencyMs must not be negative") }
            if let bytes = rule.padBytes, !(0...(1 << 30)).contains(bytes) {
                throw .invalid("padBytes must be between 0 and 1 GiB")
            }
        }
        return table.map { ($0.key, $0.value) }.sorted { $0.prefix.count > $1.prefix.count }
    }

    var json: JSONText {
        var members: [(String, JSONText)] = []
        if let status { members.append(("status", .int(status))) }
        if let retryAfter { members.append(("retryAfter", .int(retryAfter))) }
        if let latencyMs { members.append(("latencyMs", .int(latencyMs))) }
        if let hang { members.append(("hang", .bool(hang))) }
        if let malformed { members.append(("malformed", .bool(malformed))) }
        if let truncated { members.append(("truncated", .bool(truncated))) }
        if let html { members.append(("html", .bool(html))) }
        if let echo { members.append(("echo", .bool(echo))) }
        if let padBytes { members.append(("padBytes", .int(padBytes))) }
        if let omitKeys { members.append(("omitKeys", .array(omitKeys.map { .string($0) }))) }
        if let everyNth { members.append(("everyNth", .int(everyNth))) }
        return .object(members)
    }

    /// `body` (JSON) without the object members named in `keys`, at any depth; a body that is
    /// not JSON stays as it is.
    static func omitting(_ keys: Set<String>, from body: [UInt8]) -> [UInt8] {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter { !keys.contains($0.key) }.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(withJSONObject: strip(parsed), options: [.fragmentsAllowed])
        else { return body }
        return Array(data)
    }

    /// The response after the body-changing faults (`status`, `html`, `echo`, `malformed`,
    /// `truncated`, `padBytes`); `normal` computes the regular answer only when it is needed.
    func apply(service: DemoService, request: DemoRequest, normal: () -> DemoResponse) -> DemoResponse {
        var response: DemoResponse
        if echo == true {
            let decoded = request.queryItems.filter { $0.value.count > 3 }.map { "\($0.name)=\($0.value)" }
            let message =
                "rejected: authorization=\(request.headers["authorization"] ?? "") "
                + "\(decoded.joined(separator: " ")) query=\(request.rawQuery)"
            response = DemoResponse.json(status ?? 400, JSONText.object([("message", .string(message))]).compact)
        } else if html == true {
            response = DemoResponse(
                status: status ?? 200, headers: ["Content-Type": "text/html; charset=utf-8"],
                body: Array(Self.htmlPage.utf8))
        } else if let status {
            response = service.errorResponse(status: status)
        } else {
            response = normal()
            if let omitKeys, !omitKeys.isEmpty { response.body = Self.omitting(Set(omitKeys), from: response.body) }
            if malformed == true { response.body = Self.malform(response.body) }
            if truncated == true { response.body = Array(response.body.prefix(response.body.count / 2)) }
            if let padBytes, response.body.count < padBytes {
                response.body += [UInt8](repeating: UInt8(ascii: " "), count: padBytes - response.body.count)
            }
        }
        if let retryAfter, status != nil { response.headers["Retry-After"] = String(retryAfter) }
        return response
    }

    /// The page iTunes answers with on internal errors.
    static let htmlPage = """
        <html><head><title>Error</title></head><body>Your request produced an error. <BR>[newNullResponse]</body></html>

        """

    /// `body` made invalid JSON: its first `"` becomes `'` (or a stray `}{` for bodies without one).
    static func malform(_ body: [UInt8]) -> [UInt8] {
        guard let quote = body.firstIndex(of: UInt8(ascii: "\"")) else { return body + Array("}{".utf8) }
        var copy = body
        copy[quote] = UInt8(ascii: "'")
        return copy
    }
}
