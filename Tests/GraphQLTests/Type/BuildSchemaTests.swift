import Testing

@testable import GraphQL

// Expected values were checked against graphql-core 3.2.14 `build_schema` (the conformance
// oracle) on the same SDL: type-map order, root types, directives, deprecation reasons.

/// Builds `sdl`, failing the test with the errors when it does not build.
private func build(_ sdl: String) throws -> Schema {
    do {
        return try buildSchema(sdl: sdl)
    } catch {
        Issue.record("schema did not build:\n\(error.description)")
        throw error
    }
}

private let introspectionNames = [
    "__Schema", "__Type", "__TypeKind", "__Field", "__InputValue", "__EnumValue", "__Directive", "__DirectiveLocation",
]

@Suite struct BuildSchemaTests {
    @Test func minimalSchemaHasStringBooleanAndIntrospectionTypes() throws {
        let schema = try build("type Query { ping: String }")
        #expect(schema.typeNames == ["Query", "String", "Boolean"] + introspectionNames)
        #expect(schema.queryType == "Query")
        #expect(schema.mutationType == nil)
        #expect(schema.subscriptionType == nil)
        #expect(schema.description == nil)
        #expect(schema.directives.map(\.name) == ["include", "skip", "deprecated", "specifiedBy", "oneOf"])
    }

    @Test func builtInScalarsFollowTheTypeThatFirstReferencesThem() throws {
        let schema = try build(
            """
            type Query { track(id: ID!): Track, count: Int }
            type Track { title: String, rating: Float, length: Int }
            """)
        #expect(schema.typeNames == ["Query", "ID", "Int", "Track", "String", "Float", "Boolean"] + introspectionNames)
        guard case .scalar(let id) = schema["ID"] else {
            Issue.record("ID is not a scalar")
            return
        }
        #expect(id.description?.hasPrefix("The `ID` scalar type represents a unique identifier") == true)
    }

    @Test func typesKeepDefinitionOrderAndDefaultRootNames() throws {
        let schema = try build(
            """
            type Subscription { s: Int }
            type Mutation { m: Int }
            enum Genre { ROCK JAZZ }
            type Query { g: Genre }
            """)
        #expect(schema.typeNames.prefix(5) == ["Subscription", "Int", "Mutation", "Genre", "Query"])
        #expect(schema.queryType == "Query")
        #expect(schema.mutationType == "Mutation")
        #expect(schema.subscriptionType == "Subscription")
    }

    @Test func schemaDefinitionNamesRootsAndDescription() throws {
        let schema = try build(
            """
            "The catalog"
            schema @onSchema { query: Root mutation: Change }
            directive @onSchema on SCHEMA
            type Root { a: Int }
            type Change { b: Int }
            type Mutation { ignored: Int }
            extend schema { subscription: Feed }
            type Feed { c: Int }
            """)
        #expect(schema.description == "The catalog")
        #expect(schema.queryType == "Root")
        #expect(schema.mutationType == "Change")
        #expect(schema.subscriptionType == "Feed")
        #expect(schema.schemaDirectives.map(\.name.value) == ["onSchema"])
        #expect(schema.directives.map(\.name) == ["onSchema", "include", "skip", "deprecated", "specifiedBy", "oneOf"])
    }

    @Test func fieldsArgumentsAndDescriptions() throws {
        let schema = try build(
            """
            type Query {
              "Tracks by artist"
              tracks("Artist name" artist: String!, first: Int = 10): [Track!]!
            }
            type Track { title: String }
            """)
        let field = try #require(schema.fieldDefinition("tracks", on: "Query"))
        #expect(field.description == "Tracks by artist")
        #expect(field.type == .nonNull(.list(.nonNull(.named("Track")))))
        #expect(field.arguments.map(\.name) == ["artist", "first"])
        #expect(field.arguments[0].description == "Artist name")
        #expect(field.arguments[0].type == .nonNull(.named("String")))
        #expect(field.arguments[0].defaultValue == nil)
        guard case .int(let first) = field.arguments[1].defaultValue else {
            Issue.record("default of first is not an IntValue")
            return
        }
        #expect(first.value == "10")
    }

