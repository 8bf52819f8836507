import Synchronization

/// The most bytes one execution's `data` may take, enforced while the executor writes it
/// (MusicGraph's guard against amplification: a small document that asks for megabytes).
///
/// Every synchronous walk checks, each time it closes an object, the bytes of the walks that
/// are done (`committed`) plus its own so far; walks that run concurrently count once they are
/// done. Bytes of positions nulled later still count, so the figure is an upper bound of the
/// final `data`. Once over, the limit *trips*: every later check throws at once, so each walk
/// unwinds to its nearest nullable position and no pending field runs its resolver any more
/// (no more upstream calls), and `execute` answers `data: null` with one
/// `RESPONSE_TOO_LARGE` error instead of the partial bytes. Memory stays within about the
/// limit plus one object's leaves.
final class ResponseSizeLimit: Sendable {
    let maxBytes: Int
    private let committed = Atomic<Int>(0)
    private let state = Mutex<[PathComponent]?>(nil)

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// Whether the limit was crossed (then nothing more is to be written).
    var isTripped: Bool { state.withLock { $0 != nil } }

    /// A walk is done: its `bytes` count for every check from now on.
    func commit(_ bytes: Int) {
        committed.add(bytes, ordering: .relaxed)
    }

    /// Trips the limit when the committed bytes alone are over it, at `path` (a deferred or
    /// streamed walk just committed: a streamed list of leaves closes no object to check at).
    func tripIfOver(path: [PathComponent]) {
        guard committed.load(ordering: .relaxed) > maxBytes else { return }
        state.withLock { if $0 == nil { $0 = path } }
    }

    /// Throws when the walk writing `pending` bytes not committed yet takes `data` over the
    /// limit, or when the limit already tripped.
    @inline(__always) func check(pending: Int, path: ResponsePath) throws(FieldFailure) {
        if pending + committed.load(ordering: .relaxed) <= maxBytes && !isTripped { return }
        let components = path.components
        state.withLock { if $0 == nil { $0 = components } }
        throw FieldFailure(error: GraphQLError("Response too large.", path: components))
    }

    /// The one error of an execution the limit stopped, at `locations` (the operation's):
    /// its `path` is the object being written when the limit was crossed (every position up
    /// to the root is null then), `extensions` give the code and the limit. `incremental`: the
    /// payloads delivered before stay delivered, the rest of the data is not sent.
    func error(locations: [SourceLocation], incremental: Bool = false) -> GraphQLError {
        let path = state.withLock { $0 } ?? []
        let unsent = incremental ? "the rest of its data is not sent" : "none of its data is sent"
        return GraphQLError(
            "The response is larger than the limit of \(maxBytes) bytes; it was stopped and \(unsent). "
                + "Select fewer fields or smaller lists.",
            locations: locations, path: path,
            extensions: JSONObject([("code", .string(Self.code)), ("maximum", .int(maxBytes))]))
    }

    /// `extensions.code` of a response stopped by the limit.
    static let code = "RESPONSE_TOO_LARGE"
}
