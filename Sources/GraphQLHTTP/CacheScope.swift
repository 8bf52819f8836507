/// Who may keep a cacheable GraphQL response (RFC 9111 §5.2.2): the client alone, or shared
/// caches (CDNs, proxies) too.
///
/// `private` is the default: a response may depend on who asks (headers the gateway passes
/// on, a future authorization), and a shared cache would hand one client's answer to the next.
/// `public` suits a gateway whose answers are the same for everyone, behind a CDN that keys
/// GET requests (APQ hashes make their URLs short) by URL and `Accept`.
public enum CacheScope: Sendable, Equatable {
    case `private`
    case `public`

    /// The `Cache-Control` value for a response reusable for `maxAgeSeconds`: `max-age=N,
    /// private` (or `public`), or `no-store` when N is 0.
    func cacheControl(maxAgeSeconds: Int) -> String {
        guard maxAgeSeconds > 0 else { return "no-store" }
        switch self {
        case .private: return "max-age=\(maxAgeSeconds), private"
        case .public: return "max-age=\(maxAgeSeconds), public"
        }
    }
}
