// Which deferred fragments and streams are pending, and what each completion delivers
// (graphql-js 17 `IncrementalGraph` and `IncrementalPublisher`; incremental delivery RFC,
// "Incremental Delivery"). Owned by the task that publishes the payloads: no locks.
//
// - A deferred fragment is announced (a pending notice, an id) when its parent fragment is
//   delivered, or with the payload that first registers it when it has none; one with no
//   execution group of its own is never announced, its children are announced in its place.
// - An execution group starts once one of its fragments is announced, and is delivered once,
//   under the first of its fragments to complete (a fragment completes when none of its groups
//   is pending), at the sub-path of its object below the longest announced fragment path.
// - A stream is announced with the payload holding its list (or with the fragment whose group
//   registered it), then delivers its items in order, in batches of the items ready together.
// - A failed execution group fails every fragment it belongs to: a fragment completes with the
//   errors of all its failed groups once none of its groups is pending, and delivers nothing;
//   its children are never announced. (graphql-js 17 reports only the first failed group's
//   errors, at once; the RFC's algorithm waits for the fragment's groups, as here.)

/// A finished piece of deferred work, as the publisher receives it.
enum IncrementalCompletion: Sendable {
    case executionGroup(PendingExecutionGroup, ExecutionGroupResult)
    /// Items of `stream` completed in order from list index `firstIndex`, with the errors raised
    /// inside them and the records they registered.
    case streamItems(
        StreamRecord, firstIndex: Int, items: [JSONByteBuffer], errors: [GraphQLError], records: [IncrementalDataRecord]
    )
    /// The stream is done: all items delivered, or (with errors) stopped at a failed item.
    case streamEnd(StreamRecord, nextIndex: Int, errors: [GraphQLError]?)
}

/// What executing a deferred group of fields gave.
enum ExecutionGroupResult: Sendable {
    case success(data: JSONByteBuffer, errors: [GraphQLError], records: [IncrementalDataRecord])
    /// A null reached the group's object: nothing of it can be delivered.
    case failure(errors: [GraphQLError])
}

/// Work the graph wants started.
enum IncrementalWork: Sendable {
    case executionGroup(PendingExecutionGroup)
    case stream(StreamRecord)
}

/// The parts of the payload being built.
struct PayloadParts {
    var pending: [PendingNotice] = []
    var incremental: [IncrementalEntry] = []
    var completed: [CompletedNotice] = []
    /// Work to start once the parts are handled.
    var work: [IncrementalWork] = []

    /// Something to deliver (a payload of pending notices alone is never sent).
    var hasContent: Bool { !incremental.isEmpty || !completed.isEmpty }
}

final class IncrementalGraph {
    private enum Status {
        /// Known, not announced: its parent is pending, or it had no group when it could be.
        case unannounced
        case announced(id: String)
        case delivered
        case failed
    }

    private enum DeliveryGroup {
        case fragment(DeferredFragmentRecord)
        case stream(StreamRecord)
    }

    private struct FragmentState {
        var status = Status.unannounced
        var pending: [PendingExecutionGroup] = []
        var successful: [(group: PendingExecutionGroup, data: JSONByteBuffer, errors: [GraphQLError])] = []
        /// The errors of its failed groups.
        var errors: [GraphQLError] = []
        var children: [DeliveryGroup] = []
    }

    private var fragments: [ObjectIdentifier: FragmentState] = [:]
    private var streamIds: [ObjectIdentifier: String] = [:]
    private var startedGroups: Set<ObjectIdentifier> = []
    private var announcedCount = 0
    private var openCount = 0

    /// Some announced fragment or stream is not complete yet.
    var hasNext: Bool { openCount > 0 }

    /// Takes the records of a payload with no deferred fragment of its own (the initial payload,
    /// or streamed items): announces what they make reachable into `parts`.
    func addRecords(_ records: [IncrementalDataRecord], into parts: inout PayloadParts) {
        add(records, parents: nil, into: &parts)
    }

