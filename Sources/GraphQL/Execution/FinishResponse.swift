// The asynchronous half of execution. The synchronous walk leaves holes where resolvers
// answered `.later` or `.batched`; `finish(_:)` fills the holes of one or more walks at once:
// the holes of all those walks that name one `FieldBatchLoader` are loaded in one call, and
// each such batch, and each `.later` hole, is one unit of concurrent work (one child task
// each; a lone unit inline). A unit completes each of its values with a new synchronous walk
// of its own, finishes the walks it made together (so their holes batch in turn: one call
// per loader and level), and the results are spliced in. A batch writes all its values in
// one walk, one segment each (unless they carry incremental records): a batch of 12,000
// fields is one buffer and one splice, not 12,000.
//
// Null propagation (§6.4.4) across holes: a failed hole whose field is nullable becomes
// `null` in place; otherwise its frame — the innermost nullable position around it —
// becomes `null` (one error recorded per frame, like graphql-js, whose `Promise.all`
// reports the first rejection); with no frame, the failure leaves `finish` and nulls
// whatever holds this walk's value.

/// A walk's value once its holes are filled: bytes `start..<end` of `buffer` (a segmented
/// walk's values share one) with `patches` written over them, and (incremental execution)
/// the records for later payloads that survived null propagation, in the order they were met.
///
/// Filled holes are patches, not copies: each level of a nested response would otherwise
/// copy all the bytes below it into its own buffer once more. The bytes are put together
/// once, when the whole value is read (`bytes`).
struct FinishedValue {
    let buffer: JSONByteBuffer
    let start: Int
    let end: Int
    /// In byte order, not overlapping, inside `start...end`.
    let patches: [Patch]
    let records: [IncrementalDataRecord]

    /// Bytes `start..<end` of the value's buffer read as `value`, or as `null` when nil (a
    /// hole with no value, a position nulled by a failure inside it).
    struct Patch {
        let start: Int
        let end: Int
        let value: FinishedValue?
    }

    /// The whole of `bytes` as the value.
    init(_ bytes: JSONByteBuffer, records: [IncrementalDataRecord] = []) {
        self.init(bytes, start: 0, end: bytes.count, records: records)
    }

    init(
        _ buffer: JSONByteBuffer, start: Int, end: Int, patches: [Patch] = [], records: [IncrementalDataRecord] = []
    ) {
        self.buffer = buffer
        self.start = start
        self.end = end
        self.patches = patches
        self.records = records
    }

    /// The value's JSON in one buffer (its own when it is all of it, unpatched).
    var bytes: JSONByteBuffer {
        if patches.isEmpty && start == 0 && end == buffer.count { return buffer }
        let out = JSONByteBuffer(capacity: byteCount)
        write(to: out)
        return out
    }

    /// The length of the value's JSON, in bytes.
    var byteCount: Int {
        var count = end - start
        for patch in patches { count += (patch.value?.byteCount ?? 4) - (patch.end - patch.start) }
        return count
    }

    /// Appends the value's JSON to `out`.
    func write(to out: JSONByteBuffer) {
        var position = start
        for patch in patches {
            out.append(buffer, from: position, to: patch.start)
            if let value = patch.value { value.write(to: out) } else { out.writeNull() }
            position = patch.end
        }
        out.append(buffer, from: position, to: end)
    }
}

extension FinishedValue.Patch {
    /// `null` over a nulled position's bytes.
    init(nulling range: (start: Int, end: Int)) {
        self.init(start: range.start, end: range.end, value: nil)
    }
}

/// A hole's place among the walks being finished: walk index, hole index.
private struct HoleRef {
    let walk: Int
    let hole: Int
}

/// One unit of concurrent work while finishing walks: a hole awaiting its own work, or the
/// holes whose keys one loader answers in one call.
private enum FillUnit {
    case single(HoleRef, PendingField)
    case batch(any FieldBatchLoader, [HoleRef], [PendingField])
}

typealias FillOutcome = Result<FinishedValue, FieldFailure>

extension ExecutionContext {
    /// The bytes of `out` with every hole filled, and the incremental records of `out` and of
    /// its holes' walks that are not inside a position nulled meanwhile.
    /// - Throws: `FieldFailure` when a hole fails in a non-null position with no nullable
    ///   position around it inside `out`.
    func finish(_ out: ResponseWriter) async throws(FieldFailure) -> FinishedValue {
        if out.holes.isEmpty { return FinishedValue(out.buffer, records: out.incremental?.records.map(\.record) ?? []) }
        return try await finish([out])[0].get()
    }

