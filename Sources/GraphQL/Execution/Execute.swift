/// Executes an operation of `document` (spec §6 "Execution"; graphql-js `execute`).
///
/// Steps: GetOperation (§6.1), CoerceVariableValues (§6.1.2), then ExecuteQuery /
/// ExecuteMutation (§6.2.1, §6.2.2): the root selection set runs on `rootValue`, query
/// (and subscription) fields concurrently, mutation fields one after the other. Fields
/// whose resolvers answer synchronously run inline without suspending; fields answering
/// `.later` of one selection set run concurrently in a task group, whose jobs take turns on
/// one serial executor per request (`RequestExecutor`): they overlap while they wait (on
/// loaders, on upstreams) but never compute at the same time. The calling task itself takes
/// no executor: holes answered without waiting finish on the caller's thread.
///
/// - Parameters:
///   - source: the text `document` was parsed from (for error line/columns).
///   - variableValues: the request's raw variable inputs (a JSON object).
///   - operationName: which operation to run; nil when the document has exactly one.
///   - resolvers: field resolvers and type resolution; default property resolvers by default.
///   - context: a per-request value resolvers can read from `ResolveInfo.context`.
///   - activity: told when execution work is runnable, for batching loaders.
///   - planCache: where plans of this document are reused from and kept (usually
///     `PreparedDocument.plans`); only for executions with the same schema and resolvers.
///   - maxResponseBytes: the most UTF-8 bytes `data` may take, checked while it is written
///     (`ResponseSizeLimit`); 0 for no limit. Over it, execution stops (no further resolver
///     runs) and the result is `data: null` with one error, `extensions.code`
///     `RESPONSE_TOO_LARGE` and `maximum`, at the operation, `path` where it was crossed.
/// - Returns: request errors (bad operation name, variable coercion) as an errors-only
///   result (`data == nil`); otherwise `data` plus any field errors. An operation type the
///   schema has no root for answers `data: null` with `Schema is not configured to execute
///   mutation operation.`. Never throws: every problem is in the result.
public func execute(
    schema: Schema, document: Document, source: Source, rootValue: FieldValue = .json(.object(JSONObject())),
    variableValues: JSONObject = JSONObject(), operationName: String? = nil,
    resolvers: any ExecutionResolvers = PropertyResolvers(), context: (any Sendable)? = nil,
    activity: (any ExecutionActivity)? = nil, planCache: ExecutionPlanCache? = nil, maxResponseBytes: Int = 0
) async -> ExecutionResult {
    switch startExecution(
        schema: schema, document: document, source: source, rootValue: rootValue, variableValues: variableValues,
        operationName: operationName, resolvers: resolvers, context: context, activity: activity,
        planCache: planCache, maxResponseBytes: maxResponseBytes)
    {
    case .finished(let result): return result
    case .pending(let pending): return await pending.finish()
    }
}

/// `execute` up to its first wait, on the caller's thread: `.finished` with the result when
/// no field answered later (`{ __typename }`, introspection, static values, request errors),
/// else `.pending`, whose `finish()` awaits the rest. A server answers the first kind without
/// a task. Parameters and result as for `execute`; each `.pending` must be finished once (its
/// `activity` stays entered until then).
public func startExecution(
    schema: Schema, document: Document, source: Source, rootValue: FieldValue = .json(.object(JSONObject())),
    variableValues: JSONObject = JSONObject(), operationName: String? = nil,
    resolvers: any ExecutionResolvers = PropertyResolvers(), context: (any Sendable)? = nil,
    activity: (any ExecutionActivity)? = nil, planCache: ExecutionPlanCache? = nil, maxResponseBytes: Int = 0
) -> ExecutionStart {
    let prepared = prepareExecution(
        schema: schema, document: document, source: source, variableValues: variableValues,
        operationName: operationName, resolvers: resolvers, context: context, allowsAsync: true, activity: activity,
        maxResponseBytes: maxResponseBytes)
    guard case .success(let execution) = prepared else {
        if case .failure(let failure) = prepared {
            return .finished(ExecutionResult(data: nil, errors: failure.errors))
        }
        return .finished(ExecutionResult(data: nil))
    }
    activity?.enter()
    let start = execution.startOperation(rootValue: rootValue, planCache: planCache)
    if case .done(let bytes) = start {
        activity?.leave()
        return .finished(execution.result(data: bytes))
    }
    return .pending(PendingExecution(execution: execution, start: start, rootValue: rootValue))
}

/// How `startExecution` left an operation.
public enum ExecutionStart: Sendable {
    /// Executed to the end without waiting.
    case finished(ExecutionResult)
    /// Fields answer later: `finish()` awaits them and gives the result.
    case pending(PendingExecution)
}

