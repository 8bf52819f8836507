import Testing

@testable import HTTPTypes

/// Methods compare case-sensitively and know their idempotency; statuses know their class and phrase.
@Suite struct HTTPMethodAndStatusTests {
    @Test func methodsAreCaseSensitiveTokens() {
        let lower = HTTPMethod(rawValue: "get")
        #expect(HTTPMethod.get == "GET")
        #expect(lower != .get)
        #expect(HTTPMethod(rawValue: "PROPFIND").rawValue == "PROPFIND")
        #expect("\(HTTPMethod.post)" == "POST")
    }

    @Test func idempotencyFollowsRFC9110() {
        let idempotent = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]
        for method in idempotent { #expect(HTTPMethod(rawValue: method).isIdempotent, "\(method)") }
        for method in ["POST", "PATCH", "CONNECT", "get"] {
            #expect(!HTTPMethod(rawValue: method).isIdempotent, "\(method)")
        }
    }

    @Test func statusClassesAndPhrases() {
        #expect(HTTPStatus.ok.isSuccess)
        #expect(HTTPStatus(code: 299).isSuccess)
        #expect(!HTTPStatus(code: 304).isSuccess)
        #expect(HTTPStatus.serviceUnavailable.codeClass == 5)
        #expect(HTTPStatus.contentTooLarge.reasonPhrase == "Content Too Large")
        #expect(HTTPStatus(code: 599).reasonPhrase == "")
        #expect(HTTPStatus.badRequest < HTTPStatus.internalServerError)
        #expect(HTTPStatus.gatewayTimeout == 504)
        #expect("\(HTTPStatus.notFound)" == "404")
    }
}
