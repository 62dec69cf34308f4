import Dispatch
import SetSocket
import SetTestTraits
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A reader that keeps hundreds of KB queued but never passes the cap is never dropped; what it costs
/// the server must still be bounded by what is waiting for it, not by all that was ever sent to it.
/// Needs the kernel: a real socket takes part of each write, so the channel writes its buffer from the
/// middle and must compact it.
@Suite(.ownThread) struct OutputBufferTests {
    @Test(.stretchedTimeLimit(minutes: 1)) func aSlowReadersBufferIsCompactedAsItIsWritten() throws {
        let pair = try ChannelPair(label: "output-buffer-test")
        let (queue, channel, peer) = (pair.queue, pair.channel, pair.peer)
        defer { withExtendedLifetime(pair) {} }
        let chunk = [UInt8](repeating: 0x61, count: 32 << 10)
        var scratch = [UInt8](repeating: 0, count: 24 << 10)
        var sent = 0
        var worst = 0.0
        for round in 0..<600 {
            let (pending, retained) = queue.sync {
                channel.enqueue(chunk)
                channel.flush()
                return (channel.pendingOutput, channel.retainedOutput)
            }
            sent += chunk.count
            if pending > 0 { worst = max(worst, Double(retained) / Double(2 * pending + (64 << 10))) }
            // The reader takes less than is sent until about 600 KB wait, then keeps pace.
            let take = pending > 600 << 10 ? chunk.count : scratch.count / 2
            var got = 0
            while got < take {
                let n = scratch.withUnsafeMutableBytes {
                    read(peer, $0.baseAddress, min($0.count, take - got))
                }
                if n <= 0 { break }
                got += n
            }
            if round % 100 == 99 {
                #expect(pending < 1 << 20, "the queue stays under the cap: \(pending)")
            }
        }
        let retained = queue.sync { channel.retainedOutput }
        #expect(worst <= 1.0, "the buffer held more than twice what was waiting: \(worst)")
        #expect(sent > 10 * retained, "\(sent) bytes sent, \(retained) still held")
        queue.sync { channel.close() }
    }

    /// The same for a room's lines: small buffers are copied together onto buffers the queue owns, and
    /// those must be let go as they are written too, not grow into one buffer as long as everything sent.
    @Test(.stretchedTimeLimit(minutes: 1)) func aSlowReadersCopiedLinesAreLetGoAsTheyAreWritten() throws {
        let pair = try ChannelPair(label: "output-lines-test")
        let (queue, channel, peer) = (pair.queue, pair.channel, pair.peer)
        defer { withExtendedLifetime(pair) {} }
        var scratch = [UInt8](repeating: 0, count: 24 << 10)
        var expected: [UInt8] = []
        var received: [UInt8] = []
        var worst = 0.0
        for round in 0..<400 {
            let (pending, retained) = queue.sync {
                // A pass's lines: 300 of 40 to 140 bytes, each its own buffer.
                for i in 0..<300 {
                    let line = Array(
                        "CHAT r\(round) \(String(repeating: "z", count: 30 + (i * 7) % 101))\n".utf8)
                    expected += line
                    channel.enqueue(line)
                }
                channel.flush()
                return (channel.pendingOutput, channel.retainedOutput)
            }
            if pending > 0 { worst = max(worst, Double(retained) / Double(pending + (128 << 10))) }
            let take = pending > 600 << 10 ? 32 << 10 : scratch.count / 2
            var got = 0
            while got < take {
                let n = scratch.withUnsafeMutableBytes {
                    read(peer, $0.baseAddress, min($0.count, take - got))
                }
                if n <= 0 { break }
                received += scratch[..<n]
                got += n
            }
        }
        #expect(worst <= 1.0, "the queue held more than 128 KiB beyond what was waiting: \(worst)")
        // The rest (read without blocking, a bounded number of times), then every line must have arrived
        // once, in order.
        _ = fcntl(peer, F_SETFL, fcntl(peer, F_GETFL) | O_NONBLOCK)
        for _ in 0..<100_000 where received.count < expected.count {
            let pending = queue.sync {
                channel.flush()
                return channel.pendingOutput
            }
            let n = scratch.withUnsafeMutableBytes { read(peer, $0.baseAddress, $0.count) }
            if n > 0 { received += scratch[..<n] } else if pending == 0 { break }
        }
        #expect(received == expected)
        queue.sync {
            #expect(channel.retainedOutput == 0, "a drained channel holds no output")
            channel.close()
        }
    }

