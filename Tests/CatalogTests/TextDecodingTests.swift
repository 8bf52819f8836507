import Testing

@testable import Catalog

@Suite struct TextDecodingTests {
    @Test func htmlEntitiesAreDecoded() {
        #expect(HTMLEntities.decode("World&#39;s best surfing 2017") == "World's best surfing 2017")
        #expect(HTMLEntities.decode("PIPE &amp; BACKDOOR") == "PIPE & BACKDOOR")
        #expect(HTMLEntities.decode("&quot;Pacific Dreams&quot;") == "\"Pacific Dreams\"")
        #expect(HTMLEntities.decode("&lt;b&gt; &#x41;&#66;") == "<b> AB")
    }

    @Test func unknownOrBrokenReferencesStay() {
        #expect(HTMLEntities.decode("Tom & Jerry") == "Tom & Jerry")
        #expect(HTMLEntities.decode("&bogus; &amp") == "&bogus; &amp")
        #expect(HTMLEntities.decode("&#xZZ; &&amp;") == "&#xZZ; &&")
    }

    @Test func isoDurationsBecomeMilliseconds() {
        #expect(ISO8601Duration.milliseconds("PT5M46S") == 346_000)
        #expect(ISO8601Duration.milliseconds("PT2M45S") == 165_000)
        #expect(ISO8601Duration.milliseconds("PT1H2M") == 3_720_000)
        #expect(ISO8601Duration.milliseconds("P1DT2H") == 93_600_000)
        #expect(ISO8601Duration.milliseconds("PT0S") == 0)
        #expect(ISO8601Duration.milliseconds("PT1.5S") == 1_500)
    }

    @Test func malformedDurationsAreNil() {
        #expect(ISO8601Duration.milliseconds("") == nil)
        #expect(ISO8601Duration.milliseconds("P") == nil)
        #expect(ISO8601Duration.milliseconds("5M") == nil)
        #expect(ISO8601Duration.milliseconds("P1M") == nil)  // months have no fixed length
        #expect(ISO8601Duration.milliseconds("PT5") == nil)
        #expect(ISO8601Duration.milliseconds("PTxS") == nil)
    }

    @Test func bodySummaryStripsHTMLAndCollapsesBlanks() {
        let html = Array("<html><body>Your request produced an error.  <BR>[newNullResponse]</body></html>".utf8)
        #expect(WireJSON.summary(html) == "Your request produced an error. [newNullResponse]")
        #expect(WireJSON.summary(Array(String(repeating: "x", count: 300).utf8), limit: 5) == "xxxxx…")
    }
}
