/// The response one synchronous walk writes: JSON bytes, written as fields complete, plus
/// the holes async resolvers left and the nullable positions those holes may null.
///
/// Null propagation (spec §6.4.4) inside the walk rewinds the bytes to where the nullable
/// position began and writes `null` there. A hole is filled later (`finish`); if it fails
/// in a non-null position, the innermost nullable position around it (its *frame*) becomes
/// null, so while async work is possible the writer keeps the stack of open nullable
/// positions and records the byte range of each one a hole depends on.
final class ResponseWriter {
    let buffer: JSONByteBuffer
    /// False on the all-synchronous path: no holes can appear, so frames are not tracked.
    let tracksFrames: Bool
    private(set) var holes: [Hole] = []
    /// Byte ranges of the nullable positions some hole depends on; `end` is set on close.
    private(set) var frames: [(start: Int, end: Int)] = []
    private var openFrames: [(start: Int, registered: Int?)] = []
    /// Incremental execution only: the records this walk leaves for later payloads.
    let incremental: IncrementalWalk?
    /// The values of a batch's walk, written one after another (nil: the walk is one value).
    private(set) var segments: [Segment]?

    /// A place in the bytes where a pending field's value goes.
    struct Hole {
        let offset: Int
        let field: PendingField
        /// The field's own type is nullable: its failure is a `null` in place.
        let nullable: Bool
        /// Index into `frames` of the nullable position a non-null failure nulls; nil: the top.
        let frame: Int?
    }

    /// One value of a segmented walk: its bytes `start..<end` and its holes. The frames of
    /// its holes lie inside it; a hole with no frame fails this value, not the walk.
    struct Segment {
        let start: Int
        let end: Int
        let holes: Range<Int>
    }

    /// `segmented`: the walk holds several values, each closed with `closeSegment`. Only
    /// walks without incremental records are segmented.
    init(capacity: Int = 4096, tracksFrames: Bool, incremental: IncrementalWalk? = nil, segmented: Bool = false) {
        buffer = JSONByteBuffer(capacity: capacity)
        self.tracksFrames = tracksFrames
        self.incremental = incremental
        segments = segmented ? [] : nil
        precondition(!segmented || incremental == nil, "a segmented walk keeps no incremental records")
    }

    /// The values of the walk: its segments, or the whole walk as one.
    var values: [Segment] { segments ?? [Segment(start: 0, end: buffer.count, holes: holes.indices)] }

    /// The value written since byte `start` and hole `firstHole` is complete.
    func closeSegment(from start: Int, holesFrom firstHole: Int) {
        segments?.append(Segment(start: start, end: buffer.count, holes: firstHole..<holes.count))
    }

    /// The value written since byte `start` and hole `firstHole` failed: it is dropped. (By
    /// hole index, not offset: the value before may end in a hole at `start`.)
    func dropSegment(from start: Int, holesFrom firstHole: Int) {
        buffer.truncate(to: start)
        holes.removeSubrange(firstHole...)
    }

    /// A nullable position starts at byte `start`.
    @inline(__always) func openFrame(at start: Int) {
        if tracksFrames { openFrames.append((start, nil)) }
    }

    /// The innermost open nullable position ends here.
    @inline(__always) func closeFrame() {
        guard tracksFrames else { return }
        let frame = openFrames.removeLast()
        if let registered = frame.registered { frames[registered].end = buffer.count }
    }

    /// Leaves a hole for `field` at the current end of the bytes.
    func addHole(_ field: PendingField, nullable: Bool) {
        var frame: Int? = nil
        if let top = openFrames.indices.last {
            if let registered = openFrames[top].registered {
                frame = registered
            } else {
                frames.append((openFrames[top].start, -1))
                frame = frames.count - 1
                openFrames[top].registered = frame
            }
        }
        holes.append(Hole(offset: buffer.count, field: field, nullable: nullable, frame: frame))
    }

    /// Drops everything written from `offset` on, holes and incremental records included (the
    /// position there failed).
    func rewind(to offset: Int) {
        buffer.truncate(to: offset)
        while let last = holes.last, last.offset >= offset { holes.removeLast() }
        incremental?.rewind(to: offset)
    }
}

/// How a pending value becomes known: awaiting its own work, or as one key of a batch.
enum PendingWork: Sendable {
    case later(@Sendable () async throws -> FieldValue)
    case batched(BatchedLoad)
}

/// A value that is not there yet: a field whose resolver answered `.later` or `.batched`, or a
/// list item given as `FieldValue.pending`. The work, how to complete its value, and where the
/// value goes.
///
/// A class: a pending field goes from its hole to the batch that loads it and on to the walk
/// that completes it, and each copy of a struct this size retained its plan, path, shape and
/// work one by one.
final class PendingField: Sendable {
    let plan: FieldPlan
    let work: PendingWork
    let path: [PathComponent]
    /// The shape to complete the value with: the field's, or its list's item shape.
    let shape: CompletionShape
    /// Incremental execution: the deferred fragment records visible at the value.
    let deferMap: DeferMap?

    init(
        plan: FieldPlan, work: PendingWork, path: [PathComponent],
        shape: CompletionShape? = nil, deferMap: DeferMap? = nil
    ) {
        self.plan = plan
        self.work = work
        self.path = path
        self.shape = shape ?? plan.shape
        self.deferMap = deferMap
    }
}
