/// A request document that parsed and passed validation: what every front end (the HTTP
/// layer, the `query` and `exec` commands) hands to execution.
public struct PreparedDocument: Sendable {
    public let source: Source
    public let document: Document
    /// Execution plans of this document, for `execute(planCache:)`: a document kept in a
    /// server's cache is then planned once, not per request. Valid for the schema the
    /// document was validated against and one set of resolvers.
    public let plans = ExecutionPlanCache()
    /// `document.usesIncrementalDelivery`, found once when the document is prepared.
    public let usesIncrementalDelivery: Bool

    public init(source: Source, document: Document) {
        self.source = source
        self.document = document
        self.usesIncrementalDelivery = document.usesIncrementalDelivery
    }

    /// The type of the operation `operationName` selects (spec §6.1 GetOperation), or nil
    /// when selection fails; execution then reports why. GraphQL over HTTP asks this before
    /// executing, because GET may only run queries.
    public func operationType(named operationName: String?) -> OperationType? {
        (try? getOperation(in: document, operationName: operationName))?.0.operation
    }

    /// The type and name (nil for an anonymous one) of the operation `operationName` selects
    /// (spec §6.1 GetOperation), or nil when selection fails: what a trace calls it.
    public func operationIdentity(named operationName: String?) -> (type: OperationType, name: String?)? {
        guard let operation = (try? getOperation(in: document, operationName: operationName))?.0 else { return nil }
        return (operation.operation, operation.name?.value)
    }

    /// Where the operation `operationName` selects starts (spec §7.1.2 `locations`: one line and
    /// column, 1-based), for an error about the whole operation rather than one field, as the
    /// executor locates its own (`Schema is not configured…`, `RESPONSE_TOO_LARGE`); empty when
    /// selection fails or the operation has no position in the source.
    public func operationLocations(named operationName: String?) -> [SourceLocation] {
        guard let operation = (try? getOperation(in: document, operationName: operationName))?.0,
            operation.loc.start >= 0
        else { return [] }
        return [source.location(of: operation.loc.start)]
    }
}

/// Why a document was refused before execution: a syntax error (spec §2, first error only),
/// validation errors (spec §5, all of them) or operation limits broken (`OperationLimits`,
/// each error with its own `extensions.code`). Either way nothing was executed.
public enum DocumentRejection: Error, Sendable {
    case syntax(GraphQLError)
    case invalid([GraphQLError])
    case overLimits([GraphQLError])

    /// The errors for the response's `errors` list.
    public var errors: [GraphQLError] {
        switch self {
        case .syntax(let error): [error]
        case .invalid(let errors): errors
        case .overLimits(let errors): errors
        }
    }
}

/// Parses and validates `source` against `schema`: the steps of a GraphQL request that
/// come before execution (spec §6.1 preface: a request's document must be valid).
///
/// - Parameters:
///   - parseOptions: token and depth limits; servers pass `ParseOptions.serverMaxTokens`.
///   - maxErrors: validation stops after this many errors (a DoS guard, as graphql-js).
///   - limits: checked once the document is valid (`checkOperationLimits`); none by default.
///   - phases: told as each step begins (`.parse`, `.validate`) and when they are over
///     (`.done`), so a caller can time them (a tracer's spans); nil by default.
/// - Returns: the prepared document, or the rejection with its errors (with locations and
///   `extensions.rule` for validation errors, `extensions.code` for limits).
///
/// A schema that carries `@defer` and `@stream` (`supportsIncrementalDelivery`) is validated
/// with `incrementalDeliveryRules`, so a document that an incremental executor would refuse is
/// refused before any execution, whichever executor runs it.
public func prepareDocument(
    _ source: Source, schema: Schema, parseOptions: ParseOptions = ParseOptions(), maxErrors: Int = 100,
    limits: OperationLimits = .none, phases: ((DocumentPhase) -> Void)? = nil
) -> Result<PreparedDocument, DocumentRejection> {
    phases?(.parse)
    let document: Document
    do {
        document = try parse(source, options: parseOptions)
    } catch {
        phases?(.done(succeeded: false))
        return .failure(.syntax(error))
    }
    phases?(.validate)
    let rules = schema.supportsIncrementalDelivery ? incrementalDeliveryRules : specifiedRules
    let errors = validate(schema: schema, document: document, source: source, rules: rules, maxErrors: maxErrors)
    guard errors.isEmpty else {
        phases?(.done(succeeded: false))
        return .failure(.invalid(errors))
    }
    let overLimits = checkOperationLimits(document: document, source: source, limits: limits)
    phases?(.done(succeeded: overLimits.isEmpty))
    guard overLimits.isEmpty else { return .failure(.overLimits(overLimits)) }
    return .success(PreparedDocument(source: source, document: document))
}

/// The steps of `prepareDocument`, as it begins them: parsing, then validation (the operation
/// limits included), then done.
public enum DocumentPhase: Sendable, Equatable {
    case parse
    case validate
    case done(succeeded: Bool)
}
