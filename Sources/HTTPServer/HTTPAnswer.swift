/// A responder's answer to one request: given now, or computed later by async work (the
/// executor's value/later resolutions, for HTTP).
public enum HTTPAnswer: Sendable {
    /// The response, queued in the same libmicrohttpd call, with no task.
    case now(HTTPResponse)
    /// Work that produces the response in a task of its own (started on the polling thread with
    /// `Task.immediate`; the connection is suspended once it suspends). Cancelled when the
    /// request deadline passes or the server shuts down past its grace.
    case later(@Sendable () async -> HTTPResponse)
    /// The response, sent once `delay` has passed (an upstream's latency, for DemoUpstream): the
    /// connection is suspended meanwhile, with no task, and answered by the server's deadline
    /// thread; the request deadline's 503 comes first if it is sooner.
    case delayed(HTTPResponse, by: Duration)
}
