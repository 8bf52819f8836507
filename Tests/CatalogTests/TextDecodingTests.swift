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

    /// Byte for byte what the reference decoder (walking `Character`s, as `decode` did) makes of
    /// random text: references whole and broken, repeated `&`, `;` near and far, numbers with
    /// signs and out of range, multi-byte characters and CR LF inside and around references.
    @Test func decodingMatchesTheCharacterByCharacterReference() {
        let pieces = [
            "&", ";", "#", "x", "X", "amp", "lt", "quot", "nbsp", "apos", "gt", "39", "x41", "+65", "-0", "1114112",
            "55296", "xD800", "é", "🎵", "\r\n", " ", "a", "0", "ZZ", "&amp;", "&#39;", "&#x1F3B5;", "00000",
        ]
        // A reference is looked for up to 12 characters after its `&`: an 11-character name is
        // one, a 12-character one is not.
        #expect(HTMLEntities.decode("&#0000000065;") == "A")
        #expect(HTMLEntities.decode("&#00000000065;") == "&#00000000065;")
        #expect(HTMLEntities.decode("&é#65;&#65;") == "&é#65;A")
        // A combining mark after a reference's `;` does not hide its end (it did, read as
        // Characters: `;` and the mark are one), and stays after the decoded character.
        #expect(HTMLEntities.decode("a&amp;\u{301}b c&#39;\u{301}") == "a&\u{301}b c'\u{301}")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            #expect(HTMLEntities.decode(text) == Self.referenceDecode(text), "\(text.debugDescription)")
        }
    }

    /// The decoder as it was written first: a `Character` at a time, a window of 12 characters.
    static func referenceDecode(_ text: String) -> String {
        let named: [Substring: Character] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
        ]
        func character(for name: Substring) -> Character? {
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map(Character.init)
            }
            if name.hasPrefix("#") {
                return UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init).map(Character.init)
            }
            return named[name]
        }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let afterAmp = rest.index(after: amp)
            guard let semi = rest[afterAmp...].prefix(12).firstIndex(of: ";"),
                let character = character(for: rest[afterAmp..<semi])
            else {
                out.append("&")
                rest = rest[afterAmp...]
                continue
            }
            out.append(character)
            rest = rest[rest.index(after: semi)...]
        }
        out += rest
        return out
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
