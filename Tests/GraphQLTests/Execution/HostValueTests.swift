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

    final class Artist: HostObject, TypeNameProviding {
        let name: String
        init(name: String) { self.name = name }
        var typeName: String { "Artist" }
        func property(_ name: String) -> FieldValue { name == "name" ? .json(.string(self.name)) : .null }
    }

    /// An object is held as it is, no box around it: the same instance comes back out.
    @Test func objectsAreHeldWithoutABox() {
        let artist = Artist(name: "a")
        guard case .object(let held) = FieldValue.host(artist) else {
            Issue.record("an object was boxed")
            return
        }
        #expect(held === artist)
        #expect((FieldValue.host(artist).hostValue as? Artist) === artist)
    }

    /// The default resolver reads an object's fields, and its type name picks its type
    /// where an abstract type is expected.
    @Test func theDefaultResolverReadsObjects() throws {
        let schema = try Harness.schema(
            "type Query { one: Artist any: Named list: [Artist] } interface Named { name: String } "
                + "type Artist implements Named { name: String } type Band implements Named { name: String }")
        let document = "{ one { name } any { __typename name } list { name } }"
        let root = FieldValue.host(
            Root(fields: [
                "one": .host(Artist(name: "a")), "any": .host(Artist(name: "b")),
                "list": .list([.host(Artist(name: "c")), .host(Artist(name: "d"))]),
            ]))
        let result = executeSynchronously(
            schema: schema, document: try parse(document), source: Source(document), rootValue: root)
        #expect(result.errors.isEmpty)
        #expect(
            String(decoding: result.dataJSON ?? [], as: UTF8.self)
                == #"{"one":{"name":"a"},"any":{"__typename":"Artist","name":"b"},"list":[{"name":"c"},{"name":"d"}]}"#)
    }

    struct Root: PropertyReadable {
        let fields: [String: FieldValue]
        func property(_ name: String) -> FieldValue { fields[name] ?? .null }
    }
}