    /// A newcomer's few lines take a small tail; a member whose passes carry kilobytes starts each next
    /// tail at the size its last one needed, not grown again from the smallest; quiet passes shrink it
    /// back. A drained channel holds nothing either way.
    @Test func aTailStartsAtTheSizeTheLastPassNeeded() throws {
        let pair = try ChannelPair(label: "output-tail-size-test")
        let (queue, channel, peer) = (pair.queue, pair.channel, pair.peer)
        defer { withExtendedLifetime(pair) {} }
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        let line = Array("CHAT ann a line of about sixty bytes, as a busy room's are.....\n".utf8)
        /// Queues `lines` lines, says what the queue holds, then writes and reads them all.
        func pass(_ lines: Int) -> (held: Int, drained: Int) {
            let held = queue.sync {
                for _ in 0..<lines { channel.enqueue(line) }
                return channel.retainedOutput
            }
            let drained = queue.sync {
                channel.flush()
                return channel.retainedOutput
            }
            var got = 0
            while got < lines * line.count {
                let n = scratch.withUnsafeMutableBytes { read(peer, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                got += n
            }
            return (held, drained)
        }
        #expect(pass(1) == (1_024, 0), "a line takes the smallest tail")
        #expect(pass(60).held == 4_096, "sixty lines grow it to 4 KiB")
        #expect(pass(1) == (4_096, 0), "the next pass starts there")
        #expect(pass(1).held == 2_048, "a quiet pass halves it")
        #expect(pass(1).held == 1_024)
        #expect(pass(1) == (1_024, 0), "never below the smallest")
        queue.sync { channel.close() }
    }

    /// finish() writes what is queued and refuses what comes after; a channel finishing with output
    /// still waiting stays `.closing` until it drains.
    @Test func finishRefusesLaterOutputButWritesEarlier() throws {
        let pair = try ChannelPair(label: "output-finish-test")
        let (queue, channel, peer) = (pair.queue, pair.channel, pair.peer)
        defer { withExtendedLifetime(pair) {} }
        let big = [UInt8](repeating: 0x41, count: 1 << 20)
        let (state, later) = queue.sync {
            channel.enqueue(Array("first\n".utf8))
            channel.enqueue(big)
            channel.finish()
            return (channel.state, channel.enqueue(Array("after\n".utf8)))
        }
        #expect(state == .closing)
        #expect(later == false)
        var got: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        for _ in 0..<100_000 {
            let n = scratch.withUnsafeMutableBytes { read(peer, $0.baseAddress, $0.count) }
            if n > 0 { got += scratch[..<n] }
            let done = queue.sync {
                channel.flush()
                return channel.state == .closed
            }
            if done, n <= 0 { break }
        }
        #expect(got == Array("first\n".utf8) + big)
    }

    /// After the peer's FIN, with output still waiting, the channel is `.closing` and, as after
    /// `finish()`, takes nothing more: the shell relies on `enqueue`'s answer, not on the state.
    @Test func aPeerClosedChannelTakesNoMoreOutput() throws {
        let queue = DispatchQueue(label: "output-peer-closed-test")
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        let loop = queue.sync { EventLoop(queue: queue, driver: .dispatchSource) }
        let channel = queue.sync {
            let channel = SocketChannel(socket: Socket(fd: fds[0]), loop: loop, readBuffer: buffer)
            channel.onRead = { _ in }
            channel.start()
            channel.enqueue([UInt8](repeating: 0x42, count: 1 << 20))
            channel.flush()
            return channel
        }
        shutdown(fds[1], Int32(SHUT_WR))
        var state = SocketChannel.State.open
        for _ in 0..<1000 {
            state = queue.sync { channel.state }
            if state != .open { break }
            usleep(5000)
        }
        let taken = queue.sync { channel.enqueue(Array("late\n".utf8)) }
        #expect(state == .closing)
        #expect(taken == false, "a line queued after the peer's FIN")
        queue.sync { channel.close() }
    }
}

/// A channel on one end of a non-blocking Unix socket pair, on a queue of its own, and the other end for
/// the test to read; both ends and the read buffer go with it.
private final class ChannelPair {
    let queue: DispatchQueue
    let channel: SocketChannel
    let peer: Int32
    private let buffer: UnsafeMutableRawBufferPointer

    init(label: String) throws {
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        let (queue, buffer) = (
            DispatchQueue(label: label),
            UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        )
        (self.queue, self.buffer, peer) = (queue, buffer, ends[1])
        channel = queue.sync { SocketChannel(socket: Socket(fd: ends[0]), queue: queue, readBuffer: buffer) }
    }

    deinit {
        close(peer)
        buffer.deallocate()
    }
}