/// An operation `startExecution` began: the walk so far and its holes.
///
/// `@unchecked Sendable`: it moves once, from the thread that started the operation to the
/// task that finishes it, and is never used by two at a time (`finish()` is called once).
public final class PendingExecution: @unchecked Sendable {
    private let execution: ExecutionContext
    private let start: OperationStart
    private let rootValue: FieldValue

    init(execution: ExecutionContext, start: OperationStart, rootValue: FieldValue) {
        self.execution = execution
        self.start = start
        self.rootValue = rootValue
    }

    /// The rest of the operation; then the result, as `execute` returns it. Call once.
    public func finish() async -> ExecutionResult {
        defer { execution.activity?.leave() }
        let data: JSONByteBuffer
        switch start {
        case .done(let bytes):
            data = bytes
        case .pending(let out):
            // No executor preference here: this task stays on the thread it runs on (the server's,
            // under `Task.immediate`) and finishes there when no hole really waits; only the
            // child tasks of concurrent fills move to the request's serial executor.
            do throws(FieldFailure) {
                data = try await execution.finish(out).bytes
            } catch {
                execution.record(error.error)
                data = nullJSON()
            }
        case .serial(let plan):
            data = await execution.executeFieldsSerially(plan, rootValue: rootValue).bytes
        }
        return execution.result(data: data)
    }
}

/// `execute` for resolvers that all answer synchronously (static data, the `exec` CLI,
/// benchmarks): runs on the caller's thread, start to end. A resolver answering `.later`
/// becomes a field error naming it. `planCache` and `maxResponseBytes` as for `execute`.
public func executeSynchronously(
    schema: Schema, document: Document, source: Source, rootValue: FieldValue = .json(.object(JSONObject())),
    variableValues: JSONObject = JSONObject(), operationName: String? = nil,
    resolvers: any ExecutionResolvers = PropertyResolvers(), context: (any Sendable)? = nil,
    planCache: ExecutionPlanCache? = nil, maxResponseBytes: Int = 0
) -> ExecutionResult {
    let prepared = prepareExecution(
        schema: schema, document: document, source: source, variableValues: variableValues,
        operationName: operationName, resolvers: resolvers, context: context, allowsAsync: false, activity: nil,
        maxResponseBytes: maxResponseBytes)
    guard case .success(let execution) = prepared else {
        if case .failure(let failure) = prepared { return ExecutionResult(data: nil, errors: failure.errors) }
        return ExecutionResult(data: nil)
    }
    let data: JSONByteBuffer
    switch execution.startOperation(rootValue: rootValue, planCache: planCache) {
    case .done(let bytes): data = bytes
    case .pending: data = nullJSON()  // unreachable: no holes without async resolvers
    case .serial(let plan): data = execution.executeFieldsSeriallyInline(plan, rootValue: rootValue)
    }
    return execution.result(data: data)
}

func nullJSON() -> JSONByteBuffer {
    let buffer = JSONByteBuffer(capacity: 16)
    buffer.writeNull()
    return buffer
}

/// GetOperation and CoerceVariableValues: the execution context, or the request errors.
func prepareExecution(
    schema: Schema, document: Document, source: Source, variableValues: JSONObject, operationName: String?,
    resolvers: any ExecutionResolvers, context: (any Sendable)?, allowsAsync: Bool, activity: (any ExecutionActivity)?,
    incremental: Bool = false, maxResponseBytes: Int = 0
) -> Result<ExecutionContext, RequestErrors> {
    let operation: OperationDefinition
    let fragments: [String: FragmentDefinition]
    do {
        (operation, fragments) = try getOperation(in: document, operationName: operationName)
    } catch {
        return .failure(RequestErrors([error]))
    }
    switch coerceVariableValues(schema: schema, operation: operation, inputs: variableValues, source: source) {
    case .failure(let errors):
        return .failure(errors)
    case .success(let coerced):
        return .success(
            ExecutionContext(
                schema: schema, source: source, operation: operation, fragments: fragments, variableValues: coerced,
                resolvers: resolvers, contextValue: context, allowsAsync: allowsAsync, activity: activity,
                incremental: incremental,
                responseLimit: maxResponseBytes > 0 ? ResponseSizeLimit(maxBytes: maxResponseBytes) : nil))
    }
}

/// How the root selection set got on after its synchronous walk.
enum OperationStart {
    /// Finished: the `data` JSON (null after a root failure).
    case done(JSONByteBuffer)
    /// Holes remain (query or subscription), or the walk registered incremental records.
    case pending(ResponseWriter)
    /// A mutation: its root fields run one by one (§6.2.2).
    case serial(SelectionPlan)
}