    /// Takes one finished piece of work, adding what it delivers, completes and announces to
    /// `parts`.
    func handle(_ completion: IncrementalCompletion, into parts: inout PayloadParts) {
        switch completion {
        case .executionGroup(let group, let result):
            handleExecutionGroup(group, result, into: &parts)
        case .streamItems(let stream, let firstIndex, let items, let errors, let records):
            guard let id = streamIds[ObjectIdentifier(stream)] else { return }
            parts.incremental.append(
                IncrementalEntry(
                    id: id, label: stream.label, path: stream.path, subPath: [], firstIndex: firstIndex,
                    errors: errors, data: nil, items: items))
            add(records, parents: nil, into: &parts)
        case .streamEnd(let stream, let nextIndex, let errors):
            guard let id = streamIds[ObjectIdentifier(stream)] else { return }
            parts.completed.append(
                CompletedNotice(id: id, label: stream.label, path: stream.path, errors: errors, nextIndex: nextIndex))
            openCount -= 1
        }
    }

    // MARK: - Execution groups

    private func handleExecutionGroup(
        _ group: PendingExecutionGroup, _ result: ExecutionGroupResult, into parts: inout PayloadParts
    ) {
        let live = group.fragments.filter { isLive($0) }
        for fragment in live {
            fragments[ObjectIdentifier(fragment)]?.pending.removeAll { $0 === group }
        }
        switch result {
        case .success(let data, let errors, let records):
            for fragment in live {
                fragments[ObjectIdentifier(fragment)]?.successful.append((group, data, errors))
            }
            add(records, parents: live, into: &parts)
        case .failure(let errors):
            for fragment in live {
                fragments[ObjectIdentifier(fragment)]?.errors += errors
            }
        }
        for fragment in live {
            completeIfDone(fragment, into: &parts)
        }
    }

    /// Delivers (or fails) an announced fragment none of whose groups is pending.
    private func completeIfDone(_ fragment: DeferredFragmentRecord, into parts: inout PayloadParts) {
        let key = ObjectIdentifier(fragment)
        guard let state = fragments[key], case .announced(let id) = state.status, state.pending.isEmpty else { return }
        openCount -= 1
        if !state.errors.isEmpty {
            fragments[key]?.status = .failed
            parts.completed.append(
                CompletedNotice(
                    id: id, label: fragment.label, path: fragment.path, errors: state.errors, nextIndex: nil))
            return
        }
        fragments[key]?.status = .delivered
        for delivered in state.successful {
            let (bestId, prefixLength, bestLabel) = bestNotice(for: delivered.group, completing: fragment, id: id)
            parts.incremental.append(
                IncrementalEntry(
                    id: bestId, label: bestLabel, path: delivered.group.path,
                    subPath: Array(delivered.group.path.dropFirst(prefixLength)), firstIndex: nil,
                    errors: delivered.errors, data: delivered.data, items: []))
            // Delivered once: the group's other fragments no longer wait to deliver it.
            for other in delivered.group.fragments where other !== fragment {
                fragments[ObjectIdentifier(other)]?.successful.removeAll { $0.group === delivered.group }
            }
        }
        fragments[key]?.successful = []
        parts.completed.append(
            CompletedNotice(id: id, label: fragment.label, path: fragment.path, errors: nil, nextIndex: nil))
        promote(state.children, into: &parts)
    }

    /// The announced, unfailed fragment of `group` with the longest path (`fragment`, the one
    /// completing, on a tie): its id, path length and label (graphql-js `getBestIdAndSubPath`).
    private func bestNotice(for group: PendingExecutionGroup, completing fragment: DeferredFragmentRecord, id: String)
        -> (String, Int, String?)
    {
        var best = (id, fragment.path.count, fragment.label)
        for other in group.fragments where other !== fragment && other.path.count > best.1 {
            guard let state = fragments[ObjectIdentifier(other)], case .announced(let otherId) = state.status,
                state.errors.isEmpty
            else { continue }
            best = (otherId, other.path.count, other.label)
        }
        return best
    }

    // MARK: - Adding and announcing

