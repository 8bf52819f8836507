import GraphQL

/// One operation the HTTP layer hands to the application: a parsed and validated document,
/// the operation to run and its raw variables (a GraphQL request, spec §6.1, less the schema
/// and root value, which are the application's).
public struct ExecutableRequest: Sendable {
    public let document: PreparedDocument
    public let operationName: String?
    public let variables: JSONObject

    public init(document: PreparedDocument, operationName: String?, variables: JSONObject) {
        self.document = document
        self.operationName = operationName
        self.variables = variables
    }
}

extension GraphQLHTTPHandler {
    /// Runs the operations of one batch (GraphQL over HTTP, "Request Batching" appendix)
    /// together, so that an application may share work between them (the gateway shares one
    /// request's DataLoaders, so their upstream reads batch together). Returns one outcome per
    /// request, in order; each is answered as a request of its own (its own errors and
    /// extensions). The handler counts the reports of the outcomes added up, so work shared by
    /// the batch is reported on one outcome only. Cancelled like `Execute` at the deadline.
    /// `finished` hears each request's outcome as soon as it is known (its position in
    /// `requests`), so that a batch past its deadline still answers those that finished.
    public typealias ExecuteBatch =
        @Sendable (_ requests: [ExecutableRequest], _ finished: @escaping BatchMemberFinished) async ->
        [GraphQLHTTPOutcome]

    /// One request of a batch has its outcome (its position in the batch, the outcome).
    public typealias BatchMemberFinished = @Sendable (_ position: Int, _ outcome: GraphQLHTTPOutcome) -> Void

    /// `ExecuteBatch` from `Execute`: the operations run concurrently, each on its own.
    static func concurrently(_ execute: @escaping Execute) -> ExecuteBatch {
        { requests, finished in
            await withTaskGroup(of: (Int, GraphQLHTTPOutcome).self) { group in
                for (index, request) in requests.enumerated() {
                    group.addTask { (index, await execute(request.document, request.operationName, request.variables)) }
                }
                var outcomes = [GraphQLHTTPOutcome?](repeating: nil, count: requests.count)
                for await (index, outcome) in group {
                    finished(index, outcome)
                    outcomes[index] = outcome
                }
                return outcomes.map { $0 ?? .rejected([GraphQLError("The operation did not run.")], status: 500) }
            }
        }
    }
}
