/// The life of one request between libmicrohttpd's callbacks and its async handler, as a pure
/// state machine: events come in, the caller (which owns the C connection) performs the action.
///
/// libmicrohttpd calls the access handler once when the headers are in, once per body chunk,
/// once when the body is complete, and once more after every resume. We answer in that last
/// call, because a response may only be queued from inside the access handler.
struct RequestLifecycle: Sendable {
  enum State: Sendable, Equatable {
    /// URI seen, headers not yet handed to us. → `receiving` or `answered` (body announced too large).
    case started
    /// Body bytes arriving; `bodyBytes` counted so far. → `handling` or `answered` (over the limit).
    case receiving(bodyBytes: Int, overLimit: Bool)
    /// Connection suspended, the handler task running. → `ready` (handler, deadline or shutdown).
    case handling
    /// Connection resumed with this response, waiting for libmicrohttpd's next call. → `answered`.
    case ready(HTTPResponse)
    /// Response queued to libmicrohttpd. Terminal.
    case answered
  }

  /// What the access handler does when it is called without body bytes.
  enum CallAction: Sendable, Equatable {
    /// Nothing to do yet: return MHD_YES.
    case proceed
    /// Queue this response now.
    case respond(HTTPResponse)
    /// Suspend the connection and start the handler.
    case suspendAndHandle
  }

  /// What to do with a body chunk.
  enum BodyAction: Sendable, Equatable {
    case append
    /// The body is over the limit: drop the bytes, answer 413 once it ends.
    case discard
  }

  private(set) var state: State = .started
  let maxBodyBytes: Int

  init(maxBodyBytes: Int) {
    self.maxBodyBytes = maxBodyBytes
  }

  /// The access handler was called with no body bytes. `contentLength` is the request's
  /// `Content-Length` header, if any (only read on the first call).
  mutating func called(contentLength: Int?) -> CallAction {
    switch state {
    case .started:
      // An announced oversized body is refused before it is read (no 100-continue is sent).
      if let contentLength, contentLength > maxBodyBytes {
        state = .answered
        return .respond(.payloadTooLarge(limitBytes: maxBodyBytes))
      }
      state = .receiving(bodyBytes: 0, overLimit: false)
      return .proceed
    case .receiving(_, let overLimit):
      if overLimit {
        state = .answered
        return .respond(.payloadTooLarge(limitBytes: maxBodyBytes))
      }
      state = .handling
      return .suspendAndHandle
    case .ready(let response):
      state = .answered
      return .respond(response)
    case .handling, .answered:
      return .proceed
    }
  }

  /// A body chunk of `count` bytes arrived.
  mutating func bodyReceived(count: Int) -> BodyAction {
    switch state {
    case .receiving(let bodyBytes, let overLimit):
      let total = bodyBytes + count
      let over = overLimit || total > maxBodyBytes
      state = .receiving(bodyBytes: total, overLimit: over)
      return over ? .discard : .append
    case .started, .handling, .ready, .answered:
      // Body bytes only come between the first and the last call; anything else is dropped.
      return .discard
    }
  }

  /// The handler, the deadline or a shutdown produced `response`. Returns true when this is the
  /// first answer, meaning the caller must resume the connection (exactly once).
  mutating func answer(_ response: HTTPResponse) -> Bool {
    guard case .handling = state else { return false }
    state = .ready(response)
    return true
  }
}
