import Foundation
import GraphQL
import Testing

@testable import GraphQLHTTP

/// The GraphiQL page's default query: carried to the script as a string literal that nothing in
/// the query can end, and none at all when there is no default.
@Suite struct GraphiQLPageTests {
    static let hostile = "# </script><script>alert(1)</script> <!-- & \u{2028}\n{ hello }"

    /// The JavaScript string literal after `var defaultQuery = ` in `page`.
    static func defaultQueryLiteral(_ page: String) -> Substring? {
        guard let start = page.range(of: "var defaultQuery = ")?.upperBound,
            let end = page[start...].firstIndex(of: "\n")
        else { return nil }
        return page[start..<end].dropLast()  // the ";"
    }

    @Test func theDefaultQueryIsAStringLiteralThatCannotEndTheScript() async throws {
        let test = try TestServer(configure: { $0.graphiQLDefaultQuery = Self.hostile })
        let page = try await test.get("/graphql", accept: OperationsTests.browserAccept).text
        await test.server.shutdown()
        #expect(!page.contains("</script><script>alert"))
        #expect(!page.contains("<!--"))
        // Without GraphiQL files the page has one script, its own, closed once.
        #expect(page.components(separatedBy: "</script>").count - 1 == 1)
        let literal = try #require(Self.defaultQueryLiteral(page))
        #expect(!literal.contains("<") && !literal.contains(">") && !literal.contains("&"))
        #expect(!literal.unicodeScalars.contains("\u{2028}"))
        // JSON is a subset of JavaScript string literals here: decoding gives the query back.
        let decoded = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed)
        #expect(decoded as? String == Self.hostile)
    }

    @Test func withoutADefaultGraphiQLKeepsItsWelcomeText() {
        let page = GraphiQLPage.html(endpointPath: "/graphql", assetsPath: "graphiql/")
        #expect(page.contains("var defaultQuery = null;\n"))
        #expect(page.contains("if (defaultQuery !== null) props.defaultQuery = defaultQuery;"))
    }

    @Test func theURLIsReadByTheScriptAndEditsWriteItBack() {
        let page = GraphiQLPage.html(endpointPath: "/graphql", assetsPath: "graphiql/", defaultQuery: "{ hello }")
        #expect(page.contains(#"var defaultQuery = "{ hello }";"#))
        #expect(page.contains("new URLSearchParams(window.location.search)"))
        for callback in ["onEditQuery", "onEditVariables", "onEditOperationName"] {
            #expect(page.contains("\(callback): function (value)"))
        }
        #expect(page.contains("window.history.replaceState("))
    }

    @Test func theEndpointPathIsEscapedTheSameWay() {
        let page = GraphiQLPage.html(endpointPath: "/a</script>b", assetsPath: nil)
        #expect(page.contains(#"var endpoint = "/a\u003c/script\u003eb";"#))
    }
}