    /// `finish` for several walks at once, one outcome per value in order (a walk is one
    /// value, a segmented walk one per segment): their holes that name the same loader are
    /// loaded in one call.
    func finish(_ walks: [ResponseWriter]) async -> [FillOutcome] {
        var outcomes: [[FillOutcome?]] = walks.map { [FillOutcome?](repeating: nil, count: $0.holes.count) }
        let units = Self.units(walks)
        if units.count == 1 {
            // One unit: nothing to overlap with, so no task.
            for (ref, outcome) in await fill(units[0]) { outcomes[ref.walk][ref.hole] = outcome }
        } else if !units.isEmpty {
            await withTaskGroup(of: [(HoleRef, FillOutcome)].self) { group in
                let executor = requestExecutor
                for unit in units {
                    activity?.enter()
                    group.addTask(executorPreference: executor) {
                        defer { self.activity?.leave() }
                        return await self.fill(unit)
                    }
                }
                // Waiting on the children: this task is not runnable until one reports back.
                activity?.leave()
                for await filled in group {
                    for (ref, outcome) in filled { outcomes[ref.walk][ref.hole] = outcome }
                }
                activity?.enter()
            }
        }
        if walks.count == 1 { return assemble(walks[0], outcomes[0]) }
        return walks.indices.flatMap { assemble(walks[$0], outcomes[$0]) }
    }

    /// The units of work for the holes of `walks`: each `.later` hole alone, and each loader's
    /// holes together (in the order the loader first appears).
    private static func units(_ walks: [ResponseWriter]) -> [FillUnit] {
        var units: [FillUnit] = []
        var batchIndex: [ObjectIdentifier: Int] = [:]
        var batches: [(loader: any FieldBatchLoader, refs: [HoleRef], fields: [PendingField])] = []
        for (w, walk) in walks.enumerated() {
            for (h, hole) in walk.holes.enumerated() {
                let ref = HoleRef(walk: w, hole: h)
                switch hole.field.work {
                case .later:
                    units.append(.single(ref, hole.field))
                case .batched(let load):
                    if let index = batchIndex[load.group] {
                        batches[index].refs.append(ref)
                        batches[index].fields.append(hole.field)
                    } else {
                        batchIndex[load.group] = batches.count
                        batches.append((load.loader, [ref], [hole.field]))
                    }
                }
            }
        }
        return units + batches.map { .batch($0.loader, $0.refs, $0.fields) }
    }

    /// One walk's values (one, or one per segment) from its holes' outcomes: failures
    /// propagated (§6.4.4), the rest spliced.
    private func assemble(_ out: ResponseWriter, _ outcomes: [FillOutcome?]) -> [FillOutcome] {
        // No holes: the values are the walk's own bytes, nothing to patch.
        if out.holes.isEmpty {
            guard let segments = out.segments else {
                return [.success(FinishedValue(out.buffer, records: out.incremental?.records.map(\.record) ?? []))]
            }
            return segments.map { .success(FinishedValue(out.buffer, start: $0.start, end: $0.end)) }
        }
        return assemble(out, out.values, outcomes)
    }

    private func assemble(_ out: ResponseWriter, _ values: [ResponseWriter.Segment], _ outcomes: [FillOutcome?])
        -> [FillOutcome]
    {
        let holes = out.holes
        var replacements: [FinishedValue?] = Array(repeating: nil, count: holes.count)
        var nulledFrames: Set<Int> = []
        var failures: [FieldFailure?] = Array(repeating: nil, count: values.count)
        for (value, segment) in values.enumerated() {
            for index in segment.holes {
                switch outcomes[index] {
                case .success(let bytes)?:
                    replacements[index] = bytes
                case .failure(let failure)?:
                    // Only the hole's place is read: copying the whole hole would retain its field.
                    if holes[index].nullable {
                        record(failure.error)
                    } else if let frame = holes[index].frame {
                        if nulledFrames.insert(frame).inserted { record(failure.error) }
                    } else if failures[value] == nil {
                        // No nullable position around it inside the value: the value fails.
                        failures[value] = failure
                    }
                case nil:
                    break
                }
            }
        }
        let spliced = splice(out, values, failures, replacements: replacements, nulledFrames: nulledFrames)
        return values.indices.map { value in
            if let failure = failures[value] { return .failure(failure) }
            return .success(spliced[value]!)
        }
    }

