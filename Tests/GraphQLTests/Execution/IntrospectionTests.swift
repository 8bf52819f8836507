import Testing

@testable import GraphQL

@Suite struct IntrospectionTests {
    let schema: Schema
    init() throws {
        schema = try Harness.schema(
            """
            "The root"
            type Query {
              "Old one" old(limit: Int = 10 @deprecated(reason: "gone"), by: Pick = { id: "1" }): String @deprecated
              now: [Kind!]!
            }
            enum Kind { A B @deprecated(reason: "use A") }
            input Pick @oneOf { id: ID name: String }
            scalar Url @specifiedBy(url: "https://example.com/url")
            directive @tag(name: String!) repeatable on FIELD_DEFINITION
            """)
    }

    @Test func typeMetaFieldWithDeprecationsDefaultsAndWrappers() throws {
        let out = try Harness.run(
            schema,
            """
            { __type(name: "Query") { kind name description
                fields(includeDeprecated: true) { name description isDeprecated deprecationReason
                  args(includeDeprecated: true) { name defaultValue isDeprecated deprecationReason }
                  type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }
                visible: fields { name } } }
            """)
        #expect(
            out
                == #"{"data":{"__type":{"kind":"OBJECT","name":"Query","description":"The root","fields":[{"name":"old","description":"Old one","isDeprecated":true,"deprecationReason":"No longer supported","args":[{"name":"limit","defaultValue":"10","isDeprecated":true,"deprecationReason":"gone"},{"name":"by","defaultValue":"{id: 1}","isDeprecated":false,"deprecationReason":null}],"type":{"kind":"SCALAR","name":"String","ofType":null}},{"name":"now","description":null,"isDeprecated":false,"deprecationReason":null,"args":[],"type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"LIST","name":null,"ofType":{"kind":"NON_NULL","name":null,"ofType":{"kind":"ENUM","name":"Kind"}}}}}],"visible":[{"name":"now"}]}}}"#
        )
    }

    @Test func schemaLevelFields() throws {
        let out = try Harness.run(
            schema,
            """
            { __schema { description queryType { name } mutationType { name }
                directives { name isRepeatable locations args { name type { kind ofType { name } } } } }
              kind: __type(name: "Kind") { enumValues { name } all: enumValues(includeDeprecated: true) { name } }
              pick: __type(name: "Pick") { isOneOf inputFields { name } }
              url: __type(name: "Url") { specifiedByURL isOneOf }
              missing: __type(name: "Nope") { name } }
            """)
        #expect(
            out.hasPrefix(
                #"{"data":{"__schema":{"description":null,"queryType":{"name":"Query"},"mutationType":null,"directives":["#
            ))
        #expect(
            out.contains(
                #"{"name":"tag","isRepeatable":true,"locations":["FIELD_DEFINITION"],"args":[{"name":"name","type":{"kind":"NON_NULL","ofType":{"name":"String"}}}]}"#
            ))
        #expect(
            out.hasSuffix(
                #""kind":{"enumValues":[{"name":"A"}],"all":[{"name":"A"},{"name":"B"}]},"pick":{"isOneOf":true,"inputFields":[{"name":"id"},{"name":"name"}]},"url":{"specifiedByURL":"https://example.com/url","isOneOf":null},"missing":null}}"#
            ))
    }

    @Test func introspectionFromSchemaAnswersTheFullQuery() throws {
        let result = introspectionFromSchema(schema)
        #expect(result.errors.isEmpty)
        guard case .object(let data)? = result.data, case .object(let schemaObject)? = data["__schema"],
            case .array(let types)? = schemaObject["types"]
        else {
            Issue.record("no __schema.types")
            return
        }
        let names = types.compactMap { type -> String? in
            guard case .object(let o) = type, case .string(let name)? = o["name"] else { return nil }
            return name
        }
        #expect(names.contains("Query") && names.contains("__Schema") && names.contains("Url"))
    }
}
