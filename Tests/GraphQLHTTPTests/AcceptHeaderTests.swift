import Testing

@testable import GraphQLHTTP

@Suite struct AcceptHeaderTests {
    @Test(arguments: [
        ("application/graphql-response+json", GraphQLResponseMediaType?.some(.graphQLResponseJSON)),
        ("application/json", .json),
        ("*/*", .graphQLResponseJSON),
        ("application/*;q=0.5, application/json", .json),
        ("application/json;q=0.1, */*;q=0.2", .graphQLResponseJSON),
        ("application/json;q=0, */*", .graphQLResponseJSON),
        ("application/graphql-response+json;q=0, */*", .json),
        ("APPLICATION/JSON", .json),
        ("  application/json ; q=0.7 ,application/graphql-response+json;q=0.7", .json),
        ("application/json; charset=utf-16", nil),
        ("text/html", nil),
        ("garbage, /, application/", nil),
        ("*/*;q=0", nil),
    ])
    func responseMediaType(header: String, expected: GraphQLResponseMediaType?) {
        #expect(AcceptHeader(header).responseMediaType() == expected)
    }

    @Test(arguments: [
        ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true),
        ("text/html, application/json", true),
        ("application/json, text/html", false),
        ("text/html;q=0.5, application/json", false),
        ("*/*", false),
        ("text/*", false),
        ("text/html;q=0", false),
        ("text/html, application/json;q=0", true),
    ])
    func prefersHTML(header: String, expected: Bool) {
        #expect(AcceptHeader(header).prefersHTML() == expected)
    }

    @Test(arguments: [
        ("multipart/mixed; incrementalSpec=v0.2", IncrementalDeliveryFormat.incrementalSpecV02),
        ("multipart/mixed;incrementalSpec=\"v0.2\",application/json;q=0.9", .incrementalSpecV02),
        ("multipart/mixed", .incrementalSpecV02),
        ("multipart/mixed;deferSpec=20220824,application/json", .deferSpec20220824),
        ("multipart/mixed;deferSpec=20220824;q=0.5, multipart/mixed;incrementalSpec=v0.2", .incrementalSpecV02),
    ])
    func multipartRangesChooseTheIncrementalFormat(header: String, format: IncrementalDeliveryFormat) {
        #expect(AcceptHeader(header).incrementalFormat() == format)
    }

    @Test(arguments: [
        "*/*", "application/json", "multipart/*", "multipart/mixed;q=0", "multipart/mixed; incrementalSpec=v0.1",
        "multipart/mixed; deferSpec=20990101",
    ])
    func otherRangesReadNoIncrementalFormat(header: String) {
        #expect(AcceptHeader(header).incrementalFormat() == nil)
    }

    @Test func theMostSpecificRangeDecides() throws {
        let header = AcceptHeader("*/*;q=0.1, application/*;q=0.4, application/json;q=0.9")
        let json = try #require(header.preference(type: "application", subtype: "json"))
        #expect(json.quality == 0.9)
        #expect(json.position == 2)
        #expect(json.explicit)
        let other = try #require(header.preference(type: "application", subtype: "graphql-response+json"))
        #expect(other.quality == 0.4)
        #expect(!other.explicit)
        let image = try #require(header.preference(type: "image", subtype: "png"))
        #expect(image.quality == 0.1)
        #expect(header.preference(type: "text", subtype: "html")?.position == 0)
    }
}