    private func fill(_ unit: FillUnit) async -> [(HoleRef, FillOutcome)] {
        switch unit {
        case .single(let ref, let field): return [(ref, await fill(field))]
        case .batch(let loader, let refs, let fields):
            return await fill(fields, from: loader).enumerated().map { (refs[$0.offset], $0.element) }
        }
    }

    /// Awaits a pending field's work, then completes its value (§6.4.3) in a walk of its own
    /// and finishes that.
    private func fill(_ field: PendingField) async -> FillOutcome {
        // A cancelled request (its deadline passed, its client left) stops here instead of
        // resolving and completing values nobody will read. So does one whose response went
        // over its size limit: nothing more is sent upstream.
        if stopsFilling { return .failure(cancelled(field)) }
        guard case .later(let work) = field.work else { return await fill([field], from: nil)[0] }
        let value: FieldValue
        do {
            value = try await work()
        } catch {
            return .failure(failure(error, field))
        }
        if Task.isCancelled { return .failure(cancelled(field)) }
        switch complete(field, value) {
        case .success(let out): return await finish([out])[0]
        case .failure(let failure): return .failure(failure)
        }
    }

    /// Loads the keys of `fields` (all `.batched` with `loader`) in one call, completes each
    /// value in a walk of its own, and finishes those walks together.
    private func fill(_ fields: [PendingField], from loader: (any FieldBatchLoader)?) async -> [FillOutcome] {
        if stopsFilling { return fields.map { .failure(cancelled($0)) } }
        var keys: [any Sendable] = []
        keys.reserveCapacity(fields.count)
        var batchLoader = loader
        for field in fields {
            guard case .batched(let load) = field.work else { continue }
            keys.append(load.key)
            if batchLoader == nil { batchLoader = load.loader }
        }
        guard let batchLoader, keys.count == fields.count else {
            return fields.map {
                .failure(failure(GraphQLError("Internal error: a batched field without its key."), $0))
            }
        }
        let values = await batchLoader.loadErased(keys)
        if Task.isCancelled { return fields.map { .failure(cancelled($0)) } }
        guard values.count == fields.count else {
            return fields.map { field in
                .failure(
                    failure(
                        GraphQLError(
                            "The batch loader of \(field.plan.parentType).\(field.plan.fieldName) answered \(values.count) values for \(fields.count) keys."
                        ), field))
            }
        }
        // Incremental execution: every value has deferred fragments of its own to track.
        if incremental { return await fillWalkEach(fields, values) }
        var outcomes = [FillOutcome?](repeating: nil, count: fields.count)
        // One walk for the batch, one segment per value.
        let out = ResponseWriter(capacity: min(256 * fields.count, 1 << 16), tracksFrames: true, segmented: true)
        let path = ResponsePath()
        var segmentOf: [Int] = []
        for (index, field) in fields.enumerated() {
            switch values[index] {
            case .failure(let error):
                outcomes[index] = .failure(failure(error, field))
            case .success(let value):
                let start = out.buffer.count
                let firstHole = out.holes.count
                path.restart(at: field.path)
                do throws(FieldFailure) {
                    try completeValue(field.shape, field: field.plan, value: value, path: path, out: out)
                    out.closeSegment(from: start, holesFrom: firstHole)
                    segmentOf.append(index)
                } catch {
                    out.dropSegment(from: start, holesFrom: firstHole)
                    outcomes[index] = .failure(error)
                }
            }
        }
        responseLimit?.commit(out.buffer.count)
        for (position, outcome) in await finish([out]).enumerated() { outcomes[segmentOf[position]] = outcome }
        // Every slot was set above: a failure at once, or its segment's outcome.
        return outcomes.enumerated().map { $0.element ?? .failure(cancelled(fields[$0.offset])) }
    }

