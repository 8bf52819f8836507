// The synchronous walk of execution (spec §6.3 "Executing Selection Sets", §6.4
// "Executing Fields"). It runs every synchronous resolver inline, depth first, and writes
// the response JSON as it goes: no intermediate tree, no task, no suspension. A resolver
// that answers `.later` leaves a hole in the bytes instead (ResponseWriter), which
// `finish(_:)` (FinishResponse.swift) fills concurrently once the walk is done.

extension ExecutionContext {
    /// ExecuteSelectionSet (§6.3) for `plan` on `source` — graphql-js `executeFields`.
    /// Writes the object's JSON to `out`. `path` is the object's response path; it is
    /// restored on return and on throw.
    /// - Throws: `FieldFailure` when a non-null field fails: this object is then null.
    func executeSelectionSet(
        _ plan: SelectionPlan, source: FieldValue, path: ResponsePath, out: ResponseWriter
    ) throws(FieldFailure) {
        let buffer = out.buffer
        buffer.append(UInt8(ascii: "{"))
        if case .json(.object(let object)) = source {
            // Static data: default-resolved fields read the object's keys directly, and
            // well-typed leaves are written without entering CompleteValue at all.
            for (index, field) in plan.fields.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                buffer.append(field.encodedKey)
                if field.resolverKind == .property && !field.hasArgumentError {
                    let json = field.lookup(in: object)
                    if field.fastLeaf != .none && writeFastLeaf(json, field, buffer) { continue }
                    path.push(field)
                    defer { path.pop() }
                    try completeField(field, value: .json(json), path: path, out: out)
                } else {
                    path.push(field)
                    defer { path.pop() }
                    try executeField(field, source: source, path: path, out: out)
                }
            }
        } else {
            for (index, field) in plan.fields.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                buffer.append(field.encodedKey)
                path.push(field)
                defer { path.pop() }
                try executeField(field, source: source, path: path, out: out)
            }
        }
        buffer.append(UInt8(ascii: "}"))
        // Per object, not per leaf: one comparison where a response grows by a whole object.
        try responseLimit?.check(pending: buffer.count, path: path)
    }

    /// ExecuteField (§6.4): CoerceArgumentValues (planned), ResolveFieldValue, then
    /// CompleteValue, writing the value to `out`; a field error in a nullable field is
    /// recorded and the field is null (§6.4.4), in a non-null field it propagates.
    /// `path` ends with this field's key.
    func executeField(
        _ field: FieldPlan, source: FieldValue, path: ResponsePath, out: ResponseWriter
    ) throws(FieldFailure) {
        let value: FieldValue
        switch field.resolverKind {
        case .property:
            if field.hasArgumentError, case .failure(let error) = field.arguments {
                return try fieldError(error, field, path, out)
            }
            if case .json(.object(let object)) = source {
                let json = field.lookup(in: object)
                if field.fastLeaf != .none && writeFastLeaf(json, field, out.buffer) { return }
                value = .json(json)
            } else {
                value = field.readProperty(of: source)
            }
        case .typename:
            value = .json(.string(field.parentType))
        case .custom:
            let arguments: JSONObject
            switch field.arguments {
            case .success(let coerced): arguments = coerced
            case .failure(let error): return try fieldError(error, field, path, out)
            }
            guard let resolver = field.customResolver else {
                return try fieldError(GraphQLError("No resolver"), field, path, out)
            }
            // One copy of the path serves the resolver's info and, if it answers later, the hole.
            let components = path.components
            let resolution: Resolution
            do {
                resolution = try resolver.resolve(
                    source: source, arguments: arguments,
                    info: ResolveInfo(plan: field, execution: self, path: components))
            } catch {
                return try fieldError(graphQLError(from: error), field, path, out)
            }
            switch resolution {
            case .value(let resolved):
                value = resolved
            case .later(let work):
                return try leaveHole(.later(work), field, components, path, out)
            case .batched(let load):
                return try leaveHole(.batched(load), field, components, path, out)
            }
        }
        try completeField(field, value: value, path: path, out: out)
    }

    /// CompleteValue for a field's resolved value, with the field's own null handling
    /// (§6.4.4): in a nullable field a failure rewinds what was written and records the error.
    @inline(__always)
    private func completeField(_ field: FieldPlan, value: FieldValue, path: ResponsePath, out: ResponseWriter)
        throws(FieldFailure)
    {
        guard field.isNullable else {
            return try completeValue(field.shape, field: field, value: value, path: path, out: out)
        }
        let start = out.buffer.count
        out.openFrame(at: start)
        defer { out.closeFrame() }
        do {
            try completeValue(field.shape, field: field, value: value, path: path, out: out)
        } catch {
            out.rewind(to: start)
            out.buffer.writeNull()
            record(error.error)
        }
    }

    /// A hole for a field whose value comes later (`finish` fills it); a field error on the
    /// synchronous path, which cannot wait.
    private func leaveHole(
        _ work: PendingWork, _ field: FieldPlan, _ components: [PathComponent], _ path: ResponsePath,
        _ out: ResponseWriter
    ) throws(FieldFailure) {
        guard allowsAsync else {
            return try fieldError(
                GraphQLError(
                    "The resolver of \(field.parentType).\(field.fieldName) is asynchronous; run the operation with execute(…) async."
                ), field, path, out)
        }
        out.addHole(
            PendingField(plan: field, work: work, path: components, deferMap: out.incremental?.deferMap),
            nullable: field.isNullable)
    }

    /// A field error raised before completion: recorded (null) or propagated by nullability.
    private func fieldError(
        _ error: GraphQLError, _ field: FieldPlan, _ path: ResponsePath, _ out: ResponseWriter
    ) throws(FieldFailure) {
        let error = located(error, nodes: field.fieldNodes, path: path.components)
        guard field.isNullable else { throw FieldFailure(error: error) }
        record(error)
        out.buffer.writeNull()
    }
}

/// Writes a leaf field's JSON value when it needs no coercion (a string for String, ID
/// or a known enum value, a 32-bit int for Int, a finite number for Float, a boolean for
/// Boolean, null for a nullable field); false when CompleteValue must handle it.
@inline(__always)
private func writeFastLeaf(_ json: JSONValue, _ field: FieldPlan, _ buffer: JSONByteBuffer) -> Bool {
    switch json {
    case .string(let s):
        switch field.fastLeaf {
        case .string, .id: buffer.write(string: s)
        case .enumType where field.enumNames.contains(s): buffer.write(string: s)
        default: return false
        }
    case .int(let i):
        switch field.fastLeaf {
        case .int where isInt32(i), .float: buffer.write(int: i)
        default: return false
        }
    case .double(let d):
        guard field.fastLeaf == .float, d.isFinite else { return false }
        buffer.write(double: d)
    case .bool(let b):
        guard field.fastLeaf == .boolean else { return false }
        buffer.write(bool: b)
    case .null:
        guard field.isNullable else { return false }
        buffer.writeNull()
    default:
        return false
    }
    return true
}

/// A resolver's thrown error as a GraphQL error (message and extensions kept).
func graphQLError(from error: any Error) -> GraphQLError {
    if let error = error as? GraphQLError { return error }
    if let convertible = error as? GraphQLErrorConvertible { return convertible.graphQLError }
    return GraphQLError(String(describing: error))
}
