import TestSupport
import Testing

@testable import HTTPClient

/// Secrets never leave the client: not in URLs it renders, not in errors, not in curl messages.
@Suite struct HTTPClientRedactionTests {
    let client = HTTPClient()

    @Test func secretQueryValuesAreMasked() {
        #expect(
            client.redactedURL("https://www.googleapis.com/youtube/v3/search?part=snippet&key=AIzaCANARY&q=queen")
                == "https://www.googleapis.com/youtube/v3/search?part=snippet&key=***&q=queen")
        #expect(
            client.redactedURL("https://app.rakuten.co.jp/x?applicationId=123&format=json&API_KEY=abc#top")
                == "https://app.rakuten.co.jp/x?applicationId=***&format=json&API_KEY=***#top")
        #expect(
            client.redactedURL("https://api.example/?api%5Fkey=zz&keyword=k")
                == "https://api.example/?api%5Fkey=***&keyword=k")
    }

    @Test func nonSecretURLsAreUnchanged() {
        for url in [
            "https://itunes.apple.com/search?term=AC%2FDC&entity=album", "http://127.0.0.1:8080/", "http://h/p?&&key",
            "http://h/p?monkey=1&keys=2",
        ] {
            #expect(client.redactedURL(url) == url)
        }
    }

    @Test func userinfoPasswordsAreMasked() {
        #expect(client.redactedURL("https://user:hunter2@example.org/a?b=c") == "https://user:***@example.org/a?b=c")
    }

    @Test func configuredNamesAreTheOnesMasked() {
        let custom = HTTPClient(
            configuration: HTTPClient.Configuration(secretQueryParameters: ["sig"], secretHeaders: []))
        #expect(custom.redactedURL("http://h/?sig=1&key=2") == "http://h/?sig=***&key=2")
    }

    @Test func aCanaryNeverAppearsInAnError() async throws {
        let port = try await closedPort()
        let canary = "CANARY-7f3a9c"
        let error = await failure { () async throws(HTTPClientError) in
            try await fastRetryClient(maxTries: 1).get(
                "http://127.0.0.1:\(port)/v3/videos?id=1&key=\(canary)", headers: ["Authorization": "Bearer \(canary)"])
        }
        let rendered = "\(String(describing: error)) \(error?.url ?? "") \(error.map { "\($0)" } ?? "")"
        #expect(error?.code == "CONNECT_FAILED")
        #expect(!rendered.contains(canary))
        #expect(error?.url == "http://127.0.0.1:\(port)/v3/videos?id=1&key=***")
    }

    @Test func curlMessagesAreScrubbed() {
        let redactor = SecretRedactor(secretQueryParameters: ["key"], secretHeaders: ["Authorization"])
        let request = HTTPClientRequest(
            url: "http://h/?key=s%20ecret&x=1", headers: ["Authorization": "Bearer tok", "Accept": "x"])
        #expect(redactor.secretValues(of: request) == ["Bearer tok", "s%20ecret", "s ecret"])
        #expect(
            redactor.scrub(
                "bad URL http://h/?key=s%20ecret, header Bearer tok", secrets: redactor.secretValues(of: request))
                == "bad URL http://h/?key=***, header ***")
    }
}
