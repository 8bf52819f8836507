import CMicroHTTPD
import Synchronization

/// What libmicrohttpd's callbacks share for one daemon: the handler, the limits, and the
/// registry of requests in flight that shutdown needs. Passed to C as the callbacks' `cls`,
/// retained from start until after `MHD_stop_daemon` returns.
final class DaemonState: Sendable {
  let handler: HTTPServer.Handler
  let configuration: HTTPServer.Configuration

  private struct Registry {
    /// Requests between their URI callback and their completion callback.
    var activeRequests = 0
    /// Suspended connections whose handler has not answered yet.
    var suspended: [ObjectIdentifier: RequestContext] = [:]
    /// Shutdown began: answers carry `Connection: close`.
    var draining = false
    /// Shutdown answered every suspended request; new ones are answered 503 at once.
    var forced = false
  }

  private let registry = Mutex(Registry())
  /// Resumes between a successful `RequestContext.answer` and the return of
  /// `MHD_resume_connection`. Shutdown waits for zero before `MHD_stop_daemon`, which must never
  /// see a suspended connection.
  private let resumesInProgress = Atomic<Int>(0)

  init(handler: @escaping HTTPServer.Handler, configuration: HTTPServer.Configuration) {
    self.handler = handler
    self.configuration = configuration
  }

  var activeRequests: Int { registry.withLock { $0.activeRequests } }
  var isDraining: Bool { registry.withLock { $0.draining } }
  var hasResumesInProgress: Bool { resumesInProgress.load(ordering: .sequentiallyConsistent) > 0 }

  func requestStarted() {
    registry.withLock { $0.activeRequests += 1 }
  }

  func requestCompleted(_ context: RequestContext) {
    registry.withLock { registry in
      registry.activeRequests -= 1
      registry.suspended[ObjectIdentifier(context)] = nil
    }
  }

  func beginDraining() {
    registry.withLock { $0.draining = true }
  }

  /// Runs the handler for a request whose connection was just suspended, with the deadline timer.
  func startHandling(_ context: RequestContext, request: HTTPRequest) {
    let accepted = registry.withLock { registry in
      guard !registry.forced else { return false }
      registry.suspended[ObjectIdentifier(context)] = context
      return true
    }
    guard accepted else {
      answer(context, with: .shuttingDown)
      return
    }
    let handler = self.handler
    let handlerTask = Task {
      let response = await handler(request)
      self.answer(context, with: response, fromHandler: true)
    }
    let timeoutMs = configuration.requestTimeoutMs
    let timer: Task<Void, Never>? =
      timeoutMs <= 0
      ? nil
      : Task {
        do {
          try await Task.sleep(for: .milliseconds(timeoutMs))
        } catch {
          return  // answered in time
        }
        self.answer(context, with: .deadlineExceeded(timeoutMs: timeoutMs))
      }
    context.attach(handlerTask: handlerTask, timer: timer)
  }

  /// Gives a suspended request its response and resumes the connection, unless it was answered
  /// already. Returns whether this call answered it; if so, and the answer is not the handler's,
  /// the handler's task is cancelled.
  @discardableResult
  func answer(_ context: RequestContext, with response: HTTPResponse, fromHandler: Bool = false) -> Bool {
    resumesInProgress.add(1, ordering: .sequentiallyConsistent)
    defer { resumesInProgress.subtract(1, ordering: .sequentiallyConsistent) }
    guard context.answer(response, fromHandler: fromHandler) else { return false }
    registry.withLock { _ = $0.suspended.removeValue(forKey: ObjectIdentifier(context)) }
    MHD_resume_connection(context.connection.raw)
    return true
  }

  /// Answers every request still waiting for its handler with `response`; requests suspended
  /// later are answered the same way as soon as they are.
  func answerAllSuspended(with response: HTTPResponse) {
    let waiting = registry.withLock { registry in
      registry.forced = true
      return Array(registry.suspended.values)
    }
    for context in waiting {
      answer(context, with: response)
    }
  }
}
