import Testing

@testable import GraphQL

/// Application values (`FieldValue.host`) read by the default property resolver.
@Suite struct HostValueTests {
    struct Track: PropertyReadable {
        let title: String
        func property(_ name: String) -> FieldValue {
            name == "title" ? .json(.string(title)) : .null
        }
    }

    /// A value known to be `PropertyReadable` where it is boxed keeps that conformance, so the
    /// executor reads its fields without a run-time conformance lookup; one boxed as
    /// `any Sendable` is still read, through the lookup.
    @Test func readableValuesAreBoxedWithTheirConformance() throws {
        guard case .hostBox(let known) = FieldValue.host(Track(title: "a")) else {
            Issue.record("not a host value")
            return
        }
        #expect(known.readable != nil)
        let erased: any Sendable = Track(title: "b")
        guard case .hostBox(let unknown) = FieldValue.host(erased) else {
            Issue.record("not a host value")
            return
        }
        #expect(unknown.readable == nil)
        guard case .json(.string(let title))? = unknown.propertyReadable?.property("title") else {
            Issue.record("the erased value was not read")
            return
        }
        #expect(title == "b")
        #expect(HostBox(1).propertyReadable == nil)
    }

    @Test func theDefaultResolverReadsBothKinds() async throws {
        let schema = try Harness.schema("type Query { known: Track unknown: Track } type Track { title: String }")
        let erased: any Sendable = Track(title: "b")
        let root = FieldValue.host(
            Root(fields: ["known": .host(Track(title: "a")), "unknown": .host(erased)]))
        let result = executeSynchronously(
            schema: schema, document: try parse("{ known { title } unknown { title } }"),
            source: Source("{ known { title } unknown { title } }"), rootValue: root)
        #expect(result.errors.isEmpty)
        #expect(
            String(decoding: result.dataJSON ?? [], as: UTF8.self)
                == #"{"known":{"title":"a"},"unknown":{"title":"b"}}"#)
    }

    struct Root: PropertyReadable {
        let fields: [String: FieldValue]
        func property(_ name: String) -> FieldValue { fields[name] ?? .null }
    }
}
