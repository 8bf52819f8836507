extension ExecutionContext {
    /// CompleteValue (spec §6.4.3 "Value Completion"; graphql-js `completeValue`): shapes a
    /// resolved value to the field's type — non-null checks, lists item by item, leaves
    /// serialized, objects and abstract types through their sub-selection — writing the
    /// JSON to `out`. `path` is the position being completed (the field, or a list item).
    /// - Throws: `FieldFailure`, already located at `path`, for the caller to record or
    ///   propagate (§6.4.4); what was written for this value is then to be rewound.
    func completeValue(
        _ shape: CompletionShape, field: FieldPlan, value: FieldValue, path: ResponsePath, out: ResponseWriter
    ) throws(FieldFailure) {
        if case .pending(let pending) = value {
            return try completePendingValue(pending, shape, field: field, path: path, out: out)
        }
        var shape = shape
        if case .nonNull(let inner) = shape {
            // Every completion of a non-null value is non-null, except a type the schema lacks.
            if value.isNull || { if case .unknown = inner { return true } else { return false } }() {
                throw failure(
                    "Cannot return null for non-nullable field \(field.parentType).\(field.fieldName).", field, path)
            }
            shape = inner
        } else if value.isNull {
            out.buffer.writeNull()
            return
        }
        switch shape {
        case .leaf(let kind):
            try completeLeafValue(kind, field: field, value: value, path: path, out: out)
        case .object(let typeName):
            try completeObjectValue(typeName, field: field, value: value, path: path, out: out)
        case .abstract(let abstractType):
            let typeName = try resolveAbstractType(abstractType, field: field, value: value, path: path)
            try completeObjectValue(typeName, field: field, value: value, path: path, out: out)
        case .list(let itemShape):
            try completeListValue(itemShape, field: field, value: value, path: path, out: out)
        case .nonNull, .unknown:
            out.buffer.writeNull()
        }
    }

    /// A value not known yet: a hole that `finish` fills by awaiting it and completing what it
    /// returns with `shape` (graphql-js `completePromisedValue`).
    private func completePendingValue(
        _ pending: PendingValue, _ shape: CompletionShape, field: FieldPlan, path: ResponsePath, out: ResponseWriter
    ) throws(FieldFailure) {
        guard allowsAsync else {
            throw failure(
                "A value of \(field.parentType).\(field.fieldName) is asynchronous; run the operation with execute(…) async.",
                field, path)
        }
        out.addHole(
            PendingField(
                plan: field, work: .later(pending.work), path: path.components, shape: shape,
                deferMap: out.incremental?.deferMap), nullable: !shape.isNonNull)
    }

    /// Leaves (§6.4.3 step 2): the common well-typed cases written directly, the rest
    /// through `serializeLeaf` (graphql-js's lenient result coercion and its errors).
    @inline(__always)
    private func completeLeafValue(
        _ kind: LeafKind, field: FieldPlan, value: FieldValue, path: ResponsePath, out: ResponseWriter
    ) throws(FieldFailure) {
        let buffer = out.buffer
        if case .json(let json) = value {
            switch kind {
            case .string, .id:
                if case .string(let s) = json { return buffer.write(string: s) }
            case .int:
                if case .int(let i) = json, isInt32(i) { return buffer.write(int: i) }
            case .float:
                if case .double(let d) = json, d.isFinite { return buffer.write(double: d) }
            case .boolean:
                if case .bool(let b) = json { return buffer.write(bool: b) }
            case .enumType(let values):
                if case .string(let s) = json, values.names.contains(s) { return buffer.write(string: s) }
            case .custom:
                return buffer.write(json)
            }
        }
        switch serializeLeaf(value, kind) {
        case .success(let serialized): buffer.write(serialized)
        case .failure(let message): throw failure(message.text, field, path)
        }
    }

    /// Lists (§6.4.3 step 3): each item completed at its index; a failed nullable item is
    /// null, a failed non-null item fails the whole list.
    private func completeListValue(
        _ itemShape: CompletionShape, field: FieldPlan, value: FieldValue, path: ResponsePath,
        out: ResponseWriter
    ) throws(FieldFailure) {
        if let incremental = field.incremental, !path.endsWithIndex {
            switch incremental.stream {
            case .success(nil): break
            case .success(let stream?):
                return try completeStreamedListValue(
                    stream, itemShape, field: field, value: value, path: path, out: out)
            case .failure(let error):
                throw FieldFailure(error: located(error, nodes: field.fieldNodes, path: path.components))
            }
        }
        switch value {
        case .json(.array(let items)):
            out.buffer.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.buffer.append(UInt8(ascii: ",")) }
                try completeItem(.json(item), itemShape, at: index, field: field, path: path, out: out)
            }
            out.buffer.append(UInt8(ascii: "]"))
        case .list(let items):
            out.buffer.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.buffer.append(UInt8(ascii: ",")) }
                try completeItem(item, itemShape, at: index, field: field, path: path, out: out)
            }
            out.buffer.append(UInt8(ascii: "]"))
        default:
            throw failure(
                "Expected Iterable, but did not find one for field \"\(field.parentType).\(field.fieldName)\".", field,
                path)
        }
    }

    @inline(__always)
    func completeItem(
        _ item: FieldValue, _ itemShape: CompletionShape, at index: Int, field: FieldPlan, path: ResponsePath,
        out: ResponseWriter
    ) throws(FieldFailure) {
        path.push(index: index)
        defer { path.pop() }
        if itemShape.isNonNull {
            return try completeValue(itemShape, field: field, value: item, path: path, out: out)
        }
        let start = out.buffer.count
        out.openFrame(at: start)
        defer { out.closeFrame() }
        do {
            try completeValue(itemShape, field: field, value: item, path: path, out: out)
        } catch {
            out.rewind(to: start)
            out.buffer.writeNull()
            record(error.error)
        }
    }

    /// Objects (§6.4.3 step 4): ExecuteSelectionSet over the merged sub-selections.
    private func completeObjectValue(
        _ typeName: String, field: FieldPlan, value: FieldValue, path: ResponsePath, out: ResponseWriter
    ) throws(FieldFailure) {
        switch field.subPlan(for: typeName, in: self) {
        case .success(let plan):
            if let incremental = plan.incremental {
                return try executeDeferringSelectionSet(plan, incremental, source: value, path: path, out: out)
            }
            try executeSelectionSet(plan, source: value, path: path, out: out)
        case .failure(let error):
            throw FieldFailure(error: located(error, nodes: field.fieldNodes, path: path.components))
        }
    }

    /// ResolveAbstractType (§6.4.3) and graphql-js's checks on its answer
    /// (`ensureValidRuntimeType`), with graphql-js's messages.
    private func resolveAbstractType(
        _ abstractType: String, field: FieldPlan, value: FieldValue, path: ResponsePath
    ) throws(FieldFailure) -> String {
        let resolved: String?
        do {
            resolved = try resolvers.resolveType(
                of: value, abstractType: abstractType,
                info: ResolveInfo(plan: field, execution: self, path: path.components))
        } catch {
            throw FieldFailure(
                error: located(graphQLError(from: error), nodes: field.fieldNodes, path: path.components))
        }
        guard let typeName = resolved else {
            throw failure(
                "Abstract type \"\(abstractType)\" must resolve to an Object type at runtime for field \"\(field.parentType).\(field.fieldName)\". Either the \"\(abstractType)\" type should provide a \"resolveType\" function or each possible type should provide an \"isTypeOf\" function.",
                field, path)
        }
        switch schema.types[typeName] {
        case nil:
            throw failure(
                "Abstract type \"\(abstractType)\" was resolved to a type \"\(typeName)\" that does not exist inside the schema.",
                field, path)
        case .object?:
            guard schema.isPossibleType(abstractType, typeName) else {
                throw failure(
                    "Runtime Object type \"\(typeName)\" is not a possible type for \"\(abstractType)\".", field, path)
            }
            return typeName
        default:
            throw failure(
                "Abstract type \"\(abstractType)\" was resolved to a non-object type \"\(typeName)\".", field, path)
        }
    }

    func failure(_ message: String, _ field: FieldPlan, _ path: ResponsePath) -> FieldFailure {
        FieldFailure(error: located(GraphQLError(message), nodes: field.fieldNodes, path: path.components))
    }
}
