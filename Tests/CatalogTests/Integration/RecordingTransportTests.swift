import Foundation
import HTTPClient
import HTTPServer
import HTTPTypes
import Testing
import UpstreamEconomy

@testable import Catalog

/// `RecordingTransport` and `ReplayTransport` over real loopback HTTP: an upstream that
/// echoes the key it was sent (in its body, raw and JSON-escaped, and in a header) must
/// leave no trace of it in the recording, and the recording must replay the same response.
@Suite struct RecordingTransportTests {
    static let secret = #"canary"key/\+=%1"#

    @Test func echoedSecretsAreRemovedAndTheExchangeReplays() async throws {
        let server = try HTTPServer(configuration: HTTPServer.Configuration(port: 0, shutdownGraceMs: 50)) { request in
            let key = request.queryValue("key") ?? ""
            let escaped = String(
                decoding: try! JSONSerialization.data(withJSONObject: key, options: .fragmentsAllowed), as: UTF8.self)
            return HTTPResponse(
                status: .ok,
                headers: [
                    "Content-Type": "application/json", "Cache-Control": "max-age=60", "WWW-Authenticate": "Key \(key)",
                    "X-Request-Id": "dropped",
                ],
                body: Array(#"{"error": "bad key \#(key)", "echo": \#(escaped)}"#.utf8))
        }
        let base = "http://127.0.0.1:\(server.port)"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorder = try RecordingTransport(
            base: HTTPClientTransport(client: HTTPClient()), directory: directory, baseURLs: [base],
            secrets: [Self.secret])
        let url = base + "/youtube/v3/search?part=snippet&q=AC%2FDC&key=" + QueryEncoding.percentEncode(Self.secret)
        let live = try await recorder.get(url: url, headers: [("Authorization", "Bearer " + Self.secret)])
        await server.shutdown()
        #expect(String(decoding: live.body, as: UTF8.self).contains(Self.secret))

        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(files.count == 1)
        let text = try String(contentsOfFile: directory + "/" + files[0], encoding: .utf8)
        for form in [Self.secret, QueryEncoding.percentEncode(Self.secret), #"canary\"key\/\\+=%1"#, "canary"] {
            #expect(!text.contains(form), "the recording holds \(form): \(text)")
        }
        #expect(files[0].hasPrefix("youtube-v3-search-"))
        let exchange = try RecordedExchange.parse(Array(text.utf8), file: files[0])
        #expect(exchange.key == "/youtube/v3/search?part=snippet&q=AC%2FDC")
        #expect(exchange.url == base + "/youtube/v3/search?part=snippet&q=AC%2FDC")
        #expect(exchange.headers["x-request-id"] == nil)
        #expect(exchange.headers["cache-control"] == "max-age=60")
        #expect(exchange.headers["www-authenticate"] == "Key ***")

        // Replayed against another host and another key: the same response, from the file.
        let replay = try ReplayTransport(directory: directory, baseURLs: ["https://www.googleapis.com"])
        let answer = try await replay.get(
            url: "https://www.googleapis.com/youtube/v3/search?part=snippet&q=AC%2FDC&key=replay", headers: [])
        #expect(answer.status == 200)
        #expect(answer.body == exchange.body)
        #expect(answer.headers["content-type"] == "application/json")
        await #expect(throws: TransportFailure.notRecorded(request: "GET /youtube/v3/search?part=snippet&q=Queen")) {
            try await replay.get(
                url: "https://www.googleapis.com/youtube/v3/search?part=snippet&q=Queen&key=x", headers: [])
        }
    }

    @Test func fileTextRoundTripsBinaryBodiesAndKeysWithHeaders() throws {
        let exchange = RecordedExchange(
            key: "/v1/catalog/us/albums?ids=1\naccept:application/json", method: "GET",
            url: "https://api.music.apple.com/v1/catalog/us/albums?ids=1", status: 503,
            headers: ["retry-after": "2"], body: [0xFF, 0x00, 0x7B])
        let text = exchange.fileText()
        #expect(text.contains("\"bodyBase64\": \"/wB7\""))
        #expect(try RecordedExchange.parse(Array(text.utf8), file: "x.json") == exchange)
        #expect(RecordedExchange.fileName(for: exchange.key).hasPrefix("v1-catalog-us-albums-"))
        #expect(RecordedExchange.fileName(for: exchange.key) == RecordedExchange.fileName(for: exchange.key))
    }

    @Test func secretsAreFoundHoweverJSONEscapesThem() {
        let secret = "key/é😀\"x"
        for spelled in [
            #"key\/\u00e9\ud83d\ude00\"x"#, #"\u006bey/\u00E9😀\u0022x"#, "key/é😀\\\"x", secret,
            QueryEncoding.percentEncode(secret),
        ] {
            #expect(Redaction.redact("a \(spelled) b", secrets: [secret]) == "a *** b", "\(spelled)")
        }
        #expect(Redaction.redact(#"key\/\u00e9 almost"#, secrets: [secret]) == #"key\/\u00e9 almost"#)
    }
}
