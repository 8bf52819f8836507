import Testing

@testable import GraphQL

@Suite struct JSONValueIdenticalTests {
  @Test func comparesStringsByBytesNotByCanonicalEquivalence() {
    let nfc = JSONValue.object(JSONObject([("n", .string("Vin\u{ED}cius"))]))
    let nfd = JSONValue.object(JSONObject([("n", .string("Vini\u{301}cius"))]))
    #expect(nfc == nfd)
    #expect(!nfc.isIdentical(to: nfd))
    #expect(nfc.isIdentical(to: nfc))
    #expect(JSONValue.array([.int(1), .double(0.5), .null, .bool(true)]).isIdentical(to: .array([.int(1), .double(0.5), .null, .bool(true)])))
    #expect(!JSONValue.double(0).isIdentical(to: .double(-0.0)))
    #expect(!JSONValue.int(1).isIdentical(to: .double(1)))
    #expect(ExactStringKey("Vin\u{ED}cius") != ExactStringKey("Vini\u{301}cius"))
  }
}
