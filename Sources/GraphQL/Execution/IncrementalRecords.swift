// What incremental execution leaves for later while it writes a payload (graphql-js 17
// `DeferredFragmentRecord`, `PendingExecutionGroup`, `StreamRecord`). The records themselves
// are immutable; which of them are pending, delivered or failed is the publisher's business
// (IncrementalGraph.swift), so they cross tasks freely.

/// One deferred fragment at one object position: what a pending notice announces and a
/// completion notice ends. Delivered once all its execution groups are; announced only once
/// `parent` (the fragment whose fields held it) is delivered.
final class DeferredFragmentRecord: Sendable {
    /// The position of the object the fragment was spread on.
    let path: [PathComponent]
    let label: String?
    let parent: DeferredFragmentRecord?

    init(path: [PathComponent], label: String?, parent: DeferredFragmentRecord?) {
        self.path = path
        self.label = label
        self.parent = parent
    }
}

/// The deferred fragment records visible from one object (graphql-js `deferMap`): those of its
/// own selection set and of every object above it, by usage. Extended, never changed.
final class DeferMap: Sendable {
    static let empty = DeferMap(parent: nil, entries: [])

    private let parent: DeferMap?
    private let entries: [(usage: DeferUsage, record: DeferredFragmentRecord)]

    private init(parent: DeferMap?, entries: [(usage: DeferUsage, record: DeferredFragmentRecord)]) {
        self.parent = parent
        self.entries = entries
    }

    subscript(usage: DeferUsage) -> DeferredFragmentRecord? {
        var map: DeferMap? = self
        while let current = map {
            if let entry = current.entries.first(where: { $0.usage === usage }) { return entry.record }
            map = current.parent
        }
        return nil
    }

    /// This map plus a record at `path` for each of `usages`, whose parent is the record of the
    /// usage's parent (graphql-js `addNewDeferredFragments`).
    func adding(_ usages: [DeferUsage], at path: [PathComponent]) -> DeferMap {
        var entries: [(usage: DeferUsage, record: DeferredFragmentRecord)] = []
        for usage in usages {
            let parent = usage.parent.flatMap { parentUsage in
                entries.first { $0.usage === parentUsage }?.record ?? self[parentUsage]
            }
            entries.append((usage, DeferredFragmentRecord(path: path, label: usage.label, parent: parent)))
        }
        return DeferMap(parent: self, entries: entries)
    }
}

/// A deferred execution group at one object: the fields `plan` holds, to execute on `source`
/// once one of `fragments` is announced; delivered once, under whichever of them completes first.
final class PendingExecutionGroup: Sendable {
    let fragments: [DeferredFragmentRecord]
    let path: [PathComponent]
    let source: FieldValue
    let plan: SelectionPlan
    /// The records the group's own deferred sub-selections find their parents in.
    let deferMap: DeferMap

    init(
        fragments: [DeferredFragmentRecord], path: [PathComponent], source: FieldValue, plan: SelectionPlan,
        deferMap: DeferMap
    ) {
        self.fragments = fragments
        self.path = path
        self.source = source
        self.plan = plan
        self.deferMap = deferMap
    }
}

/// The rest of a streamed list: its items from `startIndex` on, completed with `itemPlan` and
/// `itemShape`, delivered in order after the pending notice for `path`.
final class StreamRecord: Sendable {
    /// The list field's position.
    let path: [PathComponent]
    let label: String?
    let items: [FieldValue]
    let startIndex: Int
    let itemShape: CompletionShape
    let itemPlan: FieldPlan

    init(
        path: [PathComponent], label: String?, items: [FieldValue], startIndex: Int, itemShape: CompletionShape,
        itemPlan: FieldPlan
    ) {
        self.path = path
        self.label = label
        self.items = items
        self.startIndex = startIndex
        self.itemShape = itemShape
        self.itemPlan = itemPlan
    }
}

/// Work a payload leaves for later payloads (graphql-js 17 `IncrementalDataRecord`).
enum IncrementalDataRecord: Sendable {
    case executionGroup(PendingExecutionGroup)
    case stream(StreamRecord)
}

/// The incremental state of one synchronous walk (ResponseWriter.incremental): the records it
/// registered, each at the byte offset of the value it belongs to, so that a null propagating
/// over that value drops them with it; and the deferred fragment records of the object being
/// written.
final class IncrementalWalk {
    private(set) var records: [(offset: Int, record: IncrementalDataRecord)] = []
    var deferMap: DeferMap

    init(deferMap: DeferMap) {
        self.deferMap = deferMap
    }

    func register(_ record: IncrementalDataRecord, at offset: Int) {
        records.append((offset, record))
    }

    /// Drops the records of the values from `offset` on (they were nulled).
    func rewind(to offset: Int) {
        if !records.isEmpty { records.removeAll { $0.offset >= offset } }
    }
}
