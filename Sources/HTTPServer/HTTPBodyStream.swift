import CMicroHTTPD
import Synchronization

/// A response body written while it is being sent: chunked transfer (RFC 9112 §7.1), each write
/// handed to the socket as soon as libmicrohttpd can take it, for answers whose parts become
/// ready one by one (multipart incremental delivery).
///
/// Give it as `HTTPResponse.bodyStream`; the server then ignores `HTTPResponse.body` and reads
/// this stream through `MHD_create_response_from_callback`. While no bytes are waiting the
/// connection is suspended (libmicrohttpd would otherwise call for bytes in a busy loop) and
/// resumed by the next `write` or `finish`; meanwhile the connection watchdog notices a client
/// that closes its connection. The writer learns that the body is no longer wanted (client gone,
/// server shut down) from `write`'s result and from `whenAbandoned`.
///
/// Thread-safe: the writer may write from any task, the server reads on its polling thread.
public final class HTTPBodyStream: Sendable {
    /// Where the stream is being sent, known from the moment the server queues it.
    struct Attachment: Sendable {
        let connection: ConnectionHandle
        let watched: WatchedConnection?
        /// Counts resumes in progress, which the daemon's stop must wait for.
        let daemon: DaemonState
    }

    private struct State {
        var pending: [UInt8] = []
        /// How much of `pending` the server has read already.
        var offset = 0
        var finished = false
        /// Why the body is no longer wanted; nothing more is sent once set.
        var abandoned: AbandonReason?
        /// The reader found no bytes and suspended the connection: the next write resumes it.
        var suspended = false
        /// The reader answered end of stream: the whole body went out.
        var ended = false
        var attachment: Attachment?
        var onAbandon: (@Sendable (AbandonReason) -> Void)?
    }

    private let state = Mutex(State())

    public init() {}

    /// Appends `bytes` to the body; they are sent as soon as the connection can take them.
    /// - Returns: false when the body is no longer wanted (the client left, or the server shut
    ///   down): the bytes are dropped, and so will every later write be.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        let (wanted, resume) = state.withLock { state -> (Bool, Attachment?) in
            guard state.abandoned == nil else { return (false, nil) }
            guard !state.finished else { return (true, nil) }
            state.pending += bytes
            return (true, Self.takeResume(&state))
        }
        if let resume { Self.resume(resume) }
        return wanted
    }

    /// Ends the body after what was written (the chunked body's last chunk follows it).
    public func finish() {
        let resume = state.withLock { state -> Attachment? in
            guard state.abandoned == nil, !state.finished else { return nil }
            state.finished = true
            return Self.takeResume(&state)
        }
        if let resume { Self.resume(resume) }
    }

    /// Why the body is no longer wanted, or nil while it is.
    public var abandonment: AbandonReason? { state.withLock { $0.abandoned } }

    /// Runs `action` once when the body is abandoned before it was all sent (from the thread that
    /// noticed: the watchdog's, a polling thread or the shutdown's), or at once if it already is.
    public func whenAbandoned(_ action: @escaping @Sendable (AbandonReason) -> Void) {
        let already = state.withLock { state -> AbandonReason? in
            guard let reason = state.abandoned else {
                state.onAbandon = action
                return nil
            }
            return reason
        }
        if let already { action(already) }
    }

    /// Ends the stream without the rest of its body: the connection is resumed if it waits, and
    /// the reader then tells libmicrohttpd to close it (a chunked body without its last chunk, so
    /// the client sees an incomplete answer, not a complete short one).
    func abandon(_ reason: AbandonReason) {
        let (resume, action) = state.withLock { state -> (Attachment?, (@Sendable (AbandonReason) -> Void)?) in
            guard state.abandoned == nil, !state.ended else { return (nil, nil) }
            state.abandoned = reason
            defer { state.onAbandon = nil }
            return (Self.takeResume(&state), state.onAbandon)
        }
        if let resume { Self.resume(resume) }
        action?(reason)
    }

    // MARK: - The server's side

    /// The server queued the stream on `attachment.connection`.
    func attach(_ attachment: Attachment) {
        state.withLock { $0.attachment = attachment }
    }

    /// libmicrohttpd's content reader (`MHD_ContentReaderCallback`), on the connection's polling
    /// thread: copies up to `max` waiting bytes into `buffer`; -1 at the end of the body, -2 to
    /// close the connection (abandoned); 0 after suspending the connection when nothing waits.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        state.withLock { state in
            if state.abandoned != nil { return -2 }
            let waiting = state.pending.count - state.offset
            if waiting > 0 {
                let count = min(max, waiting)
                state.pending.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(
                        from: bytes.baseAddress! + state.offset, byteCount: count)
                }
                state.offset += count
                if state.offset == state.pending.count {
                    state.pending.removeAll(keepingCapacity: true)
                    state.offset = 0
                }
                return count
            }
            if state.finished {
                state.ended = true
                return -1
            }
            guard let attachment = state.attachment else { return -2 }  // queued without attach: a bug
            // Under the lock a writer takes to decide on a resume, so no resume comes first.
            state.suspended = true
            MHD_suspend_connection(attachment.connection.raw)
            // libmicrohttpd does not look at a suspended connection; the watchdog does.
            attachment.watched?.watchForClose { [weak self] in self?.abandon(.clientClosed) }
            return 0
        }
    }

    /// libmicrohttpd is done with the response (`MHD_ContentReaderFreeCallback`): sent, or the
    /// connection failed or closed first, which abandons the body.
    func released() {
        let ended = state.withLock { $0.ended }
        if !ended { abandon(.clientClosed) }
    }

    /// Takes the suspension a write or an abandonment ends, counting the resume in progress
    /// before the lock is released (the daemon's stop waits for it).
    private static func takeResume(_ state: inout State) -> Attachment? {
        guard state.suspended, let attachment = state.attachment else { return nil }
        state.suspended = false
        attachment.daemon.resumeStarted()
        return attachment
    }

    private static func resume(_ attachment: Attachment) {
        attachment.watched?.stopWatchingForClose()
        MHD_resume_connection(attachment.connection.raw)
        attachment.daemon.resumeEnded()
    }
}
