/// A request method (RFC 9110 §9), case-sensitive as the RFC says: `GET` and `get` differ.
///
/// A plain string underneath, so a method a server does not know (`PROPFIND`) is still one.
/// String literals convert: `method == "GET"` and `HTTPClientRequest(method: "POST", …)` read
/// as before.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The method token as sent (`GET`, `POST`, …).
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }

    public static let get: HTTPMethod = "GET"
    public static let head: HTTPMethod = "HEAD"
    public static let post: HTTPMethod = "POST"
    public static let put: HTTPMethod = "PUT"
    public static let delete: HTTPMethod = "DELETE"
    public static let options: HTTPMethod = "OPTIONS"
    public static let patch: HTTPMethod = "PATCH"

    /// Whether sending the request twice has the effect of sending it once (RFC 9110 §9.2.2):
    /// GET, HEAD, OPTIONS, PUT, DELETE (and TRACE).
    public var isIdempotent: Bool {
        switch rawValue {
        case "GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE": true
        default: false
        }
    }
}
