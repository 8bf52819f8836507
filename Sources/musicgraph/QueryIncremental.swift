import Catalog
import GraphQL

/// `query --incremental`: runs the prepared query with `@defer`/`@stream` honoured and writes
/// each payload to stdout as one JSON line the moment it is produced (the conformance kit's
/// JSON Lines form: `{"data","pending","hasNext":true}`, then `{"hasNext",…}` lines; a query
/// with nothing deferred is one ordinary response line). The last line carries `extensions`.
///
/// - Returns: the errors of every payload, for the exit status and `--replay` misses; and
///   whether the answer was a request error (an errors-only response).
func runIncrementalQuery(
    gateway: Gateway, prepared: PreparedDocument, operationName: String?, variables: JSONObject
) async -> (errors: [GraphQLError], isRequestError: Bool) {
    var errors: [GraphQLError] = []
    var isRequestError = false
    await gateway.executeIncrementally(prepared: prepared, operationName: operationName, variables: variables) {
        part in
        switch part.payload {
        case .complete(let result):
            errors += result.errors
            isRequestError = result.isRequestError
        case .initial(let initial):
            errors += initial.result.errors
        case .subsequent(let subsequent):
            errors += subsequent.incremental.flatMap(\.errors)
            errors += subsequent.completed.flatMap { $0.errors ?? [] }
        }
        // One write per line, unbuffered: a reader sees each payload as soon as it exists.
        writeAll(part.serialized() + [UInt8(ascii: "\n")], to: 1)
        return true
    }
    return (errors, isRequestError)
}
