import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

/// Actions at their instants from the queue's one thread.
@Suite struct DeadlineQueueTests {
    static let ms: UInt64 = 1_000_000

    /// What ran, in order, and when (monotonic nanoseconds).
    final class Ran: Sendable {
        let entries = Mutex<[(name: String, at: UInt64)]>([])
        func action(_ name: String) -> @Sendable () -> Void {
            { self.entries.withLock { $0.append((name, ConnectionWatchdog.now())) } }
        }
        var all: [String] { entries.withLock { $0.map(\.name) } }
        func at(_ name: String) -> UInt64? { entries.withLock { $0.first { $0.name == name }?.at } }
    }

    @Test func actionsRunInDeadlineOrderNotBefore() async throws {
        let queue = DeadlineQueue()
        let ran = Ran()
        let start = ConnectionWatchdog.now()
        queue.schedule(at: start + 60 * Self.ms, ran.action("c"))
        queue.schedule(at: start + 20 * Self.ms, ran.action("a"))
        queue.schedule(at: start + 40 * Self.ms, ran.action("b"))
        queue.schedule(at: start - 5 * Self.ms, ran.action("past"))  // passed already: at once
        await waitUntil(seconds: 5) { ran.all.count == 4 }
        #expect(ran.all == ["past", "a", "b", "c"])
        for (name, ms) in [("a", 20), ("b", 40), ("c", 60)] {
            #expect((ran.at(name) ?? 0) >= start + UInt64(ms) * Self.ms, "\(name) ran early")
        }
        #expect(queue.pending == 0)
    }

    @Test func aCancelledActionNeverRuns() async throws {
        let queue = DeadlineQueue()
        let ran = Ran()
        let now = ConnectionWatchdog.now()
        let early = queue.schedule(at: now + 10 * Self.ms, ran.action("early"))
        queue.schedule(at: now + 30 * Self.ms, ran.action("kept"))
        queue.cancel(early)
        queue.cancel(early)  // twice is harmless
        #expect(queue.pending == 1)
        try await Task.sleep(for: .milliseconds(100))
        #expect(ran.all == ["kept"])
    }

    /// A queue whose actions are mostly cancelled (request deadlines of requests answered in
    /// time) keeps only the live ones.
    @Test func cancelledActionsDoNotPileUp() async throws {
        let queue = DeadlineQueue()
        let ran = Ran()
        let far = ConnectionWatchdog.now() + 60_000 * Self.ms
        for round in 0..<10_000 {
            queue.cancel(queue.schedule(at: far + UInt64(round), ran.action("never")))
        }
        let live = queue.schedule(at: far, ran.action("live"))
        #expect(queue.pending == 1)
        #expect(queue.heapCount < 200)
        queue.cancel(live)
        #expect(ran.all == [])
    }

    @Test func aStoppedQueueRunsNothingMore() async throws {
        let queue = DeadlineQueue()
        let ran = Ran()
        queue.schedule(at: ConnectionWatchdog.now() + 20 * Self.ms, ran.action("late"))
        queue.stop()
        try await Task.sleep(for: .milliseconds(60))
        #expect(ran.all == [])
        #expect(queue.pending == 0)
    }
}