    @Test func deprecationReasons() throws {
        let schema = try build(
            """
            type Query {
              a: Int @deprecated
              b(x: Int @deprecated(reason: "use y"), y: Int): Int @deprecated(reason: "gone")
              c: Int @deprecated(reason: null)
              d: Int
            }
            enum Format { CD VINYL @deprecated(reason: "rare") TAPE @deprecated }
            input Filter { old: Int @deprecated, new: Int }
            """)
        #expect(schema.fieldDefinition("a", on: "Query")?.deprecationReason == "No longer supported")
        #expect(schema.fieldDefinition("b", on: "Query")?.deprecationReason == "gone")
        #expect(schema.fieldDefinition("b", on: "Query")?.argument("x")?.deprecationReason == "use y")
        #expect(schema.fieldDefinition("c", on: "Query")?.deprecationReason == nil)
        #expect(schema.fieldDefinition("d", on: "Query")?.deprecationReason == nil)
        guard case .enumType(let format) = schema["Format"], case .inputObject(let filter) = schema["Filter"] else {
            Issue.record("Format or Filter has the wrong kind")
            return
        }
        #expect(format.values.map(\.deprecationReason) == [nil, "rare", "No longer supported"])
        #expect(filter.fields.map(\.deprecationReason) == ["No longer supported", nil])
    }

    @Test func specifiedByAndOneOf() throws {
        let schema = try build(
            """
            type Query { at(when: DateTime, key: Key): Int }
            scalar DateTime @specifiedBy(url: "https://tools.ietf.org/html/rfc3339")
            input Key @oneOf { id: ID, isrc: String }
            """)
        guard case .scalar(let dateTime) = schema["DateTime"], case .inputObject(let key) = schema["Key"] else {
            Issue.record("DateTime or Key has the wrong kind")
            return
        }
        #expect(dateTime.specifiedByURL == "https://tools.ietf.org/html/rfc3339")
        #expect(dateTime.isSpecified == false)
        #expect(key.isOneOf)
        #expect(key.fields.map(\.name) == ["id", "isrc"])
    }

    @Test func everyExtensionIsApplied() throws {
        let schema = try build(
            """
            type Query { a: Int }
            extend type Query implements Node { id: ID! }
            interface Node { id: ID! }
            interface Named { name: String }
            extend interface Named implements Node { id: ID! }
            type Artist implements Named & Node { name: String id: ID! }
            union Result = Artist
            extend union Result = Query
            enum Kind { A }
            extend enum Kind { B }
            input Filter { x: Int }
            extend input Filter { y: Int }
            scalar Url
            extend scalar Url @specifiedBy(url: "https://url.spec.whatwg.org")
            """)
        #expect(schema["Query"]?.fields.map(\.name) == ["a", "id"])
        guard case .object(let query) = schema["Query"], case .interface(let named) = schema["Named"],
            case .union(let result) = schema["Result"], case .enumType(let kind) = schema["Kind"],
            case .inputObject(let filter) = schema["Filter"], case .scalar(let url) = schema["Url"]
        else {
            Issue.record("a type has the wrong kind")
            return
        }
        #expect(query.interfaces == ["Node"])
        #expect(named.interfaces == ["Node"])
        #expect(named.fields.map(\.name) == ["name", "id"])
        #expect(result.types == ["Artist", "Query"])
        #expect(kind.values.map(\.name) == ["A", "B"])
        #expect(filter.fields.map(\.name) == ["x", "y"])
        // Like graphql-js, @specifiedBy counts only on the scalar's definition.
        #expect(url.specifiedByURL == nil)
        #expect(url.directives.map(\.name.value) == ["specifiedBy"])
        #expect(schema.implementations["Node"] == ["Query", "Artist"])
        #expect(schema.interfaceImplementations["Node"] == ["Named"])
        #expect(schema.possibleTypes(of: "Named") == ["Artist"])
        #expect(schema.possibleTypes(of: "Result") == ["Artist", "Query"])
    }

    @Test func customDirectives() throws {
        let schema = try build(
            """
            "Cache hint"
            directive @cache("seconds" maxAge: Int = 60) repeatable on FIELD_DEFINITION | OBJECT
            directive @skip(if: Boolean!, reason: String) on FIELD
            type Query { a: Int @cache @cache(maxAge: 5) }
            """)
        #expect(schema.directives.map(\.name) == ["cache", "skip", "include", "deprecated", "specifiedBy", "oneOf"])
        let cache = try #require(schema.directive("cache"))
        #expect(cache.description == "Cache hint")
        #expect(cache.isRepeatable)
        #expect(cache.locations == [.fieldDefinition, .object])
        #expect(cache.arguments.map(\.name) == ["maxAge"])
        #expect(cache.arguments[0].description == "seconds")
        #expect(schema.directive("skip")?.arguments.map(\.name) == ["if", "reason"])
        #expect(schema.fieldDefinition("a", on: "Query")?.directives.count == 2)
    }

