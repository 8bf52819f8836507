import Testing

@testable import HTTPTypes

/// Query-string decoding (application/x-www-form-urlencoded rules).
@Suite struct HTTPQueryItemTests {
    @Test func pairsInOrderWithRepeats() {
        #expect(
            HTTPQueryItem.parse(rawQuery: "term=queen&limit=5&term=abba")
                == [
                    HTTPQueryItem(name: "term", value: "queen"), HTTPQueryItem(name: "limit", value: "5"),
                    HTTPQueryItem(name: "term", value: "abba"),
                ])
    }

    @Test func plusAndPercentEscapesDecode() {
        #expect(
            HTTPQueryItem.parse(rawQuery: "q=AC%2FDC+live&n%61me=%E2%9C%93")
                == [HTTPQueryItem(name: "q", value: "AC/DC live"), HTTPQueryItem(name: "name", value: "✓")])
    }

    @Test func emptyAndValuelessPairs() {
        #expect(
            HTTPQueryItem.parse(rawQuery: "&flag&=v&k=&a=b=c&")
                == [
                    HTTPQueryItem(name: "flag", value: ""), HTTPQueryItem(name: "", value: "v"),
                    HTTPQueryItem(name: "k", value: ""), HTTPQueryItem(name: "a", value: "b=c"),
                ])
        #expect(HTTPQueryItem.parse(rawQuery: "") == [])
    }

    @Test func malformedEscapesStayLiteral() {
        #expect(HTTPQueryItem.formDecode("100%") == "100%")
        #expect(HTTPQueryItem.formDecode("%zz%4") == "%zz%4")
        #expect(HTTPQueryItem.formDecode("%41%42") == "AB")
        #expect(HTTPQueryItem.formDecode("%FF") == "\u{FFFD}")
    }

    @Test func separatorsAreBytesEvenBeforeACombiningMark() {
        // Unencoded U+0301 after "&" or "=": a Character search saw "&\u{301}" as one character.
        #expect(
            HTTPQueryItem.parse(rawQuery: "a=1&\u{301}b=2=\u{301}x")
                == [HTTPQueryItem(name: "a", value: "1"), HTTPQueryItem(name: "\u{301}b", value: "2=\u{301}x")])
        #expect(
            HTTPQueryItem.parse(rawQuery: "k=\u{301}v&e\u{301}")
                == [HTTPQueryItem(name: "k", value: "\u{301}v"), HTTPQueryItem(name: "e\u{301}", value: "")])
        #expect(HTTPQueryItem.formDecode("caf\u{E9}+au+lait") == "caf\u{E9} au lait")
    }
}
