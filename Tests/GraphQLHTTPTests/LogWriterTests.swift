import Foundation
import Glibc
import Synchronization
import Testing

@testable import GraphQLHTTP

/// The batched log writer, over a real pipe.
@Suite struct LogWriterTests {
    /// A pipe whose read end the test drains.
    final class Pipe: @unchecked Sendable {
        let readEnd: Int32
        let writeEnd: Int32

        init() {
            var ends: [Int32] = [0, 0]
            precondition(pipe(&ends) == 0)
            (readEnd, writeEnd) = (ends[0], ends[1])
            _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        }

        deinit {
            close(readEnd)
            close(writeEnd)
        }

        /// Reads until `lines` newlines arrived or `seconds` passed; the lines, without newlines.
        func read(lines wanted: Int, within seconds: Double = 5) -> [String] {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let end = Date().addingTimeInterval(seconds)
            while bytes.count(where: { $0 == UInt8(ascii: "\n") }) < wanted, Date() < end {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
                if count > 0 {
                    bytes.append(contentsOf: buffer[0..<count])
                } else {
                    usleep(1_000)
                }
            }
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        }
    }

    @Test func concurrentLinesArriveWholeAndInEachWritersOrder() {
        let pipe = Pipe()
        let writer = LogWriter(fileDescriptor: pipe.writeEnd, flushIntervalMs: 2)
        let collected = Mutex<[String]>([])
        let reader = Thread { collected.withLock { $0 = pipe.read(lines: 4_000) } }
        reader.start()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for number in 0..<1_000 {
                writer.write(#"{"thread":\#(thread),"n":\#(number)}"#)
            }
        }
        writer.flush()
        while collected.withLock({ $0.isEmpty }) { usleep(1_000) }
        let lines = collected.withLock { $0 }
        #expect(lines.count == 4_000)
        for thread in 0..<4 {
            let own = lines.filter { $0.hasPrefix(#"{"thread":\#(thread),"#) }
            #expect(own == (0..<1_000).map { #"{"thread":\#(thread),"n":\#($0)}"# })
        }
    }

    @Test func aLineIsWrittenWithinTheIntervalWithoutAFlush() {
        let pipe = Pipe()
        let writer = LogWriter(fileDescriptor: pipe.writeEnd, flushIntervalMs: 20)
        let start = Date()
        writer.write("first")
        #expect(pipe.read(lines: 1, within: 2) == ["first"])
        #expect(Date().timeIntervalSince(start) < 1)
        writer.write("second")
        writer.write("third")
        #expect(pipe.read(lines: 2, within: 2) == ["second", "third"])
    }

    @Test func aFullBufferMakesWritersWaitInsteadOfGrowing() {
        let pipe = Pipe()
        // 64 bytes at most wait: every second line waits for the batch before it.
        let writer = LogWriter(fileDescriptor: pipe.writeEnd, flushIntervalMs: 1_000, maxPendingBytes: 64)
        let start = Date()
        let lines = (0..<200).map { "line \($0) " + String(repeating: "x", count: 30) }
        for line in lines { writer.write(line) }
        writer.flush()
        // The gathering pause is cut short whenever the buffer is full: not 100 × 1 s.
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(pipe.read(lines: 200) == lines)
    }

    @Test func aRequestLogIsWrittenAsItsLine() {
        let pipe = Pipe()
        let writer = LogWriter(fileDescriptor: pipe.writeEnd, flushIntervalMs: 1)
        let log = RequestLog(
            time: "2026-11-29T14:03:07.123Z", requestID: "e06751e3-7", method: "POST", path: "/graphql\u{1}",
            status: 200, durationMs: 0.25, upstreamRequests: 0, cacheHits: 2)
        let expected =
            #"{"time":"2026-11-29T14:03:07.123Z","requestId":"e06751e3-7","method":"POST","#
            + #""path":"/graphql\u0001","status":200,"durationMs":0.25,"upstreamRequests":0,"cacheHits":2}"#
        writer.write(log)
        writer.flush()
        #expect(pipe.read(lines: 1) == [expected])
        #expect(log.line == expected)
    }

    @Test func aBadDescriptorDropsLinesWithoutBlocking() {
        let writer = LogWriter(fileDescriptor: -1, flushIntervalMs: 1)
        writer.write("lost")
        writer.flush()  // returns: the batch was dropped
        writer.write("also lost")
        writer.flush()
    }

    @Test func releasingTheWriterWritesWhatIsPending() {
        let pipe = Pipe()
        do {
            let writer = LogWriter(fileDescriptor: pipe.writeEnd, flushIntervalMs: 60_000)
            // Let the flushing thread start and wait for lines first: a thread that kept the
            // writer alive while it waited would then keep it from ever being released.
            usleep(50_000)
            writer.write("pending one")
            writer.write("pending two")
        }
        #expect(pipe.read(lines: 2, within: 2) == ["pending one", "pending two"])
    }
}
