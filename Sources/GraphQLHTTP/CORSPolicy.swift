import HTTPServer
import HTTPTypes

/// Which browser origins may call the endpoint (Fetch standard, "CORS protocol").
///
/// Requests without an `Origin` header (curl, servers, same-origin navigation) are never
/// affected. A cross-origin request from an allowed origin gets `Access-Control-Allow-Origin`;
/// one from any other origin gets no CORS headers, so the browser withholds the answer. A
/// preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin is
/// answered 204 with the allowed methods and headers; from another origin, 403.
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
    /// Request headers a preflight may ask for.
    public var allowedHeaders: [String]
    /// How long a browser may cache a preflight answer, in seconds.
    public var maxAgeSeconds: Int

    public init(
        allowedOrigins: AllowedOrigins = .none, allowedHeaders: [String] = ["Content-Type", "Accept", "Authorization"],
        maxAgeSeconds: Int = 600
    ) {
        self.allowedOrigins = allowedOrigins
        self.allowedHeaders = allowedHeaders
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
        if case .list = allowedOrigins, headers["Vary"] == nil {
            // The answer depends on the Origin header: caches must keep one copy per origin.
            headers.add(name: "Vary", value: "Origin")
        }
        guard headers["Access-Control-Allow-Origin"] == nil, let requestOrigin,
            let allowed = allowOriginValue(for: requestOrigin)
        else { return }
        headers.add(name: "Access-Control-Allow-Origin", value: allowed)
    }

    /// The answer to a preflight request from `origin`.
    func preflightResponse(origin: String?, allowedMethods: String) -> HTTPResponse {
        var headers: HTTPHeaders = ["Allow": allowedMethods]
        guard let origin, let allowed = allowOriginValue(for: origin) else {
            if case .list = allowedOrigins { headers.add(name: "Vary", value: "Origin") }
            return HTTPResponse(status: 403, headers: headers)
        }
        if case .list = allowedOrigins { headers.add(name: "Vary", value: "Origin") }
        headers.add(name: "Access-Control-Allow-Origin", value: allowed)
        headers.add(name: "Access-Control-Allow-Methods", value: allowedMethods)
        headers.add(name: "Access-Control-Allow-Headers", value: allowedHeaders.joined(separator: ", "))
        headers.add(name: "Access-Control-Max-Age", value: String(maxAgeSeconds))
        return HTTPResponse(status: 204, headers: headers)
    }
}
