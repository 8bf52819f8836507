import SharedState
import Synchronization

/// A wall clock tests move by hand.
public final class TestClock: Sendable {
    private let now: Atomic<Int64>

    public init(_ start: Int64 = 1_790_000_000_000) {
        now = Atomic(start)
    }

    public var clock: WallClock { WallClock { self.now.load(ordering: .relaxed) } }

    public func advance(ms: Int64) {
        now.add(ms, ordering: .relaxed)
    }
}
