import GraphQL

/// A failed upstream call, classified so the gateway can report it as a field error.
///
/// Every kind maps to one stable `extensions.code` (see `code`); `service` names the API,
/// `upstreamPath` the path it was asked for, and `status` the HTTP status when one was received.
/// Descriptions never contain API keys or tokens: providers redact their secrets before building one.
public struct UpstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// No complete response within the transport's timeout. `UPSTREAM_TIMEOUT`.
        case timeout
        /// An HTTP error status that is not one of the kinds below; `bodySummary` is the
        /// upstream's own error message (or the first ~200 characters of its body).
        /// `UPSTREAM_HTTP_ERROR`.
        case httpStatus(code: Int, bodySummary: String)
        /// Rate limit or daily quota (a 429, or an upstream's own way of saying so).
        /// `UPSTREAM_QUOTA_EXCEEDED`.
        case quotaExceeded
        /// The key or token was rejected (a 401, or an upstream's own way of saying so).
        /// `UPSTREAM_AUTH_FAILED`.
        case authFailed
        /// A response we cannot use: not JSON, truncated, an HTML page, an unexpected shape.
        /// `UPSTREAM_BAD_RESPONSE`.
        case badResponse(reason: String)
        /// The response body was longer than the gateway reads from one upstream response
        /// (`limitBytes`); the transfer was cut off there. `UPSTREAM_RESPONSE_TOO_LARGE`.
        case responseTooLarge(limitBytes: Int)
        /// The provider has no key/token configured, so it was never called. `UPSTREAM_NOT_CONFIGURED`.
        case notConfigured
        /// No HTTP exchange happened: connection refused, DNS failure, reset. `UPSTREAM_UNREACHABLE`.
        case unreachable(reason: String)
        /// `--replay` has no recorded exchange for `request` (`GET` and the request key, no
        /// secrets); nothing was sent. `UPSTREAM_NOT_RECORDED`.
        case notRecorded(request: String)
        /// Not sent: its `cost` in quota units would take the GraphQL request's actual spend
        /// (`spent` so far) over `limit` (`--max-query-cost`). `QUERY_BUDGET_EXCEEDED`.
        case budgetExceeded(cost: Int, spent: Int, limit: Int)
        /// Not sent: the provider's daily quota (`--daily-quota`, `limit` units, `used` today)
        /// has no room for it until `resetsAt` (RFC 3339). `UPSTREAM_QUOTA_EXCEEDED`, as when the
        /// provider itself says so.
        case dailyQuotaSpent(used: Int, limit: Int, resetsAt: String)
        /// Not sent: `owner` (the client, or `anonymous clients` together) has spent its share
        /// of the provider's day (`limit` units, `used` spent) until `resetsAt`; the rest of the
        /// day is left for the other clients. `CLIENT_QUOTA_EXCEEDED`.
        case clientQuotaSpent(owner: String, used: Int, limit: Int, resetsAt: String)
        /// Not sent: the request is a dry run, which plans calls and sends none. `DRY_RUN`.
        case notSent
    }

    public var service: UpstreamService
    public var kind: Kind
    /// HTTP status of the failed response; nil when none was received.
    public var status: Int?
    /// Seconds from a `Retry-After` header, when the upstream sent one.
    public var retryAfterSeconds: Int?
    /// The path of the upstream request that failed (`/ws/search`), without its query
    /// (which may carry a key); nil when nothing was asked (`notConfigured`).
    public var upstreamPath: String?

    public init(
        service: UpstreamService, kind: Kind, status: Int? = nil, retryAfterSeconds: Int? = nil,
        upstreamPath: String? = nil
    ) {
        self.service = service
        self.kind = kind
        self.status = status
        self.retryAfterSeconds = retryAfterSeconds
        self.upstreamPath = upstreamPath
    }

    /// The GraphQL `extensions.code` of this error.
    public var code: String {
        switch kind {
        case .timeout: "UPSTREAM_TIMEOUT"
        case .httpStatus: "UPSTREAM_HTTP_ERROR"
        case .quotaExceeded: "UPSTREAM_QUOTA_EXCEEDED"
        case .authFailed: "UPSTREAM_AUTH_FAILED"
        case .badResponse: "UPSTREAM_BAD_RESPONSE"
        case .responseTooLarge: "UPSTREAM_RESPONSE_TOO_LARGE"
        case .notConfigured: "UPSTREAM_NOT_CONFIGURED"
        case .unreachable: "UPSTREAM_UNREACHABLE"
        case .notRecorded: "UPSTREAM_NOT_RECORDED"
        case .budgetExceeded: "QUERY_BUDGET_EXCEEDED"
        case .dailyQuotaSpent: "UPSTREAM_QUOTA_EXCEEDED"
        case .clientQuotaSpent: "CLIENT_QUOTA_EXCEEDED"
        case .notSent: "DRY_RUN"
        }
    }

    public var description: String {
        let statusText = status.map { " (HTTP \($0))" } ?? ""
        switch kind {
        case .timeout: return "\(service) timed out"
        case .httpStatus(_, let summary):
            return summary.isEmpty ? "\(service) failed\(statusText)" : "\(service) failed\(statusText): \(summary)"
        case .quotaExceeded: return "\(service) quota or rate limit exceeded\(statusText)"
        case .authFailed: return "\(service) rejected the configured credentials\(statusText)"
        case .badResponse(let reason): return "\(service) sent an unusable response\(statusText): \(reason)"
        case .responseTooLarge(let limit):
            return "\(service) sent a response larger than \(limit) bytes, the most read from one upstream answer"
        case .notConfigured: return "\(service) is not configured (no key or token)"
        case .unreachable(let reason): return "\(service) is unreachable: \(reason)"
        case .notRecorded(let request):
            return "\(service) has no recorded exchange for \(request) (replaying; record it with --record DIR)"
        case .budgetExceeded(let cost, let spent, let limit):
            return "\(service) call not sent: it costs \(cost) quota units and this query has spent \(spent) of its "
                + "\(limit) (the --max-query-cost budget)"
        case .dailyQuotaSpent(let used, let limit, let resetsAt):
            return "\(service) call not sent: its daily quota of \(limit) units is spent (\(used) used); it resets at "
                + resetsAt
        case .clientQuotaSpent(let owner, let used, let limit, let resetsAt):
            return "\(service) call not sent: \(owner) spent \(used) of the \(limit) units that are "
                + "\(owner == "anonymous clients" ? "their" : "its") share of the provider's day; it resets at \(resetsAt)"
        case .notSent: return "\(service) call not sent: this is a dry run"
        }
    }

    /// `extensions` of the GraphQL error: `code`, `service`, and `upstreamPath` / `status` /
    /// `retryAfter` (seconds) when known, in that order; a call not sent adds its figures (`cost`,
    /// `spent`, `maxQueryCost` for the budget; `dailyQuota`, `used`, `resetsAt` for the daily quota).
    public var extensions: JSONObject {
        var object = JSONObject([("code", .string(code)), ("service", .string(service.rawValue))])
        if let upstreamPath { object["upstreamPath"] = .string(upstreamPath) }
        if let status { object["status"] = .int(status) }
        if let retryAfterSeconds { object["retryAfter"] = .int(retryAfterSeconds) }
        switch kind {
        case .budgetExceeded(let cost, let spent, let limit):
            object["cost"] = .int(cost)
            object["spent"] = .int(spent)
            object["maxQueryCost"] = .int(limit)
        case .dailyQuotaSpent(let used, let limit, let resetsAt):
            object["dailyQuota"] = .int(limit)
            object["used"] = .int(used)
            object["resetsAt"] = .string(resetsAt)
        case .clientQuotaSpent(let owner, let used, let limit, let resetsAt):
            object["client"] = .string(owner)
            object["share"] = .int(limit)
            object["used"] = .int(used)
            object["resetsAt"] = .string(resetsAt)
        default: break
        }
        return object
    }

    /// The message clients see: `description`, except that a transport failure's detail
    /// (curl's text names the upstream's address and port, an internal fact) stays in logs.
    public var clientMessage: String {
        if case .unreachable = kind { return "\(service) is unreachable" }
        return description
    }

    /// This failure as a field error at `path` (spec §7.1.2 "Errors"), message = `clientMessage`.
    public func graphQLError(path: [PathComponent]? = nil) -> GraphQLError {
        GraphQLError(clientMessage, path: path, extensions: extensions)
    }
}
