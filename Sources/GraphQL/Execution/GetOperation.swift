/// GetOperation (spec §6.1 "Executing Requests"; graphql-js `buildExecutionContext`): the
/// operation to run, and the document's fragments by name.
///
/// With `operationName`, the operation of that name (the last one, if the name repeats);
/// without it, the document's only operation.
/// - Throws: `GraphQLError` (no location): `Must provide an operation.`,
///   `Must provide operation name if query contains multiple operations.`,
///   `Unknown operation named "X".`
func getOperation(
    in document: Document, operationName: String?
) throws(GraphQLError) -> (OperationDefinition, [String: FragmentDefinition]) {
    var operation: OperationDefinition? = nil
    var fragments: [String: FragmentDefinition] = [:]
    for definition in document.definitions {
        switch definition {
        case .operation(let candidate):
            if let operationName {
                if candidate.name?.value == operationName { operation = candidate }
            } else {
                if operation != nil {
                    throw GraphQLError("Must provide operation name if query contains multiple operations.")
                }
                operation = candidate
            }
        case .fragment(let fragment):
            fragments[fragment.name.value] = fragment
        default:
            continue
        }
    }
    guard let operation else {
        if let operationName { throw GraphQLError("Unknown operation named \"\(operationName)\".") }
        throw GraphQLError("Must provide an operation.")
    }
    return (operation, fragments)
}
