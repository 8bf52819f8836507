// The shared harness of the validation rule tests: one schema (a concert domain with
// every kind of type, `@oneOf`, a custom scalar, root types for all three operations and
// custom directives) and `expectErrors`, which validates a document with one rule and
// compares each error as `message @line:column,…` with the expected list.
import Testing

@testable import GraphQL

let validationTestSDL = #"""
    "An instant, as an ISO 8601 string."
    scalar Timestamp

    interface Node {
      id: ID!
    }

    interface Performer implements Node {
      id: ID!
      name: String!
    }

    type Band implements Performer & Node {
      id: ID!
      name: String!
      members(limit: Int = 10): [Musician!]!
      formed: Int
      genre: Genre
      tags: [String!]
      setlist(venue: ID!, encore: Boolean): [Song]
    }

    type Musician implements Performer & Node {
      id: ID!
      name: String!
      instrument: String
      band: Band
      age: Int
    }

    type Song {
      title: String!
      length: Int
      rating: Float
    }

    type Venue implements Node {
      id: ID!
      city: String
      capacity: Int
    }

    union Billing = Band | Musician

    union Place = Venue

    enum Genre {
      ROCK
      JAZZ
      FOLK
      METAL
    }

    input TicketFilter {
      city: String!
      maxPrice: Float
      soldOut: Boolean = false
      genres: [Genre!]
    }

    input Lookup @oneOf {
      byId: ID
      byName: String
    }

    type Query {
      band(id: ID!): Band
      bands(filter: TicketFilter, first: Int): [Band!]!
      performer(lookup: Lookup!): Performer
      findPerformer(lookup: Lookup): Performer
      billing: [Billing]
      place: Place
      node(id: ID!): Node
      now: Timestamp
      grid: [[Int]]
      echo(text: String, times: Int = 1): String
    }

    type Mutation {
      rate(song: String!, stars: Int!): Song
    }

    type Subscription {
      songPlayed: Song
      encoreStarted(venue: ID): Band
    }

    directive @loud(level: Int!) repeatable on FIELD | FRAGMENT_SPREAD

    directive @cache(seconds: Int) on QUERY | FIELD

    directive @tracked on VARIABLE_DEFINITION
    """#

/// The test schema, built once.
let validationTestSchema: Result<Schema, SchemaBuildError> = Result { () throws(SchemaBuildError) in
    try buildSchema(sdl: validationTestSDL)
}

/// Each error as `message @line:column,line:column` (locations in reported order).
func renderedErrors(_ text: String, rules: [ValidationRule], schema: Schema? = nil) throws -> [String] {
    let source = Source(text)
    let document = try parse(source)
    let errors = validate(
        schema: try schema ?? validationTestSchema.get(), document: document, source: source, rules: rules)
    return errors.map { error in
        error.message + " @" + error.locations.map { "\($0.line):\($0.column)" }.joined(separator: ",")
    }
}

/// Validates `text` with `rule` alone and expects exactly `expected`, in order; every
/// error must also carry `extensions.rule` = the rule's name.
func expectErrors(
    _ rule: ValidationRule, _ text: String, _ expected: [String],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
    #expect(try renderedErrors(text, rules: [rule]) == expected, sourceLocation: sourceLocation)
    let source = Source(text)
    let errors = validate(
        schema: try validationTestSchema.get(), document: try parse(source), source: source, rules: [rule])
    for error in errors {
        #expect(error.extensions["rule"] == .string(rule.name), sourceLocation: sourceLocation)
    }
}
