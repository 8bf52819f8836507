import CHiredis
import Foundation
import SharedState

/// One connection to a Redis server, driven by a thread of its own: callers queue commands and
/// await their replies; the thread writes every queued command at once (pipelining), reads the
/// replies in order, and resumes each caller. hiredis's blocking calls carry the bounds: the
/// connect timeout, and a command timeout on every read and write (`redisSetTimeout`), so no
/// call waits longer than about two command timeouts.
///
/// A connection that fails is dropped; the next command connects again, at most once per
/// `reconnectDelayMs` (commands queued meanwhile fail at once: the caller works without the
/// store). `onStateChange` hears each transition between connected and not.
final class RedisConnection: @unchecked Sendable {
    // @unchecked: `context` and `nextConnectAtMs` are touched only by the connection's thread;
    // the queue is guarded by `condition`.
    typealias Completion = @Sendable (Result<RedisReply, SharedStoreError>) -> Void

    private struct Pending {
        var arguments: [[UInt8]]
        var deadline: ContinuousClock.Instant
        var completion: Completion
    }

    let host: String
    let port: Int
    let database: Int
    let connectTimeoutMs: Int
    let commandTimeoutMs: Int
    let reconnectDelayMs: Int
    private let onStateChange: @Sendable (_ connected: Bool, _ reason: String?) -> Void

    private let condition = NSCondition()
    private var queue: [Pending] = []
    private var stopped = false
    private var context: UnsafeMutablePointer<redisContext>?
    private var nextConnectAt = ContinuousClock.now
    private var connected: Bool?

    init(
        host: String, port: Int, database: Int, connectTimeoutMs: Int, commandTimeoutMs: Int,
        reconnectDelayMs: Int, onStateChange: @escaping @Sendable (Bool, String?) -> Void
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.connectTimeoutMs = max(1, connectTimeoutMs)
        self.commandTimeoutMs = max(1, commandTimeoutMs)
        self.reconnectDelayMs = max(0, reconnectDelayMs)
        self.onStateChange = onStateChange
        let thread = Thread { [self] in run() }
        thread.name = "musicgraph-redis"
        thread.start()
    }

    /// Sends one command (its arguments as bytes) and returns its reply; an error reply is a
    /// `.error` reply, not a failure.
    /// - Throws: `SharedStoreError` when Redis cannot be reached or does not answer in time.
    func send(_ arguments: [[UInt8]]) async throws(SharedStoreError) -> RedisReply {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(2 * commandTimeoutMs + connectTimeoutMs))
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<RedisReply, SharedStoreError>, Never>) in
            enqueue(Pending(arguments: arguments, deadline: deadline) { continuation.resume(returning: $0) })
        }
        return try result.get()
    }

    /// Ends the thread after the commands queued now; later ones fail.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func enqueue(_ pending: Pending) {
        condition.lock()
        if stopped {
            condition.unlock()
            pending.completion(.failure(SharedStoreError("the redis store is closed")))
            return
        }
        queue.append(pending)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopped { condition.wait() }
            let batch = queue
            queue.removeAll(keepingCapacity: true)
            let done = stopped && batch.isEmpty
            condition.unlock()
            if done { break }
            process(batch)
        }
        if let context { redisFree(context) }
        context = nil
    }

    private func process(_ batch: [Pending]) {
        let now = ContinuousClock.now
        var live: [Pending] = []
        for pending in batch {
            if pending.deadline <= now {
                pending.completion(.failure(SharedStoreError("redis at \(host):\(port) did not answer in time")))
            } else {
                live.append(pending)
            }
        }
        guard !live.isEmpty else { return }
        guard let context = connectIfNeeded() else {
            let reason = SharedStoreError("redis at \(host):\(port) is unreachable (\(lastConnectError))")
            for pending in live { pending.completion(.failure(reason)) }
            return
        }
        for pending in live { append(pending.arguments, to: context) }
        for (index, pending) in live.enumerated() {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == REDIS_OK, let raw else {
                let reason = Self.errorText(context)
                drop("lost: \(reason)")
                let failure = SharedStoreError("redis at \(host):\(port): \(reason)")
                for rest in live[index...] { rest.completion(.failure(failure)) }
                return
            }
            let reply = RedisReply(raw.assumingMemoryBound(to: redisReply.self))
            freeReplyObject(raw)
            pending.completion(.success(reply))
        }
    }

    private func append(_ arguments: [[UInt8]], to context: UnsafeMutablePointer<redisContext>) {
        // hiredis copies the arguments into its output buffer before returning.
        var lengths = arguments.map { $0.count }
        var copies = arguments.map { bytes -> UnsafeMutablePointer<CChar>? in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
            bytes.withUnsafeBytes { source in
                if let base = source.baseAddress {
                    UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: bytes.count)
                }
            }
            return copy
        }
        defer { for copy in copies { copy?.deallocate() } }
        copies.withUnsafeMutableBufferPointer { pointers in
            pointers.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: pointers.count) { argv in
                _ = redisAppendCommandArgv(context, Int32(arguments.count), argv, &lengths)
            }
        }
    }

    private var lastConnectError = "not connected yet"

    private func connectIfNeeded() -> UnsafeMutablePointer<redisContext>? {
        if let context { return context }
        guard ContinuousClock.now >= nextConnectAt else { return nil }
        nextConnectAt = ContinuousClock.now.advanced(by: .milliseconds(reconnectDelayMs))
        guard let fresh = redisConnectWithTimeout(host, Int32(port), Self.timeval(ms: connectTimeoutMs)) else {
            lastConnectError = "out of memory"
            noteState(false, lastConnectError)
            return nil
        }
        if fresh.pointee.err != 0 {
            lastConnectError = Self.errorText(fresh)
            redisFree(fresh)
            noteState(false, lastConnectError)
            return nil
        }
        _ = redisSetTimeout(fresh, Self.timeval(ms: commandTimeoutMs))
        _ = redisEnableKeepAlive(fresh)
        if database != 0 {
            append([Array("SELECT".utf8), Array(String(database).utf8)], to: fresh)
            var raw: UnsafeMutableRawPointer?
            let ok = redisGetReply(fresh, &raw) == REDIS_OK && raw != nil
            let reply = raw.map { RedisReply($0.assumingMemoryBound(to: redisReply.self)) }
            if let raw { freeReplyObject(raw) }
            guard ok, case .status = reply else {
                lastConnectError = ok ? "SELECT \(database) refused" : Self.errorText(fresh)
                redisFree(fresh)
                noteState(false, lastConnectError)
                return nil
            }
        }
        context = fresh
        noteState(true, nil)
        return fresh
    }

    private func drop(_ reason: String) {
        if let context { redisFree(context) }
        context = nil
        lastConnectError = reason
        noteState(false, reason)
    }

    private func noteState(_ now: Bool, _ reason: String?) {
        guard connected != now else { return }
        connected = now
        onStateChange(now, reason)
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        let text = withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "connection error \(context.pointee.err)" : text
    }

    private static func timeval(ms: Int) -> Foundation.timeval {
        Foundation.timeval(tv_sec: ms / 1_000, tv_usec: Int((ms % 1_000) * 1_000))
    }
}
