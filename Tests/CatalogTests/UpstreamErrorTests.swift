import GraphQL
import Testing
import UpstreamEconomy

@testable import Catalog

@Suite struct UpstreamErrorTests {
    @Test func everyKindHasItsCode() {
        let codes = [
            UpstreamError.Kind.timeout, .httpStatus(code: 500, bodySummary: ""), .quotaExceeded, .authFailed,
            .badResponse(reason: "x"), .notConfigured, .unreachable(reason: "refused"),
        ].map { UpstreamError(service: .youTube, kind: $0).code }
        #expect(
            codes == [
                "UPSTREAM_TIMEOUT", "UPSTREAM_HTTP_ERROR", "UPSTREAM_QUOTA_EXCEEDED", "UPSTREAM_AUTH_FAILED",
                "UPSTREAM_BAD_RESPONSE", "UPSTREAM_NOT_CONFIGURED", "UPSTREAM_UNREACHABLE",
            ])
    }

    @Test func extensionsCarryCodeServiceStatusAndRetryAfter() {
        let error = UpstreamError(service: .tmdb, kind: .quotaExceeded, status: 429, retryAfterSeconds: 3)
        #expect(
            error.extensions
                == JSONObject([
                    ("code", .string("UPSTREAM_QUOTA_EXCEEDED")), ("service", .string("tmdb")), ("status", .int(429)),
                    ("retryAfter", .int(3)),
                ]))
        let timeout = UpstreamError(service: .iTunes, kind: .timeout)
        #expect(
            timeout.extensions == JSONObject([("code", .string("UPSTREAM_TIMEOUT")), ("service", .string("itunes"))]))
    }

    @Test func aTransportFailureKeepsTheUpstreamsAddressOutOfTheClientMessage() {
        let error = UpstreamError(
            service: .iTunes, kind: .unreachable(reason: "Failed to connect to 10.1.2.3 port 8089: Connection refused"))
        #expect(error.graphQLError().message == "itunes is unreachable")
        #expect(
            error.description == "itunes is unreachable: Failed to connect to 10.1.2.3 port 8089: Connection refused")
    }

    @Test func graphQLErrorHasPathMessageAndExtensions() {
        let error = UpstreamError(service: .appleMusic, kind: .httpStatus(code: 503, bodySummary: "down"), status: 503)
        let gql = error.graphQLError(path: [.key("artist"), .key("albums"), .index(2)])
        #expect(gql.message == "applemusic failed (HTTP 503): down")
        #expect(gql.path == [.key("artist"), .key("albums"), .index(2)])
        #expect(gql.extensions["code"] == .string("UPSTREAM_HTTP_ERROR"))
        #expect(gql.extensions["service"] == .string("applemusic"))
        #expect(gql.extensions["status"] == .int(503))
    }

    @Test func descriptions() {
        #expect(
            UpstreamError(service: .youTube, kind: .quotaExceeded, status: 403).description
                == "youtube quota or rate limit exceeded (HTTP 403)")
        #expect(
            UpstreamError(service: .tmdb, kind: .authFailed, status: 401).description
                == "tmdb rejected the configured credentials (HTTP 401)")
        #expect(
            UpstreamError(service: .rakuten, kind: .notConfigured).description
                == "rakuten is not configured (no key or token)")
        #expect(UpstreamError(service: .iTunes, kind: .timeout).description == "itunes timed out")
    }

    @Test func redactionRemovesRawAndEncodedSecrets() {
        let secret = "k3y/with+chars"
        let text = "GET /x?key=k3y%2Fwith%2Bchars failed; raw k3y/with+chars"
        #expect(Redaction.redact(text, secrets: [secret, ""]) == "GET /x?key=*** failed; raw ***")
    }
}
