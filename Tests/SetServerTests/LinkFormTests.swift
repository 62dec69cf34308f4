import Dispatch
import SetServerCore
import SetSocket
import SetTestSupport
import Testing

@testable import SetServer

#if canImport(Glibc)
    import Glibc
#endif

/// The shell's side of a connection, which every idle player holds, is one 48-byte block of malloc's,
/// and keeps its ID whether or not it waits to be flushed.
@Suite struct LinkFormTests {
    @Test(arguments: [1, 2, 12_345, Int(Int32.max) + 7])
    func aLinkIsOneSmallBlockAndKeepsItsID(id: Int) throws {
        let queue = DispatchQueue(label: "link-form-test")
        let shell = Shell(configuration: ServerConfiguration(), queue: queue)
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[1]) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 16)
        defer { buffer.deallocate() }
        let channel = queue.sync {
            SocketChannel(socket: Socket(fd: fds[0]), loop: EventLoop(queue: queue), readBuffer: buffer)
        }
        let link = Link(id: id, channel: channel, shell: shell)
        #expect(heapBlockSize(ofInstancesOf: Link.self) <= 40)
        #expect(link.id == id && !link.isMarkedForFlush)
        link.isMarkedForFlush = true
        #expect(link.id == id && link.isMarkedForFlush)
        link.isMarkedForFlush = true
        #expect(link.id == id && link.isMarkedForFlush)
        link.isMarkedForFlush = false
        #expect(link.id == id && !link.isMarkedForFlush)
        queue.sync { channel.close() }
    }
}
