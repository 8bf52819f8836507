import Glibc

/// Log lines written to a file descriptor in batches by a thread of its own, so that a request
/// does not pay a `write(2)` of its own: under load that call was a third of the server's
/// system calls and about a tenth of a cached answer's cost (bench/http-gateway.sh), the way
/// nginx's `access_log … buffer= flush=` trades it.
///
/// - Order: lines are written in the order `write(_:)` was called, each line whole and ended by
///   a newline.
/// - Delay: a line waits at most about `flushIntervalMs` milliseconds (default 5) after the
///   first of its batch: an idle writer wakes on the first line, then lets the batch gather
///   for that long. `flush()` writes everything at once (the server calls it on shutdown).
/// - Memory: at most `maxPendingBytes` (default 1 MiB) wait; past that, `write(_:)` blocks
///   until the batch is out, the backpressure an unbuffered `write(2)` gives when the
///   descriptor is slow (a full pipe).
/// - Errors: a batch the descriptor refuses (closed pipe, bad descriptor) is dropped, as an
///   unbuffered logger would drop its line; nothing waits on it. A closed pipe refuses with
///   EPIPE only where SIGPIPE is ignored (the musicgraph CLI ignores it); elsewhere the
///   signal ends the process first.
/// - Loss: lines still pending when the process dies without `flush()` (a crash, SIGKILL) are
///   lost: at most the last `flushIntervalMs`.
public final class LogWriter: @unchecked Sendable {
    // @unchecked Sendable: every mutable field below is only touched under `mutex`, except
    // `spare`, which only the flushing thread touches.

    public let fileDescriptor: Int32
    public let flushIntervalMs: Int
    public let maxPendingBytes: Int

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// The flushing thread waits here for lines, a `flush()` or the end.
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Writers blocked on a full buffer and `flush()` callers wait here for a written batch.
    private let drained = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var pending: [UInt8] = []
    private var spare: [UInt8] = []
    /// Bytes ever appended and ever written (or dropped), so `flush()` knows when its lines are out.
    private var appendedBytes = 0
    private var writtenBytes = 0
    /// The flushing thread is waiting for a first line (a writer must signal `wake`).
    private var idle = false
    /// Write now, without letting the batch gather (`flush()`, a full buffer).
    private var urgent = false
    private var stopping = false
    private var thread = pthread_t()

    /// Starts the flushing thread. Lines go to `fileDescriptor` (standard error by default),
    /// which the writer does not close.
    public init(fileDescriptor: Int32 = 2, flushIntervalMs: Int = 5, maxPendingBytes: Int = 1 << 20) {
        self.fileDescriptor = fileDescriptor
        self.flushIntervalMs = max(0, flushIntervalMs)
        self.maxPendingBytes = max(1, maxPendingBytes)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(wake, &attributes)
        pthread_cond_init(drained, &attributes)
        pthread_condattr_destroy(&attributes)
        // The thread holds the writer unretained; deinit stops and joins it before the fields go.
        let started = pthread_create(
            &thread, nil,
            { context in
                // Without a retain: a strong reference held by the thread would keep the writer
                // alive for as long as the thread runs, so deinit (which stops the thread and
                // writes what is pending) would never come.
                Unmanaged<LogWriter>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.runFlushing() }
                return nil
            }, Unmanaged.passUnretained(self).toOpaque())
        precondition(started == 0, "LogWriter: pthread_create failed (\(started))")
    }

    deinit {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_signal(wake)
        pthread_mutex_unlock(mutex)
        pthread_join(thread, nil)
        pthread_cond_destroy(wake)
        pthread_cond_destroy(drained)
        pthread_mutex_destroy(mutex)
        wake.deallocate()
        drained.deallocate()
        mutex.deallocate()
    }

    /// The sink for `GraphQLHTTPHandler.Configuration.logSink`.
    public var sink: @Sendable (RequestLog) -> Void {
        { [self] log in write(log) }
    }

    /// Queues `line` and a newline.
    public func write(_ line: String) {
        append { pending in pending.append(contentsOf: line.utf8) }
    }

    /// Queues `log.line` and a newline, formatted as bytes (not a String) before the lock is
    /// taken: formatting under it made the polling threads wait on each other.
    public func write(_ log: RequestLog) {
        let line = log.utf8
        append { pending in pending.append(contentsOf: line) }
    }

    private func append(_ writeLine: (inout [UInt8]) -> Void) {
        pthread_mutex_lock(mutex)
        while pending.count >= maxPendingBytes, !stopping {
            urgent = true
            pthread_cond_signal(wake)
            pthread_cond_wait(drained, mutex)
        }
        let before = pending.count
        writeLine(&pending)
        pending.append(UInt8(ascii: "\n"))
        appendedBytes += pending.count - before
        if idle {
            idle = false
            pthread_cond_signal(wake)
        }
        pthread_mutex_unlock(mutex)
    }

    /// Returns once every line queued before the call has been written (or dropped).
    public func flush() {
        pthread_mutex_lock(mutex)
        let target = appendedBytes
        if writtenBytes < target {
            urgent = true
            pthread_cond_signal(wake)
        }
        while writtenBytes < target {
            pthread_cond_wait(drained, mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    private func runFlushing() {
        pthread_mutex_lock(mutex)
        while true {
            while pending.isEmpty, !stopping {
                idle = true
                pthread_cond_wait(wake, mutex)
            }
            idle = false
            if pending.isEmpty { break }  // stopping, nothing left
            if !urgent, !stopping, flushIntervalMs > 0 {
                // Let the batch gather; `flush()`, a full buffer or the end cut the wait short.
                var deadline = timespec()
                clock_gettime(CLOCK_MONOTONIC, &deadline)
                let nanoseconds = deadline.tv_nsec + flushIntervalMs * 1_000_000
                deadline.tv_sec += nanoseconds / 1_000_000_000
                deadline.tv_nsec = nanoseconds % 1_000_000_000
                while !urgent, !stopping, pthread_cond_timedwait(wake, mutex, &deadline) == 0 {}
            }
            urgent = false
            swap(&pending, &spare)
            pthread_mutex_unlock(mutex)
            Self.writeAll(spare, to: fileDescriptor)
            let count = spare.count
            spare.removeAll(keepingCapacity: spare.capacity <= maxPendingBytes)
            pthread_mutex_lock(mutex)
            writtenBytes += count
            pthread_cond_broadcast(drained)
        }
        pthread_mutex_unlock(mutex)
    }

    /// Writes all of `bytes` (a closed or bad descriptor drops the rest).
    static func writeAll(_ bytes: [UInt8], to fileDescriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else if written < 0, errno == EAGAIN {
                    // A non-blocking descriptor that is full: wait until it takes more.
                    var poller = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&poller, 1, 1000)
                } else {
                    return
                }
            }
        }
    }
}
