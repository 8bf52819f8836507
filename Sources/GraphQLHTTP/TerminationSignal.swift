import Dispatch
import Glibc
import Synchronization

/// Termination signals observed without a handler function: the signals are ignored at the
/// process level (`SIG_IGN`) and observed through `DispatchSource` signal sources, which see them
/// on a Dispatch queue where any Swift code may run (a C signal handler may not).
///
/// Listening starts in `init`, synchronously, so a server can listen before it tells anyone
/// its address: a signal sent the moment the address is known (a test, a supervisor stopping
/// a server it just started) is then never lost between "ignored" and "observed". The signals
/// stay ignored afterwards, so a second Ctrl-C during the graceful shutdown does not kill the
/// process.
public final class TerminationListener: Sendable {
    private struct State {
        var received: Int32?
        var waiter: CheckedContinuation<Int32, Never>?
    }

    private let state = Mutex(State())
    /// Kept for the listener's lifetime. A source is not Sendable; these are only touched in
    /// `init` (before the listener is shared) and `deinit` (after it no longer is).
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    /// Starts observing `signals` (ignoring them at the process level from now on).
    public init(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        let queue = DispatchQueue(label: "musicgraph.termination-signal")
        sources = signals.map { number in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: queue)
        }
        for (number, source) in zip(signals, sources) {
            source.setEventHandler { [weak self] in self?.deliver(number) }
            source.resume()
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// Suspends until one of the signals has arrived (at once when one came already); returns
    /// its number.
    public func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let received = state.withLock { state -> Int32? in
                if let received = state.received { return received }
                state.waiter = continuation
                return nil
            }
            if let received { continuation.resume(returning: received) }
        }
    }

    private func deliver(_ number: Int32) {
        let waiter = state.withLock { state -> CheckedContinuation<Int32, Never>? in
            guard state.received == nil else { return nil }
            state.received = number
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: number)
    }
}

enum TerminationSignal {
    /// Suspends until one of `signals` arrives; returns its number.
    static func wait(for signals: [Int32]) async -> Int32 {
        await TerminationListener(signals).wait()
    }
}
