import HTTPTypes

/// Replaces secrets (API keys, tokens) with `***` in anything the client renders: URLs in
/// errors and descriptions, and libcurl messages.
struct SecretRedactor: Sendable {
    static let mask = "***"

    /// Lowercased query-parameter names whose values are secret.
    private let queryNames: Set<String>
    /// Lowercased header names whose values are secret.
    private let headerNames: Set<String>

    init(secretQueryParameters: Set<String>, secretHeaders: Set<String>) {
        queryNames = Set(secretQueryParameters.map { $0.lowercased() })
        headerNames = Set(secretHeaders.map { $0.lowercased() })
    }

    /// `url` with the value of every secret query parameter (names compared case-insensitively,
    /// after percent-decoding) and any userinfo password replaced by `***`. Everything else is
    /// kept byte for byte, so the result still identifies the request.
    func redact(url: String) -> String {
        var rest = Substring(url)
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var result = redactUserinfo(rest)
        if let query {
            result += "?"
            result += query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                guard let equals = pair.firstIndex(of: "="), isSecretQueryName(pair[..<equals]) else {
                    return String(pair)
                }
                return pair[...equals] + Self.mask
            }.joined(separator: "&")
        }
        if let fragment {
            result += "#" + fragment
        }
        return result
    }

    func isSecretHeader(_ name: String) -> Bool {
        headerNames.contains(name.lowercased())
    }

    /// The secret values a request carries (query parameters, headers, userinfo password), to
    /// scrub from messages libcurl writes about it.
    func secretValues(of request: HTTPClientRequest) -> [String] {
        var values = request.headers.filter { isSecretHeader($0.name) }.map(\.value)
        if let mark = request.url.firstIndex(of: "?") {
            let query = request.url[request.url.index(after: mark)...].prefix { $0 != "#" }
            for pair in query.split(separator: "&") {
                if let equals = pair.firstIndex(of: "="), isSecretQueryName(pair[..<equals]) {
                    let raw = pair[pair.index(after: equals)...]
                    values.append(String(raw))
                    values.append(percentDecode(raw))
                }
            }
        }
        return values.filter { !$0.isEmpty }
    }

    /// `message` with each of `secrets`, in any form (raw, percent-encoded, JSON-escaped,
    /// base64; see `SecretScrubber`), replaced by `***`.
    func scrub(_ message: String, secrets: [String]) -> String {
        SecretScrubber(secrets: secrets).scrub(message)
    }

    private func isSecretQueryName(_ encodedName: Substring) -> Bool {
        queryNames.contains(percentDecode(encodedName).lowercased())
    }

    /// `scheme://user:password@host…` → `scheme://user:***@host…`.
    private func redactUserinfo(_ base: Substring) -> String {
        guard let schemeEnd = base.range(of: "://") else { return String(base) }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = base[authorityStart...].firstIndex(of: "/") ?? base.endIndex
        let authority = base[authorityStart..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
            return String(base)
        }
        return base[..<base.index(after: colon)] + Self.mask + base[at...]
    }

    private func percentDecode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
