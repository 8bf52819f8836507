import GraphQL
import Testing

/// What the honest-data suites check of a response's errors (issue 16 item 5): where they
/// point, and that each is the missing-field error of one schema field.
enum MissingFieldErrors {
    /// The paths of `errors`, dotted (`artist.albums.0.title`); errors without a path are skipped.
    static func paths(_ errors: [GraphQLError]) -> [String] {
        errors.compactMap { $0.path?.map(\.description).joined(separator: ".") }
    }

    /// Each error is `UPSTREAM_BAD_RESPONSE` from `service` naming `field` (e.g. `Video.title`);
    /// `nonEmpty` also requires at least one error, `located` a location on each.
    static func expectMissing(
        _ errors: [GraphQLError], field: String, service: String, nonEmpty: Bool = false, located: Bool = false
    ) {
        if nonEmpty { #expect(!errors.isEmpty) }
        for error in errors {
            #expect(error.extensions["code"] == .string("UPSTREAM_BAD_RESPONSE"))
            #expect(error.extensions["service"] == .string(service))
            #expect(error.extensions["field"] == .string(field))
            if located { #expect(!error.locations.isEmpty) }
        }
    }
}