    @Test func definitionsOfStandardNamesKeepTheStandardTypes() throws {
        let schema = try build(
            """
            "mine"
            scalar String
            type Query { a: String }
            """)
        #expect(schema.typeNames.prefix(3) == ["String", "Query", "Boolean"])
        guard case .scalar(let string) = schema["String"] else {
            Issue.record("String is not a scalar")
            return
        }
        #expect(string.description == ScalarType.string.description)
    }

    @Test func executableDefinitionsAreIgnored() throws {
        let schema = try build("type Query { a: Int } query Q { a }")
        #expect(schema.typeNames.prefix(2) == ["Query", "Int"])
    }

    @Test func syntaxErrorIsReportedWithItsLocation() {
        #expect(throws: SchemaBuildError.self) { try buildSchema(sdl: "type Query {") }
        do {
            _ = try buildSchema(source: Source("type Query {\n  a: \n}", name: "s.graphql"))
        } catch {
            #expect(error.errors.count == 1)
            #expect(error.errors.first?.message.hasPrefix("Syntax Error:") == true)
            #expect(error.errors.first?.locations == [SourceLocation(line: 3, column: 1)])
            #expect(error.description.hasPrefix("s.graphql:3:1: Syntax Error:"))
        }
    }

    @Test func buildErrorDescriptionListsEveryLocation() {
        let error = SchemaBuildError(
            errors: [
                GraphQLError(
                    "Two.", locations: [SourceLocation(line: 1, column: 2), SourceLocation(line: 3, column: 4)]),
                GraphQLError("Nowhere."),
            ], sourceName: "x.graphql")
        #expect(error.description == "x.graphql:1:2: Two. (also 3:4)\nx.graphql: Nowhere.")
    }

    @Test func schemaBuiltInCodeCollectsStandardTypes() {
        let schema = Schema(
            queryType: "Query",
            types: [
                .object(
                    ObjectType(
                        name: "Query",
                        fields: [
                            FieldDefinitionModel(name: "n", type: .named("Float")),
                            FieldDefinitionModel(name: "t", type: .named("Thing")),
                        ])),
                .object(ObjectType(name: "Thing", fields: [FieldDefinitionModel(name: "id", type: .named("ID"))])),
            ], directives: DirectiveModel.specifiedDirectives)
        #expect(schema.typeNames == ["Query", "Float", "Thing", "ID", "Boolean", "String"] + introspectionNames)
        #expect(schema.types["__Type"]?.fields.count == 11)
    }

    @Test func introspectionTypesMatchGraphQLJS() {
        #expect(
            IntrospectionTypes.__Schema.fields.map(\.name) == [
                "description", "types", "queryType", "mutationType", "subscriptionType", "directives",
            ])
        #expect(
            IntrospectionTypes.__Type.fields.map(\.name) == [
                "kind", "name", "description", "specifiedByURL", "fields", "interfaces", "possibleTypes", "enumValues",
                "inputFields", "ofType", "isOneOf",
            ])
        #expect(
            IntrospectionTypes.__Directive.fields.map(\.name) == [
                "name", "description", "isRepeatable", "locations", "args", "isDeprecated", "deprecationReason",
            ])
        let directives = IntrospectionTypes.__Schema.field("directives")
        #expect(directives?.arguments.first?.type == .nonNull(.named("Boolean")))
        let fields = IntrospectionTypes.__Type.field("fields")
        #expect(fields?.arguments.first?.type == .named("Boolean"))
        guard case .boolean(let includeDeprecated) = fields?.arguments.first?.defaultValue else {
            Issue.record("includeDeprecated has no Boolean default")
            return
        }
        #expect(includeDeprecated.value == false)
        guard case .enumType(let locations) = IntrospectionTypes.__DirectiveLocation else {
            Issue.record("__DirectiveLocation is not an enum")
            return
        }
        #expect(locations.values.map(\.name) == DirectiveLocation.allCases.map(\.rawValue))
        #expect(DirectiveModel.deprecated.locations.last == .directiveDefinition)
    }
}
