import Dispatch
import Glibc
import Synchronization

/// Waiting for a termination signal without a handler function: the signals are ignored at the
/// process level (`SIG_IGN`) and observed through `DispatchSource` signal sources, which see them
/// on a Dispatch queue where any Swift code may run (a C signal handler may not).
enum TerminationSignal {
    /// Suspends until one of `signals` arrives; returns its number. The signals stay ignored
    /// afterwards, so a second Ctrl-C during the graceful shutdown does not kill the process.
    static func wait(for signals: [Int32]) async -> Int32 {
        let queue = DispatchQueue(label: "musicgraph.termination-signal")
        let sources = signals.map { number in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: queue)
        }
        let resumed = Atomic<Bool>(false)
        let received = await withCheckedContinuation { continuation in
            for (number, source) in zip(signals, sources) {
                source.setEventHandler {
                    guard !resumed.exchange(true, ordering: .sequentiallyConsistent) else { return }
                    continuation.resume(returning: number)
                }
                source.resume()
            }
        }
        for source in sources { source.cancel() }
        return received
    }
}
