import GraphQL
import GraphQLMocks
import Testing

/// The generic mock engine over a small schema: determinism, values by name, type and
/// description, list lengths, abstract types, echoed arguments, overrides and argument checks.
@Suite struct MockEngineTests {
    static let sdl = #"""
        directive @listSize(assumedSize: Int, slicingArguments: [String!]) on FIELD_DEFINITION

        type Query {
          band(id: ID, name: String): Band
          bands("How many (1–20)." first: Int = 5): [Band!]!
          charts: [Band!]! @listSize(assumedSize: 4)
          search(term: String!): [Result!]!
          node(id: ID!): Node
        }

        interface Node { id: ID! }

        union Result = Band | Song

        type Band implements Node {
          id: ID!
          name: String!
          homepageUrl: String
          formedDate: String
          updatedAt: String
          "Average rating, 0–5."
          rating: Float
          "Members now, 1–12."
          size: Int
          songs(first: Int): [Song!]
          genre: Genre
          active: Boolean
        }

        type Song implements Node {
          id: ID!
          title: String!
          lengthMs: Int
          playCount: Int
        }

        enum Genre { ROCK JAZZ POLKA @deprecated }
        """#

    static let schema: Schema = try! buildSchema(sdl: sdl)

    func run(_ query: String, seed: UInt64 = 7, values: MockValues = MockValues()) throws -> String {
        let engine = MockEngine(schema: Self.schema, seed: seed, values: values, profile: GenericMockProfile())
        let source = Source(query)
        let document = try parse(source)
        #expect(validate(schema: Self.schema, document: document, source: source).isEmpty)
        let result = executeSynchronously(
            schema: Self.schema, document: document, source: source, resolvers: MockResolvers(engine: engine))
        return String(decoding: result.serialized(), as: UTF8.self)
    }

    func json(_ text: String) throws -> JSONValue { try JSONReader.parse(Array(text.utf8)) }

    func data(_ text: String, _ path: PathComponent...) throws -> JSONValue? {
        var value: JSONValue? = try json(text)
        value = value?.member("data")
        for step in path {
            switch step {
            case .key(let key): value = value?.member(key)
            case .index(let i):
                if case .array(let items)? = value, i < items.count { value = items[i] } else { value = nil }
            }
        }
        return value
    }

    @Test func theSameSeedGivesTheSameBytesAndAnotherSeedOthers() throws {
        let query = "{ bands(first: 3) { id name rating songs(first: 2) { title lengthMs } } }"
        let first = try run(query)
        #expect(try run(query) == first)
        #expect(try run(query, seed: 8) != first)
    }

    @Test func aFieldsValueDoesNotDependOnWhatElseIsSelected() throws {
        let narrow = try run(#"{ band(name: "x") { homepageUrl } }"#)
        let wide = try run(#"{ charts { name } band(name: "x") { id homepageUrl size } }"#)
        #expect(try data(narrow, .key("band"), .key("homepageUrl")) == data(wide, .key("band"), .key("homepageUrl")))
    }

    @Test func leavesArePlausibleForTheirNameTypeAndDescription() throws {
        let out = try run("{ bands(first: 20) { homepageUrl formedDate updatedAt rating size genre active } }")
        guard case .array(let bands)? = try data(out, .key("bands")) else {
            Issue.record("no bands in \(out)")
            return
        }
        #expect(bands.count == 20)
        for band in bands {
            guard case .string(let url)? = band.member("homepageUrl"),
                case .string(let date)? = band.member("formedDate"),
                case .string(let stamp)? = band.member("updatedAt"), let rating = band.member("rating")?.number,
                case .int(let size)? = band.member("size"), case .string(let genre)? = band.member("genre")
            else {
                Issue.record("unexpected shape \(band)")
                continue
            }
            #expect(url.hasPrefix("https://example.com/band/"))
            #expect(date.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil)
            #expect(stamp.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil)
            #expect((0...5).contains(rating))
            #expect((1...12).contains(size))
            #expect(["ROCK", "JAZZ"].contains(genre), "deprecated POLKA is never mocked")
        }
    }

    @Test func listLengthsFollowFirstThenListSizeThenTwo() throws {
        let out = try run("{ a: bands(first: 3) { id } b: bands { id } charts { id } c: charts { songs { id } } }")
        func count(_ path: PathComponent...) throws -> Int? {
            var value: JSONValue? = try json(out).member("data")
            for step in path {
                if case .key(let key) = step { value = value?.member(key) }
                if case .index(let i) = step, case .array(let items)? = value { value = items[i] }
            }
            if case .array(let items)? = value { return items.count }
            return nil
        }
        #expect(try count(.key("a")) == 3)
        #expect(try count(.key("b")) == 5, "the argument's default counts")
        #expect(try count(.key("charts")) == 4)
        #expect(try count(.key("c"), .index(0), .key("songs")) == 2)
    }

    @Test func argumentsOutsideTheirDocumentedRangeAreBadUserInput() throws {
        let out = try json(try run("{ bands(first: 21) { id } }"))
        guard case .array(let errors)? = out.member("errors"), case .object(let error)? = errors.first else {
            Issue.record("no error in \(out)")
            return
        }
        #expect(error["message"] == .string("first must be between 1 and 20; got 21."))
        #expect(error["extensions"]?.member("code") == .string("BAD_USER_INPUT"))
    }

    @Test func aSingleObjectFetchedByArgumentsHasThem() throws {
        let out = try run(#"{ band(id: "b-1", name: "Queen") { id name } }"#)
        #expect(try data(out, .key("band")) == json(#"{"id":"b-1","name":"Queen"}"#))
    }

    @Test func abstractTypesResolveToAPossibleType() throws {
        let out = try run(#"{ search(term: "x") { __typename ... on Band { name } ... on Song { title } } }"#)
        guard case .array(let items)? = try data(out, .key("search")) else {
            Issue.record("no results in \(out)")
            return
        }
        for item in items {
            switch item.member("__typename") {
            case .string("Band")?: #expect(item.member("name") != nil)
            case .string("Song")?: #expect(item.member("title") != nil)
            default: Issue.record("not a possible type: \(item)")
            }
        }
    }

    @Test func mockValuesPinFieldsAndObjects() throws {
        let values = try MockValues(
            json: json(
                #"""
                {"Band.name": "AC/DC", "Band.songs": [{"title": "Hells Bells"}, {"title": "Shoot to Thrill"}],
                 "Node.id": "fixed", "Query.node": {"__typename": "Song", "title": "T.N.T."}}
                """#), schema: Self.schema)
        let out = try run(
            #"{ band(id: "b") { name songs(first: 9) { id title } } node(id: "x") { __typename ... on Song { title } } }"#,
            values: values)
        #expect(
            try data(out)
                == json(
                    #"""
                    {"band":{"name":"AC/DC","songs":[{"id":"fixed","title":"Hells Bells"},{"id":"fixed","title":"Shoot to Thrill"}]},
                     "node":{"__typename":"Song","title":"T.N.T."}}
                    """#))
    }

    @Test func mockValuesThatDoNotFitTheSchemaAreRefusedByName() throws {
        for (text, message) in [
            (#"{"Band.nickname": "x"}"#, "'Band.nickname': Band has no field nickname"),
            (#"{"Nope.name": "x"}"#, "'Nope.name' is not a Type.field coordinate of the schema"),
            (#"{"Band.name": {"x": 1}}"#, "'Band.name' (String!): an object cannot be a String value"),
            (#"{"Query.band": 3}"#, "'Query.band' (Band): a Band needs an object of field values"),
            (#"[1]"#, "mock values must be a JSON object keyed by Type.field"),
            (#"{"Song.lengthMs": "long"}"#, #"'Song.lengthMs' (Int): the string "long" cannot be an Int value"#),
            (#"{"Song.lengthMs": 1.5}"#, "'Song.lengthMs' (Int): the number 1.5 cannot be an Int value"),
            (
                #"{"Song.playCount": 4294967296}"#,
                "'Song.playCount' (Int): the number 4294967296 cannot be an Int value"
            ),
            (#"{"Band.formedDate": true}"#, "'Band.formedDate' (String): the boolean true cannot be a String value"),
            (#"{"Band.active": "yes"}"#, #"'Band.active' (Boolean): the string "yes" cannot be a Boolean value"#),
            (#"{"Band.genre": "VINYL"}"#, "'Band.genre' (Genre): 'VINYL' is not a value of the enum Genre"),
            (#"{"Band.genre": 1}"#, "'Band.genre' (Genre): Genre values are strings (its enum values)"),
        ] {
            let value = try json(text)
            do throws(MockValuesError) {
                _ = try MockValues(json: value, schema: Self.schema)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.message == message)
            }
        }
    }

    @Test func seedsAreStableAcrossProcessesAndMachines() throws {
        // Pinned numbers (FNV-1a 64 of "Query", as any implementation computes it): a change
        // here changes every mocked answer users have snapshotted.
        #expect(MockSeed.hash("Query") == 0xc74b_7675_f65c_3e23)
        #expect(MockSeed.hash("") == 0xcbf2_9ce4_8422_2325)
    }
}

extension JSONValue {
    /// An `Int` or `Float` value as a number (a float with no fraction is written as `4`).
    fileprivate var number: Double? {
        switch self {
        case .int(let n): Double(n)
        case .double(let d): d
        default: nil
        }
    }

    fileprivate func member(_ key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}
