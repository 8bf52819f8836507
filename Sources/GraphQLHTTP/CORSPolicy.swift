import HTTPServer
import HTTPTypes

/// Which browser origins may call the endpoint (Fetch standard, "CORS protocol").
///
/// Requests without an `Origin` header (curl, servers, same-origin navigation) are never
/// affected. A cross-origin request from an allowed origin gets `Access-Control-Allow-Origin`
/// and `Access-Control-Expose-Headers` (`X-Request-Id`, so scripts can read the id to quote in
/// a bug report); one from any other origin gets no CORS headers, so the browser withholds the
/// answer. A preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin
/// is answered 204 with the allowed methods and headers (by default the headers the preflight
/// asks for, as the `cors` package and Apollo Router do: whatever a user types in GraphiQL's
/// headers tab), cached by the browser for `maxAgeSeconds`; from another origin, 403.
public struct CORSPolicy: Sendable, Equatable {
    public enum AllowedOrigins: Sendable, Equatable {
        /// No cross-origin access (no CORS headers at all).
        case none
        /// Any origin (`Access-Control-Allow-Origin: *`; no credentials, as the Fetch standard
        /// requires for the wildcard).
        case any
        /// Exactly these origins (`scheme://host[:port]`, compared case-insensitively).
        case list([String])
    }

    public var allowedOrigins: AllowedOrigins
    /// Request headers a preflight may ask for; nil allows the ones it asks for (reflected
    /// from `Access-Control-Request-Headers`, each checked to be a header name).
    public var allowedHeaders: [String]?
    /// Response headers scripts of other origins may read.
    public var exposedHeaders: [String]
    /// How long a browser may cache a preflight answer, in seconds (Chromium keeps at most
    /// 7200, Firefox 86400).
    public var maxAgeSeconds: Int

    public init(
        allowedOrigins: AllowedOrigins = .none, allowedHeaders: [String]? = nil,
        exposedHeaders: [String] = ["X-Request-Id"], maxAgeSeconds: Int = 600
    ) {
        self.allowedOrigins = allowedOrigins
        self.allowedHeaders = allowedHeaders
        self.exposedHeaders = exposedHeaders
        self.maxAgeSeconds = maxAgeSeconds
    }

    /// The `Access-Control-Allow-Origin` value for `origin`, or nil when it is not allowed.
    func allowOriginValue(for origin: String) -> String? {
        switch allowedOrigins {
        case .none: nil
        case .any: "*"
        case .list(let origins): origins.contains { $0.lowercased() == origin.lowercased() } ? origin : nil
        }
    }

    /// Adds the CORS headers of an actual response to `headers`; a preflight answer, which
    /// carries them already, is left as it is (browsers refuse a repeated Allow-Origin).
    func decorate(_ headers: inout HTTPHeaders, requestOrigin: String?) {
        if case .list = allowedOrigins {
            // The answer depends on the Origin header: caches must keep one copy per origin.
            let vary = headers.values(for: "Vary")
            if vary.isEmpty {
                headers.add(name: "Vary", value: "Origin")
            } else if !vary.contains(where: { $0.lowercased().contains("origin") }) {
                headers.replaceOrAdd(name: "Vary", value: (vary + ["Origin"]).joined(separator: ", "))
            }
        }
        guard headers["Access-Control-Allow-Origin"] == nil, let requestOrigin,
            let allowed = allowOriginValue(for: requestOrigin)
        else { return }
        headers.add(name: "Access-Control-Allow-Origin", value: allowed)
        if !exposedHeaders.isEmpty {
            headers.add(name: "Access-Control-Expose-Headers", value: exposedHeaders.joined(separator: ", "))
        }
    }

    /// The answer to a preflight request from `origin` asking for `requestedHeaders` (the
    /// `Access-Control-Request-Headers` value).
    func preflightResponse(origin: String?, requestedHeaders: String?, allowedMethods: String) -> HTTPResponse {
        var headers: HTTPHeaders = ["Allow": allowedMethods]
        // What varies the answer: the origin (for a list), the requested headers (reflected).
        var vary: [String] = []
        if case .list = allowedOrigins { vary.append("Origin") }
        if allowedHeaders == nil, allowedOrigins != .none { vary.append("Access-Control-Request-Headers") }
        if !vary.isEmpty { headers.add(name: "Vary", value: vary.joined(separator: ", ")) }
        guard let origin, let allowed = allowOriginValue(for: origin) else {
            return HTTPResponse(status: 403, headers: headers)
        }
        headers.add(name: "Access-Control-Allow-Origin", value: allowed)
        headers.add(name: "Access-Control-Allow-Methods", value: allowedMethods)
        let allowHeaders = allowedHeaders ?? Self.headerNames(in: requestedHeaders ?? "")
        if !allowHeaders.isEmpty {
            headers.add(name: "Access-Control-Allow-Headers", value: allowHeaders.joined(separator: ", "))
        }
        headers.add(name: "Access-Control-Max-Age", value: String(maxAgeSeconds))
        return HTTPResponse(status: 204, headers: headers)
    }

    /// The header names of an `Access-Control-Request-Headers` value: comma-separated tokens
    /// (RFC 9110 §5.1), at most 64 of at most 100 characters; anything else is left out, so the
    /// browser refuses the request that needed it.
    static func headerNames(in value: String) -> [String] {
        value.split(separator: ",").prefix(64).map { $0.trimmingASCIISpaces() }.filter { name in
            !name.isEmpty && name.utf8.count <= 100 && name.utf8.allSatisfy(isTokenCharacter)
        }.map(String.init)
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
