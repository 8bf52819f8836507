import Synchronization

/// Where a server is in its shutdown, as its handler answers: `/readyz` turns 503 as soon as a
/// shutdown begins (a load balancer stops sending), GraphQL requests are still served for the
/// pre-stop delay (the balancer may need that long to notice), then refused at once with the
/// documented 503 while those in flight keep their grace.
///
/// Invariant: the phase only moves forward (serving → notReady → refusing).
final class ShutdownPhase: Sendable {
    enum Phase: UInt8, Comparable {
        case serving = 0
        /// `/readyz` answers 503; requests are still served (the pre-stop delay).
        case notReady = 1
        /// New GraphQL requests are refused; those in flight keep their grace.
        case refusing = 2

        static func < (lhs: Phase, rhs: Phase) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private let raw = Atomic<UInt8>(Phase.serving.rawValue)

    var current: Phase { Phase(rawValue: raw.load(ordering: .acquiring)) ?? .serving }

    /// Moves to `phase` unless the server is past it already.
    func advance(to phase: Phase) {
        var seen = raw.load(ordering: .relaxed)
        while seen < phase.rawValue {
            let (exchanged, original) = raw.compareExchange(
                expected: seen, desired: phase.rawValue, ordering: .acquiringAndReleasing)
            if exchanged { return }
            seen = original
        }
    }
}

/// What a shutdown did to the GraphQL requests it met: those that finished during the drain,
/// those answered 503 because the grace ran out (`unfinished`), and new ones refused at once.
public struct ShutdownCounts: Sendable, Equatable {
    public var finished = 0
    public var unfinished = 0
    public var refused = 0

    public init(finished: Int = 0, unfinished: Int = 0, refused: Int = 0) {
        self.finished = finished
        self.unfinished = unfinished
        self.refused = refused
    }

    func adding(finished: Int = 0, unfinished: Int = 0, refused: Int = 0) -> ShutdownCounts {
        ShutdownCounts(
            finished: self.finished + finished, unfinished: self.unfinished + unfinished,
            refused: self.refused + refused)
    }
}