    /// The batch path for values with incremental records: each value in a walk of its own
    /// (each has its own deferred fragments), those walks finished together.
    private func fillWalkEach(_ fields: [PendingField], _ values: [Result<FieldValue, any Error>]) async
        -> [FillOutcome]
    {
        var outcomes = [FillOutcome?](repeating: nil, count: fields.count)
        var walks: [ResponseWriter] = []
        var walkOf: [Int] = []
        for (index, field) in fields.enumerated() {
            switch values[index] {
            case .failure(let error):
                outcomes[index] = .failure(failure(error, field))
            case .success(let value):
                switch complete(field, value) {
                case .success(let out):
                    walkOf.append(index)
                    walks.append(out)
                case .failure(let failure):
                    outcomes[index] = .failure(failure)
                }
            }
        }
        for (position, outcome) in await finish(walks).enumerated() { outcomes[walkOf[position]] = outcome }
        return outcomes.enumerated().map { $0.element ?? .failure(cancelled(fields[$0.offset])) }
    }

    /// CompleteValue (§6.4.3) of a pending field's value, in a walk of its own (its holes
    /// still open).
    private func complete(_ field: PendingField, _ value: FieldValue) -> Result<ResponseWriter, FieldFailure> {
        let out = ResponseWriter(
            capacity: 256, tracksFrames: true, incremental: field.deferMap.map { IncrementalWalk(deferMap: $0) })
        let path = ResponsePath(prefix: field.path)
        do throws(FieldFailure) {
            try completeValue(field.shape, field: field.plan, value: value, path: path, out: out)
            responseLimit?.commit(out.buffer.count)
            return .success(out)
        } catch {
            return .failure(error)
        }
    }

    /// The request was cancelled, or its response went over its size limit.
    private var stopsFilling: Bool { Task.isCancelled || responseLimit?.isTripped == true }

    private func failure(_ error: any Error, _ field: PendingField) -> FieldFailure {
        FieldFailure(error: located(graphQLError(from: error), nodes: field.plan.fieldNodes, path: field.path))
    }

    private func cancelled(_ field: PendingField) -> FieldFailure {
        FieldFailure(error: located(GraphQLError("Request cancelled."), nodes: field.plan.fieldNodes, path: field.path))
    }

    /// Each of `values` (segments of `out`) that did not fail, with each hole patched by its
    /// replacement (`null` when it has none) and each nulled frame's range by `null`; the
    /// records of `out` (a walk of one value) and of the replacements used, minus those inside
    /// a nulled range. nil for a failed value.
    private func splice(
        _ out: ResponseWriter, _ values: [ResponseWriter.Segment], _ failures: [FieldFailure?],
        replacements: [FinishedValue?], nulledFrames: Set<Int>
    ) -> [FinishedValue?] {
        // Outermost nulled ranges only, in order. Each lies inside one value (frames are
        // positions inside a value), and a later value's ranges end after this one's end.
        var ranges: [(start: Int, end: Int)] = []
        for range in nulledFrames.map({ out.frames[$0] }).sorted(by: { $0.start < $1.start }) {
            if let last = ranges.last, range.start < last.end { continue }
            ranges.append(range)
        }
        let holes = out.holes
        var spliced: [FinishedValue?] = []
        spliced.reserveCapacity(values.count)
        var nextRange = 0
        for (value, segment) in values.enumerated() {
            if failures[value] != nil {
                while nextRange < ranges.count && ranges[nextRange].end <= segment.end { nextRange += 1 }
                spliced.append(nil)
                continue
            }
            var records: [IncrementalDataRecord] = []
            if let walk = out.incremental {
                for (offset, record) in walk.records
                where !ranges.contains(where: { $0.start <= offset && offset < $0.end }) {
                    records.append(record)
                }
            }
            var patches: [FinishedValue.Patch] = []
            patches.reserveCapacity(segment.holes.count)
            for index in segment.holes {
                let offset = holes[index].offset
                while nextRange < ranges.count && ranges[nextRange].end <= offset {
                    patches.append(FinishedValue.Patch(nulling: ranges[nextRange]))
                    nextRange += 1
                }
                if nextRange < ranges.count && ranges[nextRange].start <= offset { continue }  // inside a nulled range
                let replacement = replacements[index]
                patches.append(FinishedValue.Patch(start: offset, end: offset, value: replacement))
                if let replacement { records += replacement.records }
            }
            while nextRange < ranges.count && ranges[nextRange].end <= segment.end {
                patches.append(FinishedValue.Patch(nulling: ranges[nextRange]))
                nextRange += 1
            }
            spliced.append(
                FinishedValue(out.buffer, start: segment.start, end: segment.end, patches: patches, records: records))
        }
        return spliced
    }
}
