import Foundation
import GraphQL
import HTTPClient
import HTTPServer
import HTTPTypes
import Testing

@testable import GraphQLHTTP

/// What browsers and caches read from the headers: `Cache-Control`, CORS for custom headers,
/// and the GraphiQL files served from the gateway's own origin.
@Suite struct ClientHeadersTests {
    /// The test gateway with every executed operation fresh for `maxAge` seconds.
    static func server(maxAge: Int, configure: (inout GraphQLHTTPHandler.Configuration) -> Void = { _ in }) throws
        -> TestServer
    {
        try TestServer(
            configure: configure,
            execute: { document, operationName, variables in
                var outcome = await TestGateway.execute(document, operationName, variables)
                outcome.maxAgeSeconds = maxAge
                return outcome
            })
    }

    // MARK: - Cache-Control

    @Test func anErrorFreeQueryIsCacheableForItsFreshnessPrivatelyByDefault() async throws {
        let test = try Self.server(maxAge: 42)
        for response in [
            try await test.get("/graphql?query=%7Bhello%7D"),
            try await test.post(#"{"query":"{ hello }"}"#, accept: "application/json"),
        ] {
            #expect(response.status == 200)
            #expect(response.headers["Cache-Control"] == "max-age=42, private")
            #expect(response.headers["Vary"] == "Accept")
        }
        await test.server.shutdown()
    }

    @Test func sharedCachesMayKeepItWhenPublic() async throws {
        let test = try Self.server(maxAge: 42, configure: { $0.cacheScope = .public })
        #expect(try await test.get("/graphql?query=%7Bhello%7D").headers["Cache-Control"] == "max-age=42, public")
        await test.server.shutdown()
    }

    @Test(arguments: [
        #"{"query":"{ hello broken }"}"#,  // a field error
        #"{"query":"{ mandatory }"}"#,  // data: null
        #"{"query":"mutation { rename(to: \"x\") }"}"#,  // not a query
        #"{"query":"{ nope }"}"#,  // a request error
        #"{"query":"query A { hello }","operationName":"B"}"#,
    ])
    func anythingElseIsNoStore(body: String) async throws {
        let test = try Self.server(maxAge: 42)
        let response = try await test.post(body)
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["Vary"] == nil)
        await test.server.shutdown()
    }

    @Test func nothingFreshMeansNoStore() async throws {
        let test = try Self.server(maxAge: 0)
        #expect(try await test.get("/graphql?query=%7Bhello%7D").headers["Cache-Control"] == "no-store")
        let refused = try await test.request("PUT", "/graphql")
        #expect(refused.headers["Cache-Control"] == "no-store")
        await test.server.shutdown()
    }

    // MARK: - CORS

    static let origin = "https://app.example"

    @Test func aPreflightAllowsTheHeadersItAsksForAndIsCached() async throws {
        let test = try TestServer(configure: { $0.cors = CORSPolicy(allowedOrigins: .list([Self.origin])) })
        let preflight = try await test.request(
            "OPTIONS", "/graphql",
            headers: [
                "Origin": Self.origin, "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type,x-api-key, x-request-id",
            ])
        #expect(preflight.status == 204)
        #expect(preflight.headers["Access-Control-Allow-Headers"] == "content-type, x-api-key, x-request-id")
        #expect(preflight.headers["Access-Control-Max-Age"] == "600")
        #expect(preflight.headers["Vary"] == "Origin, Access-Control-Request-Headers")
        // A name that is not a header token is left out (the browser then refuses the request).
        let odd = try await test.request(
            "OPTIONS", "/graphql",
            headers: [
                "Origin": Self.origin, "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "x-ok, bad name, x(y)",
            ])
        #expect(odd.headers["Access-Control-Allow-Headers"] == "x-ok")
        await test.server.shutdown()
    }

