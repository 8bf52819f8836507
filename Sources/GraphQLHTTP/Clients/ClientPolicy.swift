import HTTPServer
import HTTPTypes

/// Who a request comes from, and how often each client may send (`--clients`,
/// `--trusted-proxies`, `--anonymous-rate`).
///
/// A request that presents a key (`Authorization: Bearer KEY` or `X-API-Key: KEY`) is the
/// client whose entry has that key's SHA-256; a key no entry has is refused (401
/// `UNAUTHENTICATED`), never taken for an anonymous request. Without a clients file no key is
/// looked at. A request without a key is anonymous, known by its address: the connection's
/// peer, or, when that peer is a trusted proxy, the address its `X-Forwarded-For` names (read
/// from the right, past every trusted proxy: a client cannot forge the entries its own proxy
/// adds).
public struct ClientPolicy: Sendable {
    public private(set) var clients: ClientsFile
    /// Proxies whose `X-Forwarded-For` is believed.
    public var trustedProxies: [ClientAddressRange]
    /// Each anonymous address's rate; nil for none.
    public var anonymousRate: RateLimit?
    /// The entries by their key's digest.
    private let byDigest: [[UInt8]: ClientsFile.Entry]

    public init(
        clients: ClientsFile = ClientsFile(entries: []), trustedProxies: [ClientAddressRange] = [],
        anonymousRate: RateLimit? = nil
    ) {
        self.clients = clients
        self.trustedProxies = trustedProxies
        self.anonymousRate = anonymousRate
        self.byDigest = Dictionary(clients.entries.map { ($0.keyDigest, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether every request is anonymous and unlimited, so that nothing need be worked out
    /// beyond the address.
    var isEmpty: Bool { byDigest.isEmpty && anonymousRate == nil }

    /// What `identify` decided.
    enum Identification {
        case client(RequestClient, rate: RateLimit?)
        case refused(GraphQLHTTPError)
    }

    /// The client `request` comes from, and its rate.
    func identify(_ request: HTTPRequest) -> Identification {
        if !byDigest.isEmpty, let key = Self.presentedKey(request.headers) {
            guard ClientsFile.isKey(key.utf8), let entry = byDigest[SHA256.digest(Array(key.utf8))] else {
                return .refused(.unauthenticated)
            }
            return .client(.keyed(entry.name), rate: entry.rate)
        }
        return .client(.anonymous(address(of: request)), rate: anonymousRate)
    }

    /// The key in `Authorization: Bearer KEY` or `X-API-Key: KEY`; nil when there is none (an
    /// `Authorization` of another scheme is not ours to read).
    static func presentedKey(_ headers: HTTPHeaders) -> Substring? {
        if let authorization = headers["Authorization"] {
            let trimmed = authorization.drop { $0 == " " }
            if trimmed.count > 7, trimmed.prefix(7).lowercased() == "bearer " {
                return trimmed.dropFirst(7).drop { $0 == " " }
            }
        }
        return headers["X-API-Key"].map { $0[...] }
    }

    /// The anonymous client's address (nil for a request with none, as in-process ones).
    func address(of request: HTTPRequest) -> ClientAddress? {
        guard var address = request.clientAddress else { return nil }
        guard !trustedProxies.isEmpty, isTrusted(address) else { return address }
        // Right to left: each address was added by the hop after it; stop at the first one no
        // trusted proxy added (or that does not parse: what is left of it is the client's).
        let hops = request.headers.values(for: "X-Forwarded-For").flatMap { $0.split(separator: ",") }
        for hop in hops.reversed().prefix(64) {
            guard let parsed = ClientAddress(parsing: hop.trimmingSpaces) else { break }
            address = parsed
            if !isTrusted(parsed) { break }
        }
        return address
    }

    private func isTrusted(_ address: ClientAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        let isSpace = { (c: Character) in c == " " || c == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