    /// graphql-js `_addIncrementalDataRecords`: groups join their fragments (started at once
    /// when one is announced), streams join `parents` (or are reachable now without them).
    private func add(
        _ records: [IncrementalDataRecord], parents: [DeferredFragmentRecord]?, into parts: inout PayloadParts
    ) {
        var reachable: [DeliveryGroup] = []
        for record in records {
            switch record {
            case .executionGroup(let group):
                for fragment in group.fragments where isLive(fragment) {
                    include(fragment, reachable: &reachable)
                    fragments[ObjectIdentifier(fragment)]?.pending.append(group)
                }
                if group.fragments.contains(where: { isAnnounced($0) }) { start(group, into: &parts) }
            case .stream(let stream):
                guard let parents else {
                    reachable.append(.stream(stream))
                    continue
                }
                for parent in parents where isLive(parent) {
                    include(parent, reachable: &reachable)
                    fragments[ObjectIdentifier(parent)]?.children.append(.stream(stream))
                }
            }
        }
        promote(reachable, into: &parts)
    }

    /// Puts `fragment` (and its ancestors) in the graph: under its parent while the parent is
    /// pending, into `reachable` when it has no parent or the parent was delivered.
    private func include(_ fragment: DeferredFragmentRecord, reachable: inout [DeliveryGroup]) {
        let key = ObjectIdentifier(fragment)
        if let state = fragments[key] {
            // Known and skipped as empty before: reachable now that it has work, if its parent is done.
            if case .unannounced = state.status, isDeliveredOrRoot(fragment.parent) {
                reachable.append(.fragment(fragment))
            }
            return
        }
        fragments[key] = FragmentState()
        guard let parent = fragment.parent else {
            reachable.append(.fragment(fragment))
            return
        }
        include(parent, reachable: &reachable)
        switch fragments[ObjectIdentifier(parent)]?.status {
        case .delivered?: reachable.append(.fragment(fragment))
        case .failed?: fragments[key]?.status = .failed  // under a failed fragment: never announced
        default: fragments[ObjectIdentifier(parent)]?.children.append(.fragment(fragment))
        }
    }

    /// graphql-js `_promoteNonEmptyToRoot`: announces each fragment with a group (starting its
    /// groups) and each stream (starting it); a fragment without one passes its children on.
    private func promote(_ nodes: [DeliveryGroup], into parts: inout PayloadParts) {
        var queue = nodes
        var index = 0
        while index < queue.count {
            defer { index += 1 }
            switch queue[index] {
            case .fragment(let fragment):
                let key = ObjectIdentifier(fragment)
                guard let state = fragments[key], case .unannounced = state.status else { continue }
                if state.pending.isEmpty {
                    queue += state.children
                    continue
                }
                let id = nextId()
                fragments[key]?.status = .announced(id: id)
                openCount += 1
                parts.pending.append(PendingNotice(id: id, path: fragment.path, label: fragment.label))
                for group in state.pending { start(group, into: &parts) }
            case .stream(let stream):
                let key = ObjectIdentifier(stream)
                guard streamIds[key] == nil else { continue }
                let id = nextId()
                streamIds[key] = id
                openCount += 1
                parts.pending.append(PendingNotice(id: id, path: stream.path, label: stream.label))
                parts.work.append(.stream(stream))
            }
        }
    }

    private func start(_ group: PendingExecutionGroup, into parts: inout PayloadParts) {
        guard startedGroups.insert(ObjectIdentifier(group)).inserted else { return }
        parts.work.append(.executionGroup(group))
    }

    private func nextId() -> String {
        defer { announcedCount += 1 }
        return String(announcedCount)
    }

    /// Not delivered, not failed.
    private func isLive(_ fragment: DeferredFragmentRecord) -> Bool {
        switch fragments[ObjectIdentifier(fragment)]?.status {
        case .delivered?, .failed?: false
        default: true
        }
    }

    private func isAnnounced(_ fragment: DeferredFragmentRecord) -> Bool {
        if case .announced? = fragments[ObjectIdentifier(fragment)]?.status { return true }
        return false
    }

    private func isDeliveredOrRoot(_ parent: DeferredFragmentRecord?) -> Bool {
        guard let parent else { return true }
        if case .delivered? = fragments[ObjectIdentifier(parent)]?.status { return true }
        return false
    }
}
