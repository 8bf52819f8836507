import GraphQL
import UpstreamEconomy

/// One request a connector field makes for one parent: the relative URL (`/release/42?inc=x`)
/// that keys its loader, and for a batch, the parent's value of the batch parameter.
struct ConnectorCall: Hashable, Sendable {
    /// The path and the query entries other than the batch parameter, encoded.
    var relative: String
    /// The batch parameter's value; empty for a connector without `batch`.
    var batchValue: String
}

extension HTTPConnector {
    /// The call this field makes for `values`; nil when a hole of the path has no value (a
    /// null argument, a parent without the member): the field is then null, and nothing is sent.
    /// A query entry whose holes have no value is left out.
    func call(_ values: TemplateValues) -> ConnectorCall? {
        // One buffer for the whole relative URL: this runs once per parent of every field.
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for part in self.path.parts {
            guard let text = values.text(of: part) else { return nil }
            if case .literal = part {
                out.append(contentsOf: text.utf8)
            } else {
                // One segment: its `/`, `?` and `#` are encoded with everything else.
                QueryEncoding.appendEncoded(text, to: &out)
            }
        }
        var batchValue = ""
        var separator = UInt8(ascii: "?")
        for (name, template) in query {
            guard let text = values.evaluate(template) else {
                if name == batch?.param { return nil }
                continue
            }
            if name == batch?.param {
                batchValue = text
                continue
            }
            out.append(separator)
            separator = UInt8(ascii: "&")
            QueryEncoding.appendEncoded(name, to: &out)
            out.append(UInt8(ascii: "="))
            QueryEncoding.appendEncoded(text, to: &out)
        }
        return ConnectorCall(relative: String(decoding: out, as: UTF8.self), batchValue: batchValue)
    }

    /// The URL of `call` with the batch's `values` (sorted by the caller), and the upstream's
    /// own query entries last.
    func url(_ call: ConnectorCall, batchValues: [String] = [], environment: [String: String]) -> String {
        var query: [String] = []
        if let batch, !batchValues.isEmpty {
            if batch.join.isEmpty {
                query.append(QueryEncoding.queryString(batchValues.map { (batch.param, $0) }))
            } else {
                // Each value encoded, the declared separator as written: `ids=a,b,c`.
                query.append(
                    QueryEncoding.percentEncode(batch.param) + "="
                        + batchValues.map(QueryEncoding.percentEncode).joined(separator: batch.join))
            }
        }
        let fixed = TemplateValues(arguments: JSONObject(), parent: .null, environment: environment)
        let own: [(String, String?)] = upstream.query.compactMap { name, template in
            fixed.evaluate(template).map { (name, $0) }
        }
        if !own.isEmpty { query.append(QueryEncoding.queryString(own)) }
        guard !query.isEmpty else { return upstream.baseURL + call.relative }
        return upstream.baseURL + call.relative + (call.relative.contains("?") ? "&" : "?")
            + query.joined(separator: "&")
    }

    /// The upstream's headers, secrets filled in.
    func headers(environment: [String: String]) -> [(name: String, value: String)] {
        let fixed = TemplateValues(arguments: JSONObject(), parent: .null, environment: environment)
        return upstream.headers.compactMap { name, template in fixed.evaluate(template).map { (name, $0) } }
    }
}

extension TemplateValues {
    /// The whole template's text; nil when one of its holes has no value.
    func evaluate(_ template: ConnectorTemplate) -> String? {
        if template.parts.count == 1 { return text(of: template.parts[0]) }
        var out = ""
        for part in template.parts {
            guard let text = text(of: part) else { return nil }
            out += text
        }
        return out
    }
}

/// Reading a connector's response: JSON, the declared root, a batch's entries by key.
enum ConnectorResponse {
    /// The decoded body of a 2xx, or nil for a 404. The same for every connector of every
    /// upstream (it is the decoder a kept response shares: `UpstreamCall.fetch`).
    static func decode(service: UpstreamService, status: Int, headers: [String: String], body: [UInt8])
        throws(UpstreamError) -> JSONValue?
    {
        if status == 404 { return nil }
        guard (200..<300).contains(status) else {
            let retry = retryAfterSeconds(headers)
            if status == 429 {
                throw UpstreamError(service: service, kind: .quotaExceeded, status: status, retryAfterSeconds: retry)
            }
            if status == 401 || status == 403 {
                throw UpstreamError(service: service, kind: .authFailed, status: status)
            }
            throw UpstreamError(
                service: service, kind: .httpStatus(code: status, bodySummary: WireJSON.summary(body)), status: status,
                retryAfterSeconds: retry)
        }
        do {
            return try JSONReader.parse(body)
        } catch {
            throw UpstreamError(
                service: service, kind: .badResponse(reason: "the response is not JSON"), status: status)
        }
    }

    /// The answer at `connector.select` in `body`.
    /// - Throws: `UpstreamError` `.badResponse` when the body lacks it.
    static func selected(_ connector: HTTPConnector, in body: JSONValue) throws(UpstreamError) -> JSONValue {
        guard let value = connector.select.value(in: body) else {
            throw UpstreamError(
                service: connector.upstream.service,
                kind: .badResponse(reason: "the response has no '\(connector.select)'"))
        }
        return value
    }

    /// The entries of a batch's selected list by the text of their key member.
    /// - Throws: `UpstreamError` `.badResponse` when the answer is not a list, or an entry lacks the key.
    static func entries(_ connector: HTTPConnector, _ batch: HTTPConnector.Batch, in selected: JSONValue)
        throws(UpstreamError) -> [String: [JSONValue]]
    {
        guard case .array(let items) = selected else {
            throw UpstreamError(
                service: connector.upstream.service,
                kind: .badResponse(reason: "the batch answer at '\(connector.select)' is not a list"))
        }
        var byKey: [String: [JSONValue]] = [:]
        for item in items {
            guard let key = batch.key.value(in: item).flatMap(TemplateValues.text(of:)) else {
                throw UpstreamError(
                    service: connector.upstream.service,
                    kind: .badResponse(reason: "a batch entry has no '\(batch.key)'"))
            }
            byKey[key, default: []].append(item)
        }
        return byKey
    }
}
