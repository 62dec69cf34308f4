import Dispatch
import SetSocket
import SetTestSupport
import SetTestTraits
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The event loop under the channels: many sockets on one epoll set, edge-triggered reads that stop at
/// the first short read, input past the per-event cap, the peer's close, and a blocked writer resuming.
/// Needs the kernel: epoll, short reads and blocked writes are what the kernel does with real sockets.
@Suite(.ownThread, .stretchedTimeLimit(minutes: 1)) struct EventLoopTests {
    /// A channel on one end of a socketpair, its other end, and what the channel saw.
    final class Pair {
        let channel: SocketChannel
        let peer: Int32
        var received: [UInt8] = []
        var reads = 0
        var ends: [SocketChannel.End] = []
        var isReleased = false

        init(loop: EventLoop, buffer: UnsafeMutableRawBufferPointer, readsPerEvent: Int = 4) throws {
            var fds: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
            _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
            peer = fds[1]
            channel = SocketChannel(
                socket: Socket(fd: fds[0]), loop: loop, readBuffer: buffer, readsPerEvent: readsPerEvent)
            channel.onRead = { [weak self] bytes in
                self?.received += bytes
                self?.reads += 1
            }
            channel.onEnd = { [weak self] end in self?.ends.append(end) }
            channel.onRelease = { [weak self] in self?.isReleased = true }
        }

        func write(_ bytes: [UInt8]) {
            #expect(bytes.withUnsafeBytes { Glibc.write(peer, $0.baseAddress, $0.count) } == bytes.count)
        }

        /// Reads the peer's end, `chunk` bytes at a time, until `count` bytes came or it ends.
        func readPeer(_ count: Int, chunk: Int) -> [UInt8] {
            var got: [UInt8] = []
            var scratch = [UInt8](repeating: 0, count: chunk)
            while got.count < count {
                let n = scratch.withUnsafeMutableBytes { read(peer, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                got += scratch[..<n]
            }
            return got
        }
    }

    let queue = DispatchQueue(label: "event-loop-test")
    /// Every test runs with the loop driven by Dispatch (the clients') and by its own thread (the
    /// server's): the channel's rules must not depend on which.
    static let drivers: [EventLoop.Driver] = [.dispatchSource, .ownThread]
    /// A 4 KiB read buffer, shared by the channels of a test as the server shares one.
    func makeBuffer() -> UnsafeMutableRawBufferPointer {
        .allocate(byteCount: 4096, alignment: 16)
    }

    /// A started channel on one end of a new socketpair, made on the queue.
    func startedPair(loop: EventLoop, buffer: UnsafeMutableRawBufferPointer) throws -> Pair {
        try queue.sync {
            let pair = try Pair(loop: loop, buffer: buffer)
            pair.channel.start()
            return pair
        }
    }

    /// Waits up to five seconds for `condition` (checked on the queue).
    func eventually(_ what: Comment, _ condition: @escaping () -> Bool) {
        for _ in 0..<1000 {
            if queue.sync(execute: condition) { return }
            usleep(5000)
        }
        Issue.record(what)
    }

    @Test(arguments: drivers) func manyReadySocketsAreEachReadOnceForOneBatch(driver: EventLoop.Driver) throws
    {
        let buffer = makeBuffer()
        defer { buffer.deallocate() }
        let loop = queue.sync { EventLoop(queue: queue, driver: driver) }
        let pairs = try queue.sync {
            try (0..<200).map { _ in
                let pair = try Pair(loop: loop, buffer: buffer)
                pair.channel.start()
                return pair
            }
        }
        defer { for pair in pairs { close(pair.peer) } }
        #expect(queue.sync { loop.channelCount } == 200)
        // Every peer writes before the loop runs again: one wake-up finds them all ready.
        queue.sync {
            for (i, pair) in pairs.enumerated() { pair.write(Array("line \(i)\n".utf8)) }
        }
        eventually("every channel read its line") { pairs.allSatisfy { !$0.received.isEmpty } }
        queue.sync {
            for (i, pair) in pairs.enumerated() {
                #expect(pair.received == Array("line \(i)\n".utf8))
                // A short read emptied the socket: no second read to meet EAGAIN.
                #expect(pair.channel.readCount == 1, "socket \(i): \(pair.channel.readCount) reads")
            }
            for pair in pairs { pair.channel.close() }
        }
        eventually("every channel released") { pairs.allSatisfy(\.isReleased) }
        #expect(queue.sync { loop.channelCount } == 0)
    }

    /// A channel closed by another's input earlier in the same batch (its owner letting go of it at
    /// once) hears nothing more, and every other channel is read as ever.
    @Test(arguments: drivers) func aChannelClosedEarlierInABatchHearsNothingMore(driver: EventLoop.Driver)
        throws
    {
        let buffer = makeBuffer()
        defer { buffer.deallocate() }
        let loop = queue.sync { EventLoop(queue: queue, driver: driver) }
        var pairs = try queue.sync { try (0..<100).map { _ in try Pair(loop: loop, buffer: buffer) } }
        let peers = pairs.map(\.peer)
        defer { for peer in peers { close(peer) } }
        var channels: [SocketChannel?] = pairs.map(\.channel)
        var readAfterClose = 0
        var closedUnread = 0
        queue.sync {
            for i in channels.indices {
                // Each channel's first input closes its partner (the other of its two), whichever of the
                // two the batch reaches first; the partner then must hear nothing more.
                let partner = i ^ 1
                channels[i]?.onRead = { _ in
                    if channels[i] == nil { readAfterClose += 1 }
                    guard let other = channels[partner] else { return }
                    other.close()
                    channels[partner] = nil
                    closedUnread += 1
                }
                channels[i]?.start()
            }
            for (i, peer) in peers.enumerated() {
                let line = Array("line \(i)\n".utf8)
                #expect(line.withUnsafeBytes { Glibc.write(peer, $0.baseAddress, $0.count) } == line.count)
            }
        }
        pairs = []
        eventually("one of each two channels read and closed the other") { closedUnread == 50 }
        queue.sync {
            #expect(readAfterClose == 0)
            #expect(channels.compactMap { $0 }.count == 50)
            #expect(loop.channelCount == 50)
            for channel in channels { channel?.close() }
        }
        eventually("every channel let go") { loop.channelCount == 0 }
    }

    /// On its own thread, work deferred from outside a pass (a timer or a `queue.async` of the server's)
    /// still runs, woken by the loop's eventfd: a flush asked for by a timer is not left until a socket
    /// happens to turn ready. Work deferred by deferred work waits for the next pass and runs too.
    @Test func theOwnThreadRunsWorkDeferredFromOutsideAPass() throws {
        final class State {
            let loop: EventLoop
            var ran: [String] = []
            init(loop: EventLoop) { self.loop = loop }
        }
        // Reached through `async` as the server's timers reach it: from off the loop's thread.
        let state = queue.sync {
            QueueConfined(State(loop: EventLoop(queue: queue, driver: .ownThread)), to: queue)
        }
        state.async { state in
            state.loop.runSoon {
                state.ran.append("first")
                state.loop.runSoon { state.ran.append("then") }
            }
        }
        eventually("the deferred work ran, and what it deferred") {
            state.access { $0.ran } == ["first", "then"]
        }
        // Again, now that the thread has blocked in epoll_wait once more.
        usleep(20_000)
        state.async { state in state.loop.runSoon { state.ran.append("again") } }
        eventually("work deferred later ran too") { state.access { $0.ran.count } == 3 }
    }

    /// A loop on its own thread is let go once its owner and its channels are: the thread holds it only
    /// during a pass, so a stopped server's sockets, tables and buffers do not live on behind it.
    @Test func aLoopOnItsOwnThreadIsLetGoWithItsChannels() throws {
        let buffer = makeBuffer()
        defer { buffer.deallocate() }
        weak var weakLoop: EventLoop?
        var pair: Pair? = try queue.sync { () throws -> Pair in
            let loop = EventLoop(queue: queue, driver: .ownThread)
            weakLoop = loop
            let pair = try Pair(loop: loop, buffer: buffer)
            pair.channel.start()
            return pair
        }
        pair?.write(Array("hello\n".utf8))
        eventually("the line was read on the loop's thread") { pair?.received == Array("hello\n".utf8) }
        #expect(queue.sync { weakLoop != nil }, "the channel holds its loop while it is open")
        close(try #require(pair).peer)
        eventually("the channel is released at the peer's close") { pair?.isReleased == true }
        // The test lets go of its channel too: what holds the loop now is only its thread, if anything.
        queue.sync { pair = nil }
        eventually("the loop is let go") { weakLoop == nil }
    }

    /// A channel is one block of malloc's 128 bytes (120 usable): the server holds one for every
    /// connection.
    @Test func aChannelIsOneSmallBlock() {
        #expect(heapBlockSize(ofInstancesOf: SocketChannel.self) <= 120)
    }

    @Test(arguments: drivers) func inputPastTheReadCapIsReadOnTheNextPass(driver: EventLoop.Driver) throws {
        let buffer = makeBuffer()
        defer { buffer.deallocate() }
        let loop = queue.sync { EventLoop(queue: queue, driver: driver) }
        // One read per event at most: 10 KiB waiting takes three passes through a 4 KiB buffer, though
        // edge-triggered epoll reports it only once.
        let pair = try queue.sync { try Pair(loop: loop, buffer: buffer, readsPerEvent: 1) }
        defer { close(pair.peer) }
        let data = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        pair.write(data)
        queue.sync { pair.channel.start() }
        eventually("all 10,000 bytes arrive") { pair.received.count == data.count }
        queue.sync {
            #expect(pair.received == data)
            #expect(pair.reads == 3)
            #expect(pair.ends.isEmpty)
            pair.channel.close()
        }
    }

    @Test(arguments: drivers) func wouldBlockLeavesTheChannelWaitingForTheNextEdge(driver: EventLoop.Driver)
        throws
    {
        let buffer = makeBuffer()
        defer { buffer.deallocate() }
        let loop = queue.sync { EventLoop(queue: queue, driver: driver) }
        let pair = try queue.sync { try Pair(loop: loop, buffer: buffer) }
        defer { close(pair.peer) }
        // Exactly a buffer's worth: the full read calls for another, which meets EAGAIN.
        let data = [UInt8](repeating: 0x41, count: 4096)
        pair.write(data)
        queue.sync { pair.channel.start() }
        eventually("the first batch arrives") { pair.received.count == 4096 }
        #expect(queue.sync { pair.channel.readCount } == 2)
        // A later batch brings a new edge.
        pair.write(Array("more\n".utf8))
        eventually("the second batch arrives") { pair.received.count == 4101 }
        queue.sync {
            #expect(pair.channel.readCount == 3)
            #expect(pair.channel.state == .open)
            pair.channel.close()
        }
    }

    @Test(arguments: drivers) func aPeersCloseEndsTheChannelAfterItsLastBytes(driver: EventLoop.Driver) throws
    {
        let buffer = makeBuffer()
        defer { buffer.deallocate() }
        let loop = queue.sync { EventLoop(queue: queue, driver: driver) }
        let pair = try startedPair(loop: loop, buffer: buffer)
        pair.write(Array("QUIT\n".utf8))
        // The peer's end of input (a FIN), its side still open to read: it then sees whether ours closed.
        shutdown(pair.peer, Int32(SHUT_WR))
        defer { close(pair.peer) }
        eventually("the channel ends") { pair.isReleased }
        queue.sync {
            #expect(pair.received == Array("QUIT\n".utf8), "the last bytes are read before the end")
            #expect(pair.ends == [.peerClosed])
            #expect(pair.channel.state == .closed)
        }
        // Our descriptor is closed: the peer reads the end of the stream. (Not `fcntl` on our number:
        // another test running beside this one may already have been given it.)
        var byte: UInt8 = 0
        #expect(recv(pair.peer, &byte, 1, Int32(MSG_DONTWAIT)) == 0, "the descriptor is closed")
    }

    /// The server's way: one delegate object per channel (no closures). It hears the bytes, the peer's
    /// close once (even when a write to the closed peer then fails), the release, and is let go then.
    @Test(arguments: drivers) func aDelegateHearsEachEventOnceAndIsLetGoAtRelease(driver: EventLoop.Driver)
        throws
    {
        final class Recorder: SocketChannelDelegate {
            var events: [String] = []
            func channel(_ channel: SocketChannel, read bytes: UnsafeRawBufferPointer) {
                events.append("read \(String(decoding: bytes, as: UTF8.self))")
                // Answering a peer that has gone: the write fails, and the end is not told twice.
                channel.enqueue(Array(repeating: 0x41, count: 1 << 16))
            }
            func channel(_ channel: SocketChannel, endedWith end: SocketChannel.End) {
                events.append("end \(end == .peerClosed ? "peer" : "other")")
                channel.flush()
            }
            func channelReleased(_ channel: SocketChannel) { events.append("released") }
        }
        let buffer = makeBuffer()
        defer { buffer.deallocate() }
        let loop = queue.sync { EventLoop(queue: queue, driver: driver) }
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        let recorder = Recorder()
        let channel = queue.sync {
            let channel = SocketChannel(socket: Socket(fd: fds[0]), loop: loop, readBuffer: buffer)
            channel.delegate = recorder
            channel.start()
            return channel
        }
        #expect(channel.delegate === recorder)
        #expect(
            Array("bye\n".utf8).withUnsafeBytes { Glibc.write(fds[1], $0.baseAddress, $0.count) } == 4)
        // The peer goes away entirely: our answer to it cannot be written.
        close(fds[1])
        eventually("the channel is released") { recorder.events.last == "released" }
        queue.sync {
            #expect(recorder.events == ["read bye\n", "end peer", "released"])
            #expect(channel.delegate == nil, "the channel lets its delegate go at release")
        }
    }

    @Test(arguments: drivers) func aWriteBlockedChannelResumesWhenThePeerReads(driver: EventLoop.Driver)
        throws
    {
        let buffer = makeBuffer()
        defer { buffer.deallocate() }
        let loop = queue.sync { EventLoop(queue: queue, driver: driver) }
        let pair = try startedPair(loop: loop, buffer: buffer)
        defer { close(pair.peer) }
        let data = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let pending = queue.sync {
            pair.channel.enqueue(data)
            pair.channel.flush()
            return pair.channel.pendingOutput
        }
        #expect(pending > 0, "a socketpair does not take 1 MiB at once")
        // Reading makes room; the writable edge makes the channel write the rest by itself.
        #expect(pair.readPeer(data.count, chunk: 64 << 10) == data)
        eventually("nothing is left waiting") { pair.channel.pendingOutput == 0 }
        queue.sync {
            #expect(pair.channel.state == .open)
            pair.channel.finish()
            #expect(pair.channel.state == .closed, "finish with nothing queued closes at once")
        }
    }

    /// A small send buffer, so the socket takes each write only in part.
    private func shrinkSendBuffer(of channel: SocketChannel) {
        var size: Int32 = 4096
        _ = setsockopt(channel.socket.fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// A room's event is one buffer queued on many channels, and a busy pass queues more lines than one
    /// gathered write takes (`IOV_MAX`): every line still arrives once, in order, whole, however the
    /// socket splits the writes, and the buffer shared with other queues is left as it was.
    @Test(arguments: drivers) func manyQueuedLinesLeaveInOrderAcrossPartialGatheredWrites(
        driver: EventLoop.Driver
    ) throws {
        let buffer = makeBuffer()
        defer { buffer.deallocate() }
        let loop = queue.sync { EventLoop(queue: queue, driver: driver) }
        let pair = try startedPair(loop: loop, buffer: buffer)
        defer { close(pair.peer) }
        shrinkSendBuffer(of: pair.channel)
        let shared = Array("EVENT shared by every member of the room\n".utf8)
        var expected: [UInt8] = []
        let pending = queue.sync {
            for i in 0..<(3 * Socket.maximumGather + 17) {
                let line =
                    i % 3 == 0 ? shared : Array("LINE \(i) \(String(repeating: "x", count: i % 97))\n".utf8)
                expected += line
                pair.channel.enqueue(line)
            }
            pair.channel.flush()
            return pair.channel.pendingOutput
        }
        #expect(pending < expected.count, "the first pass wrote something")
        #expect(pair.readPeer(expected.count, chunk: 4 << 10) == expected)
        #expect(shared == Array("EVENT shared by every member of the room\n".utf8))
        eventually("nothing is left waiting") { pair.channel.pendingOutput == 0 }
        queue.sync {
            #expect(pair.channel.retainedOutput == 0, "a drained channel holds no output")
            pair.channel.close()
        }
    }

    /// Runs of small lines are copied together and sent whole, big buffers are gathered; a queue that
    /// mixes them, written in part each time (a small send buffer), still arrives exactly as queued —
    /// what a write did not take stays queued, in order, whichever way the front was written — and the
    /// pending count falls by exactly what the socket took.
    @Test(arguments: drivers) func smallLinesCopiedTogetherAndBigBuffersArriveExactlyAcrossPartialWrites(
        driver: EventLoop.Driver
    ) throws {
        let buffer = makeBuffer()
        defer { buffer.deallocate() }
        let loop = queue.sync { EventLoop(queue: queue, driver: driver) }
        let pair = try startedPair(loop: loop, buffer: buffer)
        defer { close(pair.peer) }
        shrinkSendBuffer(of: pair.channel)
        var expected: [UInt8] = []
        let (queued, pending) = queue.sync {
            for run in 0..<6 {
                // A big buffer (a snapshot, a page): more than one owned chunk of lines holds.
                let big = (0..<(64 * 1024 + 1_000 * run + 7)).map {
                    UInt8(truncatingIfNeeded: $0 &* 31 &+ run)
                }
                expected += big
                pair.channel.enqueue(big)
                // Then a run of lines, more bytes than one copied-together write sends.
                for i in 0..<(1_500 + run * 300) {
                    let line = Array("CHAT p\(run) line \(i) \(String(repeating: "y", count: i % 41))\n".utf8)
                    expected += line
                    pair.channel.enqueue(line)
                }
            }
            let queued = pair.channel.pendingOutput
            pair.channel.flush()
            return (queued, pair.channel.pendingOutput)
        }
        #expect(queued == expected.count, "every queued byte is counted")
        #expect(pending > 0 && pending < queued, "the first flush wrote a part")
        #expect(pair.readPeer(expected.count, chunk: 4 << 10) == expected)
        eventually("nothing is left waiting") { pair.channel.pendingOutput == 0 }
        queue.sync {
            #expect(pair.channel.retainedOutput == 0, "a drained channel holds no output")
            pair.channel.close()
        }
    }

    // Outgoing connections are the clients' (set-cli, set-bench), whose loops Dispatch drives; the
    // server's own thread never connects out.
    @Test func anOutgoingConnectionConnectsOrSaysWhyNot() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let port = listener.localPort
        let buffer = makeBuffer()
        defer { buffer.deallocate() }
        let loop = queue.sync { EventLoop(queue: queue) }
        final class Outcome {
            var connected = false
            var ends: [SocketChannel.End] = []
        }
        let good = Outcome()
        let channel = try queue.sync {
            let channel = SocketChannel(
                socket: try Socket.connect(host: "127.0.0.1", port: port), loop: loop, readBuffer: buffer)
            channel.onConnect = { good.connected = true }
            channel.onEnd = { good.ends.append($0) }
            channel.startConnecting()
            return channel
        }
        eventually("the connection is made") { good.connected }
        queue.sync { channel.close() }
        listener.close()
        // A port bound and held but not listening: connecting to it is refused, and no other test's
        // listener can take it meanwhile (a port merely closed was once taken by one in between).
        let held = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(held) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(held, $0, length) == 0 && getsockname(held, $0, &length) == 0
            }
        }
        try #require(held >= 0 && bound, "a port to hold, errno \(errno)")
        let refusingPort = UInt16(bigEndian: address.sin_port)
        let bad = Outcome()
        try queue.sync {
            let refused = SocketChannel(
                socket: try Socket.connect(host: "127.0.0.1", port: refusingPort), loop: loop,
                readBuffer: buffer)
            refused.onConnect = { bad.connected = true }
            refused.onEnd = { bad.ends.append($0) }
            refused.startConnecting()
        }
        eventually("the refusal is reported") { !bad.ends.isEmpty }
        queue.sync {
            #expect(!bad.connected)
            if case .connectFailed = bad.ends.first {} else { Issue.record("\(bad.ends)") }
            #expect(good.ends.isEmpty, "a close asked for is not an end")
        }
    }
}
