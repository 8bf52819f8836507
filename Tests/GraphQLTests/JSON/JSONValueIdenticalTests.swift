import Testing

@testable import GraphQL

@Suite struct JSONValueIdenticalTests {
    @Test func comparesStringsByBytesNotByCanonicalEquivalence() {
        let nfc = JSONValue.object(JSONObject([("n", .string("Vin\u{ED}cius"))]))
        let nfd = JSONValue.object(JSONObject([("n", .string("Vini\u{301}cius"))]))
        #expect(nfc == nfd)
        #expect(!nfc.isIdentical(to: nfd))
        #expect(nfc.isIdentical(to: nfc))
        #expect(
            JSONValue.array([.int(1), .double(0.5), .null, .bool(true)]).isIdentical(
                to: .array([.int(1), .double(0.5), .null, .bool(true)])))
        #expect(!JSONValue.double(0).isIdentical(to: .double(-0.0)))
        #expect(!JSONValue.int(1).isIdentical(to: .double(1)))
        #expect(ExactStringKey("Vin\u{ED}cius") != ExactStringKey("Vini\u{301}cius"))
    }

    @Test func exactKeysCompareLengthThenEveryByte() {
        #expect(ExactStringKey("") == ExactStringKey(""))
        #expect(ExactStringKey("") != ExactStringKey("a"))
        #expect(ExactStringKey("abc") == ExactStringKey(utf8: [0x61, 0x62, 0x63]))
        #expect(ExactStringKey("abc") != ExactStringKey("abd"))
        #expect(ExactStringKey("abc") != ExactStringKey("abcd"))
        let long = String(repeating: "x", count: 300)
        #expect(ExactStringKey(long + "y") != ExactStringKey(long + "z"))
        #expect(Set([ExactStringKey(long), ExactStringKey(long), ExactStringKey("x")]).count == 2)
    }
}

@Suite struct ExecutionResultSerializationTests {
    static let extensions = JSONObject([("cost", .object(JSONObject([("actual", .int(0))])))])

    @Test func extensionsComeLastAfterErrorsAndData() {
        let data = ExecutionResult(dataJSON: Array(#"{"a":1}"#.utf8))
        #expect(
            String(decoding: data.serialized(extensions: Self.extensions), as: UTF8.self)
                == #"{"data":{"a":1},"extensions":{"cost":{"actual":0}}}"#)
        let partial = ExecutionResult(dataJSON: Array("null".utf8), errors: [GraphQLError("boom")])
        #expect(
            String(decoding: partial.serialized(extensions: Self.extensions), as: UTF8.self)
                == #"{"errors":[{"message":"boom"}],"data":null,"extensions":{"cost":{"actual":0}}}"#)
        let refused = ExecutionResult(dataJSON: nil, errors: [GraphQLError("no")])
        #expect(
            String(decoding: refused.serialized(extensions: Self.extensions), as: UTF8.self)
                == #"{"errors":[{"message":"no"}],"extensions":{"cost":{"actual":0}}}"#)
    }

    @Test func noExtensionsWritesNoEntry() {
        let data = ExecutionResult(dataJSON: Array(#"{"a":"é"}"#.utf8))
        #expect(data.serialized(extensions: JSONObject()) == data.serialized())
        #expect(String(decoding: data.serialized(), as: UTF8.self) == #"{"data":{"a":"é"}}"#)
        #expect(String(decoding: ExecutionResult(dataJSON: nil).serialized(), as: UTF8.self) == "{}")
    }
}
