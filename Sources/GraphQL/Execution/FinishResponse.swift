// The asynchronous half of execution. The synchronous walk leaves holes where resolvers
// answered `.later`; `finish(_:)` runs all holes of a walk concurrently (one child task
// each; a lone hole inline), completes each value with a new synchronous walk of its own
// (whose holes are finished the same way, recursively), and splices the results in.
//
// Null propagation (§6.4.4) across holes: a failed hole whose field is nullable becomes
// `null` in place; otherwise its frame — the innermost nullable position around it —
// becomes `null` (one error recorded per frame, like graphql-js, whose `Promise.all`
// reports the first rejection); with no frame, the failure leaves `finish` and nulls
// whatever holds this walk's value.

/// A walk's value once its holes are filled: the bytes, and (incremental execution) the
/// records for later payloads that survived null propagation, in the order they were met.
struct FinishedValue {
    let bytes: JSONByteBuffer
    let records: [IncrementalDataRecord]

    init(_ bytes: JSONByteBuffer, records: [IncrementalDataRecord] = []) {
        self.bytes = bytes
        self.records = records
    }
}

extension ExecutionContext {
    /// The bytes of `out` with every hole filled, and the incremental records of `out` and of
    /// its holes' walks that are not inside a position nulled meanwhile.
    /// - Throws: `FieldFailure` when a hole fails in a non-null position with no nullable
    ///   position around it inside `out`.
    func finish(_ out: ResponseWriter) async throws(FieldFailure) -> FinishedValue {
        let holes = out.holes
        if holes.isEmpty { return FinishedValue(out.buffer, records: out.incremental?.records.map(\.record) ?? []) }
        var outcomes = [Result<FinishedValue, FieldFailure>?](repeating: nil, count: holes.count)
        if holes.count == 1 {
            // One hole: nothing to overlap with, so no task.
            outcomes[0] = await fill(holes[0].field)
        } else {
            await withTaskGroup(of: (Int, Result<FinishedValue, FieldFailure>).self) { group in
                for (index, hole) in holes.enumerated() {
                    let field = hole.field
                    activity?.enter()
                    group.addTask {
                        defer { self.activity?.leave() }
                        return (index, await self.fill(field))
                    }
                }
                // Waiting on the children: this task is not runnable until one reports back.
                activity?.leave()
                for await (index, outcome) in group { outcomes[index] = outcome }
                activity?.enter()
            }
        }

        var replacements: [FinishedValue?] = Array(repeating: nil, count: holes.count)
        var nulledFrames: Set<Int> = []
        var topFailure: FieldFailure? = nil
        for (index, hole) in holes.enumerated() {
            switch outcomes[index] {
            case .success(let bytes)?:
                replacements[index] = bytes
            case .failure(let failure)?:
                if hole.nullable {
                    record(failure.error)
                } else if let frame = hole.frame {
                    if nulledFrames.insert(frame).inserted { record(failure.error) }
                } else if topFailure == nil {
                    topFailure = failure
                }
            case nil:
                break
            }
        }
        if let topFailure { throw topFailure }
        return splice(out, replacements: replacements, nulledFrames: nulledFrames)
    }

    /// Awaits a pending field's resolver, then completes its value (§6.4.3) in a walk of
    /// its own and finishes that.
    private func fill(_ field: PendingField) async -> Result<FinishedValue, FieldFailure> {
        // A cancelled request (its deadline passed, its client left) stops here instead of
        // resolving and completing values nobody will read.
        // So does one whose response went over its size limit: nothing more is sent upstream.
        if Task.isCancelled || responseLimit?.isTripped == true { return .failure(cancelled(field)) }
        let value: FieldValue
        do {
            value = try await field.work()
        } catch {
            return .failure(
                FieldFailure(error: located(graphQLError(from: error), nodes: field.plan.fieldNodes, path: field.path)))
        }
        if Task.isCancelled { return .failure(cancelled(field)) }
        let out = ResponseWriter(
            capacity: 256, tracksFrames: true, incremental: field.deferMap.map { IncrementalWalk(deferMap: $0) })
        let path = ResponsePath(prefix: field.path)
        do throws(FieldFailure) {
            try completeValue(field.shape, field: field.plan, value: value, path: path, out: out)
            responseLimit?.commit(out.buffer.count)
            return .success(try await finish(out))
        } catch {
            return .failure(error)
        }
    }

    private func cancelled(_ field: PendingField) -> FieldFailure {
        FieldFailure(error: located(GraphQLError("Request cancelled."), nodes: field.plan.fieldNodes, path: field.path))
    }

    /// `out`'s bytes with each hole replaced (`null` when it has no replacement) and each
    /// nulled frame's range replaced by `null`; the records of `out` and of the replacements
    /// used, minus those inside a nulled range.
    private func splice(_ out: ResponseWriter, replacements: [FinishedValue?], nulledFrames: Set<Int>)
        -> FinishedValue
    {
        // Outermost nulled ranges only, in order.
        var ranges: [(start: Int, end: Int)] = []
        for range in nulledFrames.map({ out.frames[$0] }).sorted(by: { $0.start < $1.start }) {
            if let last = ranges.last, range.start < last.end { continue }
            ranges.append(range)
        }
        let result = JSONByteBuffer(capacity: out.buffer.count + 256)
        var records: [IncrementalDataRecord] = []
        if let walk = out.incremental {
            for (offset, record) in walk.records
            where !ranges.contains(where: { $0.start <= offset && offset < $0.end }) {
                records.append(record)
            }
        }
        var position = 0
        var nextRange = 0
        for (index, hole) in out.holes.enumerated() {
            while nextRange < ranges.count && ranges[nextRange].end <= hole.offset {
                result.append(out.buffer, from: position, to: ranges[nextRange].start)
                result.writeNull()
                position = ranges[nextRange].end
                nextRange += 1
            }
            if nextRange < ranges.count && ranges[nextRange].start <= hole.offset { continue }  // inside a nulled range
            result.append(out.buffer, from: position, to: hole.offset)
            if let replacement = replacements[index] {
                result.append(replacement.bytes)
                records += replacement.records
            } else {
                result.writeNull()
            }
            position = hole.offset
        }
        for range in ranges[nextRange...] {
            result.append(out.buffer, from: position, to: range.start)
            result.writeNull()
            position = range.end
        }
        result.append(out.buffer, from: position)
        return FinishedValue(result, records: records)
    }
}
