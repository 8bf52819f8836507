import Dispatch
import Foundation
import Synchronization

/// Collects finished spans in a bounded queue and exports them in batches from a thread of its
/// own: every `interval`, or as soon as `batchSize` spans wait. A request never waits on the
/// export: when the queue holds `capacity` spans, new ones are dropped and counted (`dropped`).
public final class BatchSpanProcessor: Sendable {
    public let capacity: Int
    public let batchSize: Int
    public let interval: Duration
    private let queue = Mutex<[SpanData]>([])
    private let droppedCount = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    private let export: @Sendable ([SpanData]) -> Void

    /// - Parameter export: sends one batch, blocking its caller (the processor's thread) until
    ///   it is sent or given up; its own timeout bounds it.
    public init(
        capacity: Int = 4096, batchSize: Int = 512, interval: Duration = .milliseconds(1000),
        export: @escaping @Sendable ([SpanData]) -> Void
    ) {
        self.capacity = max(1, capacity)
        self.batchSize = max(1, batchSize)
        self.interval = interval
        self.export = export
        let thread = Thread { [self] in run() }
        thread.name = "musicgraph-trace-export"
        thread.start()
    }

    /// Spans dropped because the queue was full.
    public var dropped: Int { droppedCount.load(ordering: .relaxed) }

    /// Queues `span` for export, or drops it when the queue is full. Never blocks on the export.
    func enqueue(_ span: SpanData) {
        let count: Int? = queue.withLock { queue in
            guard queue.count < capacity else { return nil }
            queue.append(span)
            return queue.count
        }
        guard let count else {
            droppedCount.add(1, ordering: .relaxed)
            return
        }
        if count == batchSize { wake.signal() }
    }

    /// Exports what is queued and stops the thread, waiting at most `timeout` for it.
    public func shutdown(timeout: Duration = .seconds(2)) {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        let milliseconds = Int(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        _ = stopped.wait(timeout: .now() + .milliseconds(milliseconds))
    }

    private func run() {
        let milliseconds = Int(
            interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        while true {
            _ = wake.wait(timeout: .now() + .milliseconds(max(1, milliseconds)))
            let stop = stopping.load(ordering: .acquiring)
            while true {
                let batch: [SpanData] = queue.withLock { queue in
                    let taken = Array(queue.prefix(batchSize))
                    queue.removeFirst(taken.count)
                    return taken
                }
                if batch.isEmpty { break }
                export(batch)
                if batch.count < batchSize { break }
            }
            if stop {
                stopped.signal()
                return
            }
        }
    }
}
