/// The response path of the position being executed (spec §7.1.2 "path"), kept as a stack
/// while the synchronous walk descends.
///
/// Entries are trivial values (a borrowed field plan or a list index), so pushing and
/// popping — twice per field — never retains, releases or checks uniqueness; the
/// `[PathComponent]` form is built only when an error or a resolver needs it. The plans
/// referenced are owned by the execution's plan tree, which outlives every walk.
final class ResponsePath {
    private struct Entry {
        /// The field whose response key this is; nil for a list index.
        var field: Unmanaged<FieldPlan>?
        var index: Int
    }

    /// Components above the walk's starting point (a hole's walk starts mid-response).
    private var prefix: [PathComponent]
    private var entries: UnsafeMutablePointer<Entry>
    private var count = 0
    private var capacity = 32

    init(prefix: [PathComponent] = []) {
        self.prefix = prefix
        entries = .allocate(capacity: capacity)
    }

    deinit { entries.deallocate() }

    /// The path starts over at `prefix` (one path serves the values a batch completes in turn).
    func restart(at prefix: [PathComponent]) {
        precondition(count == 0, "a path restarts only between walks")
        self.prefix = prefix
    }

    @inline(__always) func push(_ field: FieldPlan) {
        if count == capacity { grow() }
        entries[count] = Entry(field: Unmanaged.passUnretained(field), index: 0)
        count += 1
    }

    @inline(__always) func push(index: Int) {
        if count == capacity { grow() }
        entries[count] = Entry(field: nil, index: index)
        count += 1
    }

    @inline(__always) func pop() { count -= 1 }

    /// The position is a list item (a list completed here is an inner list of a field's list).
    var endsWithIndex: Bool {
        if count > 0 { return entries[count - 1].field == nil }
        if case .index? = prefix.last { return true }
        return false
    }

    private func grow() {
        let bigger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = bigger
        capacity *= 2
    }

    /// The path as response keys and list indices, from the root.
    var components: [PathComponent] {
        var result = prefix
        result.reserveCapacity(prefix.count + count)
        for i in 0..<count {
            if let field = entries[i].field {
                result.append(.key(field.takeUnretainedValue().responseKey))
            } else {
                result.append(.index(entries[i].index))
            }
        }
        return result
    }
}
