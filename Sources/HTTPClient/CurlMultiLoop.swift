import CCurl
import Foundation
import Synchronization

/// libcurl's multi interface on one dedicated thread: the thread loops `curl_multi_perform`,
/// `curl_multi_info_read` and `curl_multi_poll`; other threads hand it commands through a locked
/// inbox and wake it with `curl_multi_wakeup`. Every transfer's continuation is resumed on it.
final class CurlMultiLoop: Sendable {
    private enum Command {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
    }

    private struct Inbox {
        var commands: [Command] = []
        var stopping = false
        /// A wakeup was sent that the loop has not drained yet: further commands need none, which
        /// saves a socket write per transfer when many arrive at once.
        var wakeupPending = false

        /// Queues `command` and wakes the loop if no wakeup is on its way.
        mutating func post(_ command: Command, multi: UnsafeMutableRawPointer) {
            commands.append(command)
            if !wakeupPending {
                wakeupPending = true
                _ = curl_multi_wakeup(multi)
            }
        }
    }

    /// The multi handle. `@unchecked Sendable`: only the loop thread uses it, except for
    /// `curl_multi_wakeup` (thread-safe in libcurl), which is called under the inbox lock so that
    /// it never races the loop thread's final `curl_multi_cleanup`.
    private struct MultiHandle: @unchecked Sendable {
        let raw: UnsafeMutableRawPointer
    }

    private let multi: MultiHandle
    private let inbox = Mutex(Inbox())
    private let startedCount = Atomic<Int>(0)

    /// Transfers handed to this loop so far (for tests of how a client spreads its calls).
    var started: Int { startedCount.load(ordering: .relaxed) }

    /// Starts the loop thread. `maxConnections` bounds libcurl's connection cache (idle
    /// keep-alive connections kept for reuse).
    init(maxConnections: Int) {
        _ = CurlGlobal.initialized
        guard let raw = curl_multi_init() else {
            preconditionFailure("curl_multi_init failed: out of memory")
        }
        multi = MultiHandle(raw: raw)
        _ = mg_curl_multi_setopt_long(raw, CURLMOPT_MAXCONNECTS, max(1, maxConnections))
        // HTTP/2 upstreams (Google's APIs) take every transfer of a wave as a stream on one
        // connection instead of a connection each; libcurl's default since 7.62, said here because
        // the one-wave-per-level default of the in-flight cap relies on it.
        _ = mg_curl_multi_setopt_long(raw, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        let thread = Thread { [self] in run() }
        thread.name = "musicgraph-curl"
        thread.start()
    }

    /// Hands a configured transfer to the loop; its continuation must be set.
    func start(_ transfer: CurlTransfer) {
        startedCount.add(1, ordering: .relaxed)
        let accepted = inbox.withLock { inbox in
            guard !inbox.stopping else { return false }
            inbox.post(.start(transfer), multi: multi.raw)
            return true
        }
        if !accepted {
            transfer.finish(.cancelled)
        }
    }

    /// Aborts a transfer (its task was cancelled); harmless if it already finished.
    func cancel(_ transfer: CurlTransfer) {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return }
            inbox.post(.cancel(transfer), multi: multi.raw)
        }
    }

    /// Ends the loop: transfers in flight finish as cancelled, the thread exits.
    func stop() {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return }
            inbox.stopping = true
            _ = curl_multi_wakeup(multi.raw)
        }
    }

    // MARK: - Loop thread

    private func run() {
        var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        while true {
            let (commands, stopping) = inbox.withLock { inbox in
                defer {
                    inbox.commands = []
                    // Commands posted from now on wake the poll below (a wakeup is remembered until polled).
                    inbox.wakeupPending = false
                }
                return (inbox.commands, inbox.stopping)
            }
            for command in commands {
                switch command {
                case .start(let transfer):
                    switch transfer.lifecycle.arrived(stopping: stopping) {
                    case .add:
                        if curl_multi_add_handle(multi.raw, transfer.easy) == CURLM_OK {
                            active[transfer.easy] = transfer
                        } else {
                            transfer.lifecycle.addFailed()
                            transfer.finish(
                                .failed(code: Int(CURLE_FAILED_INIT.rawValue), message: "curl_multi_add_handle failed"))
                        }
                    case .finishCancelled:
                        transfer.finish(.cancelled)
                    case .removeAndFinishCancelled, .removeAndFinish, .none:
                        break
                    }
                case .cancel(let transfer):
                    perform(transfer.lifecycle.cancel(), on: transfer, code: CURLE_OK, active: &active)
                }
            }
            if stopping {
                for transfer in active.values {
                    perform(transfer.lifecycle.stopped(), on: transfer, code: CURLE_OK, active: &active)
                }
                curl_multi_cleanup(multi.raw)
                return
            }
            var running: Int32 = 0
            _ = curl_multi_perform(multi.raw, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi.raw, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = mg_curl_msg_result(message)  // read before removal invalidates the message
                if let transfer = active[easy] {
                    perform(transfer.lifecycle.completed(), on: transfer, code: code, active: &active)
                }
            }
            // Sleeps until a socket is ready, libcurl's next timeout, or a wakeup from another thread.
            _ = curl_multi_poll(multi.raw, nil, 0, 1_000, nil)
        }
    }
}

extension CurlMultiLoop {
    /// Carries out a lifecycle action for a transfer in the multi handle (loop thread only).
    private func perform(
        _ action: TransferLifecycle.Action, on transfer: CurlTransfer, code: CURLcode,
        active: inout [UnsafeMutableRawPointer: CurlTransfer]
    ) {
        switch action {
        case .removeAndFinishCancelled:
            active[transfer.easy] = nil
            curl_multi_remove_handle(multi.raw, transfer.easy)
            transfer.finish(.cancelled)
        case .removeAndFinish:
            active[transfer.easy] = nil
            curl_multi_remove_handle(multi.raw, transfer.easy)
            transfer.finish(code: code)
        case .add, .finishCancelled, .none:
            break
        }
    }
}

/// `curl_global_init`, once per process, before the first handle (a lazily initialised constant).
enum CurlGlobal {
    static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
}
