import Glibc

/// What every command sets up before it runs, as servers do.
enum ProcessHygiene {
    /// - SIGPIPE is ignored: a write to a pipe whose reader has gone (a log shipper that
    ///   restarted, `| head`) fails with EPIPE and that output is dropped, instead of the
    ///   signal killing the server with requests in flight.
    /// - Standard descriptors 0–2 that the parent left closed (`2>&-`) are opened on
    ///   /dev/null, so that no socket or file opened later takes their number and receives the
    ///   request log or a client's bytes meant for stdout.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // open(2) returns the lowest free number: this one, as the lower ones are open.
            let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor {
                _ = dup2(opened, descriptor)
                close(opened)
            }
        }
    }
}