extension ExecutionContext {
    /// The result of a finished execution: `data` and the errors, or, when the response went
    /// over its size limit, `data: null` and only the limit's error (the errors of the
    /// positions it nulled on the way out are not the client's to fix).
    func result(data: JSONByteBuffer) -> ExecutionResult {
        if let responseLimit, responseLimit.isTripped {
            return ExecutionResult(
                dataBuffer: nullJSON(), errors: [responseLimit.error(locations: locations(of: [operation.loc]))])
        }
        return ExecutionResult(dataBuffer: data, errors: collectedErrors)
    }

    /// ExecuteQuery / ExecuteMutation up to the first suspension (graphql-js
    /// `executeOperation`): root type lookup, root CollectFields, and the synchronous walk
    /// of a query's root selection set. Errors are recorded; a failure here nulls `data`.
    /// The root plan comes from `planCache` when it holds one for this operation and these
    /// variables, and goes into it otherwise.
    func startOperation(rootValue: FieldValue, planCache: ExecutionPlanCache?) -> OperationStart {
        guard let rootType = schema.rootTypeName(for: operation.operation), case .object? = schema.types[rootType]
        else {
            record(
                GraphQLError(
                    "Schema is not configured to execute \(operation.operation.rawValue) operation.",
                    locations: locations(of: [operation.loc])))
            return .done(nullJSON())
        }
        let plan: SelectionPlan
        // Incremental plans differ from ordinary ones (`@defer` splits them): never cached together.
        let planCache = incremental ? nil : planCache
        if let cached = planCache?.plan(for: operation, variables: variableValues) {
            plan = cached
        } else {
            do {
                plan = try SelectionPlan.make(objectType: rootType, selectionSets: [operation.selectionSet], in: self)
            } catch {
                record(error)
                return .done(nullJSON())
            }
            planCache?.insert(plan, for: operation, variables: variableValues)
        }
        if operation.operation == .mutation { return .serial(plan) }
        let path = ResponsePath()
        let out = ResponseWriter(
            capacity: 1 << 16, tracksFrames: allowsAsync,
            incremental: incremental ? IncrementalWalk(deferMap: .empty) : nil)
        do {
            if let deferring = plan.incremental {
                try executeDeferringSelectionSet(plan, deferring, source: rootValue, path: path, out: out)
            } else {
                try executeSelectionSet(plan, source: rootValue, path: path, out: out)
            }
        } catch {
            record(error.error)
            return .done(nullJSON())
        }
        responseLimit?.commit(out.buffer.count)
        return out.holes.isEmpty && !incremental ? .done(out.buffer) : .pending(out)
    }

    /// ExecuteMutation's serial execution (§6.2.2, §6.3.1 "Normal and Serial Execution"):
    /// each root field, its sub-selections included, finishes before the next one starts.
    /// Incremental records of the fields' values come along; a failure nulls `data` and drops them.
    func executeFieldsSerially(_ plan: SelectionPlan, rootValue: FieldValue) async -> FinishedValue {
        let data = JSONByteBuffer()
        var records: [IncrementalDataRecord] = []
        // Root-level `@defer` in a mutation is a validation error; unvalidated, its fields just run now.
        let deferMap = incremental ? DeferMap.empty.adding(plan.incremental?.newDeferUsages ?? [], at: []) : nil
        data.append(UInt8(ascii: "{"))
        for (index, field) in plan.fields.enumerated() {
            let path = ResponsePath()
            path.push(field)
            let out = ResponseWriter(tracksFrames: true, incremental: deferMap.map { IncrementalWalk(deferMap: $0) })
            do throws(FieldFailure) {
                try executeField(field, source: rootValue, path: path, out: out)
                responseLimit?.commit(out.buffer.count)
                let value = try await finish(out)
                if index > 0 { data.append(UInt8(ascii: ",")) }
                data.append(field.encodedKey)
                value.write(to: data)
                records += value.records
            } catch {
                record(error.error)
                return FinishedValue(nullJSON())
            }
        }
        data.append(UInt8(ascii: "}"))
        return FinishedValue(data, records: records)
    }

    /// `executeFieldsSerially` for synchronous resolvers: one walk, nothing to await.
    func executeFieldsSeriallyInline(_ plan: SelectionPlan, rootValue: FieldValue) -> JSONByteBuffer {
        let path = ResponsePath()
        let out = ResponseWriter(tracksFrames: false)
        do {
            try executeSelectionSet(plan, source: rootValue, path: path, out: out)
            return out.buffer
        } catch {
            record(error.error)
            return nullJSON()
        }
    }
}
