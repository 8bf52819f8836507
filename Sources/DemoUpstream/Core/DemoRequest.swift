/// One request as DemoUpstream's router sees it: independent of the HTTP server underneath,
/// so routing is a pure function that tests drive without sockets.
public struct DemoRequest: Sendable {
    public var method: String
    /// Percent-decoded path without the query, e.g. `/v1/catalog/us/albums/200001`.
    public var path: String
    /// The query exactly as sent (still encoded), without `?`.
    public var rawQuery: String
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    public var body: [UInt8]
    /// `rawQuery` decoded into pairs in order (`+` is a space, `%XX` a byte).
    public let queryItems: [(name: String, value: String)]

    public init(
        method: String = "GET", path: String, rawQuery: String = "", headers: [String: String] = [:], body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.rawQuery = rawQuery
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
        self.queryItems = QueryDecoding.items(rawQuery)
    }

    /// The first value of query parameter `name` (exact case).
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// A query parameter as an integer: nil when absent, `.invalid` when not an integer.
    func intQuery(_ name: String) -> IntParameter {
        guard let text = query(name) else { return .absent }
        guard let value = Int(text) else { return .invalid(text) }
        return .value(value)
    }

    enum IntParameter {
        case absent
        case value(Int)
        case invalid(String)
    }
}

/// A response of the router: status, header fields and body bytes.
public struct DemoResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text (tests and logs).
    public var text: String { String(decoding: body, as: UTF8.self) }

    static func json(_ status: Int, _ text: String, contentType: String = "application/json; charset=utf-8")
        -> DemoResponse
    {
        DemoResponse(status: status, headers: ["Content-Type": contentType], body: Array(text.utf8))
    }

    static func json(
        _ status: Int, _ bytes: [UInt8], contentType: String = "application/json; charset=utf-8"
    ) -> DemoResponse {
        DemoResponse(status: status, headers: ["Content-Type": contentType], body: bytes)
    }

    static func plain(_ status: Int, _ text: String) -> DemoResponse {
        DemoResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array((text + "\n").utf8))
    }
}
