import Synchronization

/// Everything one execution of one operation shares (graphql-js `ExecutionContext`): the
/// schema, the selected operation, its fragments, the coerced variables, the resolvers,
/// and the field errors collected so far.
///
/// Immutable apart from `errors`, which tasks running concurrently append to under a lock
/// (errors are rare, so the lock is never hot).
final class ExecutionContext: Sendable {
    let schema: Schema
    let source: Source
    let operation: OperationDefinition
    let fragments: [String: FragmentDefinition]
    let variableValues: JSONObject
    let resolvers: any ExecutionResolvers
    let contextValue: (any Sendable)?
    /// False for `executeSynchronously`: a resolver answering `.later` is then a field error.
    let allowsAsync: Bool
    let activity: (any ExecutionActivity)?
    /// True for `executeIncrementally`: CollectFields honours `@defer` and list completion
    /// `@stream` (IncrementalExecution.swift); false ignores both, as the spec allows.
    let incremental: Bool
    /// The most bytes `data` may take (`execute(maxResponseBytes:)`); nil: no limit.
    let responseLimit: ResponseSizeLimit?
    private let errors = Mutex<[GraphQLError]>([])
    /// Where the request's child tasks run, one at a time (shared with error scopes).
    private let executor: LazyRequestExecutor

    init(
        schema: Schema, source: Source, operation: OperationDefinition, fragments: [String: FragmentDefinition],
        variableValues: JSONObject, resolvers: any ExecutionResolvers, contextValue: (any Sendable)?,
        allowsAsync: Bool, activity: (any ExecutionActivity)?, incremental: Bool = false,
        responseLimit: ResponseSizeLimit? = nil
    ) {
        self.schema = schema
        self.source = source
        self.operation = operation
        self.fragments = fragments
        self.variableValues = variableValues
        self.resolvers = resolvers
        self.contextValue = contextValue
        self.allowsAsync = allowsAsync
        self.activity = activity
        self.incremental = incremental
        self.responseLimit = responseLimit
        self.executor = LazyRequestExecutor()
    }

    /// The same execution with an error list of its own: a deferred execution group or a
    /// streamed item collects the errors its payload carries (incremental delivery RFC §7).
    init(errorScopeOf parent: ExecutionContext) {
        self.schema = parent.schema
        self.source = parent.source
        self.operation = parent.operation
        self.fragments = parent.fragments
        self.variableValues = parent.variableValues
        self.resolvers = parent.resolvers
        self.contextValue = parent.contextValue
        self.allowsAsync = parent.allowsAsync
        self.activity = parent.activity
        self.incremental = parent.incremental
        self.responseLimit = parent.responseLimit
        self.executor = parent.executor
    }

    /// The serial executor of this request's child tasks (`RequestExecutor`), made on first use.
    var requestExecutor: RequestExecutor { executor.value }

    func record(_ error: GraphQLError) {
        errors.withLock { $0.append(error) }
    }

    var collectedErrors: [GraphQLError] { errors.withLock { $0 } }

    /// `error` placed at `nodes` with `path`, unless it already carries them (graphql-js
    /// `locatedError`: a resolver's own locations and path win).
    func located(_ error: GraphQLError, nodes: [Field], path: [PathComponent]) -> GraphQLError {
        var error = error
        if error.locations.isEmpty { error.locations = locations(of: nodes.map(\.loc)) }
        if error.path == nil { error.path = path }
        return error
    }

    /// 1-based line/column of each node start; nodes built in code (no location) are skipped.
    func locations(of nodes: [Location]) -> [SourceLocation] {
        nodes.filter { $0.start >= 0 }.map { source.location(of: $0.start) }
    }
}

/// A field error on its way up to the nearest nullable position (spec §6.4.4 "Handling
/// Field Errors"): it carries the error, already located at the field or list item that
/// raised it. Whoever may be null records the error and answers null; a non-null position
/// rethrows.
struct FieldFailure: Error, Sendable {
    let error: GraphQLError
}
