import Foundation
import Testing

extension LoopbackTests {
    /// GraphiQL of `serve --demo` in headless Chromium (Tests/Clients/graphiql_url_browser.py):
    /// a first visit opens on the gateway's example and answers it with one click, and
    /// `?query=`, `?variables=`, `?operationName=` open in the editors, which write edits back.
    @Suite struct GraphiQLURL {
        typealias ClientProtocols = LoopbackTests.ClientProtocols

        @Test func theExampleAndLinkedQueriesOpenAndRun() throws {
            let gateway = try ClientProtocols.Gateway(["--demo"])
            let scratchBefore = ClientProtocols.chromiumScratchInTmp()
            let (status, figures, errors) = try ClientProtocols.run(
                ["/usr/bin/python3", ClientProtocols.clients + "/graphiql_url_browser.py", gateway.url])
            _ = gateway.stop()
            #expect(status == 0, "\(errors)")
            #expect(ClientProtocols.chromiumScratchInTmp().subtracting(scratchBefore).isEmpty)

            // Bare: the example, with its comment line, answered with data and no errors.
            let example = figures["bareQuery"] as? String ?? ""
            #expect(example.hasPrefix("# "))
            #expect(example.contains(#"artist(name: "Iron Maiden")"#))
            let bare = figures["bareResult"] as? [String: Any]
            let artist = (bare?["data"] as? [String: Any])?["artist"] as? [String: Any]
            #expect(artist?["name"] as? String == "Iron Maiden")
            let albums = artist?["albums"] as? [[String: Any]] ?? []
            #expect(albums.count == 2)
            #expect(albums.allSatisfy { !($0["tracks"] as? [Any] ?? []).isEmpty })
            #expect(bare?["errors"] == nil)

            // ?query=: that query in the editor, and its answer.
            #expect(figures["linkedQuery"] as? String == "{ __typename }")
            let linked = figures["linkedResult"] as? [String: Any]
            #expect((linked?["data"] as? [String: Any])?["__typename"] as? String == "Query")
            // With ?variables= and ?operationName=: the second operation, run with the variables.
            let named = figures["linkedNamedResult"] as? [String: Any]
            #expect((named?["artist"] as? [String: Any])?["name"] as? String == "AC/DC")

            // An edit is written to the address, which opens as it was typed.
            let edited = figures["editedAddress"] as? [String: Any]
            #expect(edited?["path"] as? String == "/graphql")
            #expect(
                edited?["parameters"] as? [String: String]
                    == ["query": "query Shared { __typename }", "operationName": "Shared"])
            #expect(
                (figures["reopened"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
                    == "query Shared { __typename }")
            #expect((figures["hostileQuery"] as? String)?.contains("</script><script>") == true)
        }

        /// The plain query box of a gateway without GraphiQL files does the same.
        @Test func thePlainBoxOpensOnTheExampleAndOnLinks() throws {
            let gateway = try ClientProtocols.Gateway(["--demo", "--graphiql-assets", "/nonexistent"])
            let (status, figures, errors) = try ClientProtocols.run(
                ["/usr/bin/python3", ClientProtocols.clients + "/graphiql_url_browser.py", gateway.url, "--fallback"])
            _ = gateway.stop()
            #expect(status == 0, "\(errors)")
            let bare = figures["fallbackBare"] as? [String: String]
            #expect(bare?["query"]?.contains(#"artist(name: "Iron Maiden")"#) == true)
            let answer = figures["fallbackBareResult"] as? [String: Any]
            #expect(
                ((answer?["data"] as? [String: Any])?["artist"] as? [String: Any])?["name"] as? String == "Iron Maiden")
            #expect(
                figures["fallbackLinked"] as? [String: String] == [
                    "query": "query Q($name: String!) { artist(name: $name) { name } }",
                    "variables": #"{"name": "AC/DC"}"#, "operation": "Q",
                ])
            let linked = figures["fallbackLinkedResult"] as? [String: Any]
            #expect((linked?["artist"] as? [String: Any])?["name"] as? String == "AC/DC")
            let edited = (figures["fallbackEditedAddress"] as? [String: Any])?["parameters"] as? [String: String]
            #expect(edited == ["query": "{ __typename }", "variables": #"{"name": "AC/DC"}"#, "operationName": "Q"])
        }
    }
}