    @Test func aConfiguredHeaderListIsAllowedWhateverIsAsked() async throws {
        let test = try TestServer(configure: {
            $0.cors = CORSPolicy(
                allowedOrigins: .any, allowedHeaders: ["Content-Type", "X-Api-Key"], maxAgeSeconds: 7200)
        })
        let preflight = try await test.request(
            "OPTIONS", "/graphql",
            headers: [
                "Origin": Self.origin, "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "x-other",
            ])
        #expect(preflight.headers["Access-Control-Allow-Headers"] == "Content-Type, X-Api-Key")
        #expect(preflight.headers["Access-Control-Max-Age"] == "7200")
        #expect(preflight.headers["Vary"] == nil)
        await test.server.shutdown()
    }

    @Test func responsesExposeTheRequestIdToAllowedOrigins() async throws {
        let test = try Self.server(
            maxAge: 42, configure: { $0.cors = CORSPolicy(allowedOrigins: .list([Self.origin])) })
        let allowed = try await test.get(
            "/graphql?query=%7Bhello%7D", headers: [("Origin", Self.origin), ("X-Request-Id", "from-the-app")])
        #expect(allowed.headers["Access-Control-Allow-Origin"] == Self.origin)
        #expect(allowed.headers["Access-Control-Expose-Headers"] == "X-Request-Id")
        #expect(allowed.headers["X-Request-Id"] == "from-the-app")
        #expect(allowed.headers.values(for: "Vary") == ["Accept, Origin"])
        let other = try await test.get("/graphql?query=%7Bhello%7D", headers: [("Origin", "https://evil.example")])
        #expect(other.headers["Access-Control-Expose-Headers"] == nil)
        await test.server.shutdown()
    }

    // MARK: - GraphiQL from this origin

    /// A directory holding stand-ins for the four files (the real ones are tested with Chromium).
    static func assetsDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("graphiql-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in GraphiQLAssets.fileNames {
            try Data("/* \(name) */".utf8).write(to: directory.appendingPathComponent(name))
        }
        return directory.path
    }

    @Test func thePageLoadsGraphiQLFromThisServer() async throws {
        let directory = try Self.assetsDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let assets = try GraphiQLAssets(directory: directory)
        let test = try TestServer(configure: { $0.graphiQLAssets = assets })
        let page = try await test.get("/graphql", accept: OperationsTests.browserAccept)
        #expect(page.status == 200)
        #expect(page.headers["Cache-Control"] == "no-cache")
        #expect(page.text.contains(#"<link rel="stylesheet" href="graphiql/graphiql.min.css">"#))
        #expect(page.text.contains(#"<script src="graphiql/react.production.min.js"></script>"#))
        #expect(page.text.contains(#"<script src="graphiql/react-dom.production.min.js"></script>"#))
        #expect(page.text.contains(#"<script src="graphiql/graphiql.min.js"></script>"#))
        #expect(page.text.contains("headerEditorEnabled: true"))
        #expect(!page.text.contains("https://"))

        let script = try await test.get("/graphiql/graphiql.min.js")
        #expect(script.status == 200)
        #expect(script.text == "/* graphiql.min.js */")
        #expect(script.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(script.headers["Cache-Control"] == "public, max-age=86400")
        let etag = try #require(script.headers["ETag"])
        let revalidated = try await test.get("/graphiql/graphiql.min.js", headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304)
        #expect(revalidated.body.isEmpty)
        #expect(try await test.get("/graphiql/graphiql.min.css").headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(try await test.get("/graphiql/../etc/passwd").status == 404)
        #expect(try await test.get("/graphiql/other.js").status == 404)
        #expect(try await test.request("POST", "/graphiql/graphiql.min.js").status == 405)
        let metrics = try await test.get("/metrics")
        #expect(metrics.text.contains(#"musicgraph_http_requests_total{path="graphiql",status="200"} 2"#))
        await test.server.shutdown()
    }

    @Test func aMissingFileIsNamed() throws {
        let directory = try Self.assetsDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.removeItem(atPath: directory + "/graphiql.min.css")
        #expect {
            try GraphiQLAssets(directory: directory)
        } throws: { error in
            (error as? GraphiQLAssetsError)?.message == "\(directory)/graphiql.min.css is missing or empty"
        }
    }
}
