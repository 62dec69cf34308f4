import Dispatch
import SetDiscovery
import SetProtocol
import SetSocket

#if canImport(Glibc)
    import Glibc
#endif

/// `setd --announce`: the multicast sockets and timer around a ``Responder``. Every decision (what to
/// answer, when, whether a packet came from the link) is the responder's; this reads datagrams, reads
/// the clock, and sends what it returns.
///
/// Ownership rule: created, driven and stopped on the shell's queue, like everything of the shell.
final class Announcer {
    private let queue: DispatchQueue
    private let logger: Logger
    private let responder: Responder
    private let isHTTPEnabled: Bool
    /// The sockets that joined the group on each interface, by interface index.
    private let members: [UInt32: [DatagramSocket]]
    private var sockets: [DatagramSocket] = []
    private var sources: [DispatchSourceRead] = []
    private let timer: DispatchSourceTimer
    private let buffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: DNSMessage.maximumSize, alignment: 16)
    private var counts: (rooms: Int, players: Int)
    private var isStopped = false

    /// Datagrams read per readiness event, so a flood of mDNS traffic cannot starve the game.
    static let datagramsPerEvent = 64

    /// Starts announcing `port` on every multicast interface (only the one holding `host`, when setd
    /// listens on one address); `nil`, with the reason logged, when no interface can carry mDNS.
    static func start(
        port: UInt16, host: String?, isHTTPEnabled: Bool, counts: (rooms: Int, players: Int),
        queue: DispatchQueue, logger: Logger
    ) -> Announcer? {
        dispatchPrecondition(condition: .onQueue(queue))
        let listened = host.flatMap(NetworkInterface.numericAddress)
        let isEveryAddress = listened.map { $0.allSatisfy { $0 == 0 } } ?? true
        var chosen: [LinkInterface] = []
        for interface in NetworkInterface.all() where interface.isUp && interface.isMulticast {
            var addresses = interface.addresses
            if !isEveryAddress, let listened {
                addresses = addresses.filter { $0.bytes == listened }
                guard !addresses.isEmpty else { continue }
            }
            chosen.append(
                LinkInterface(
                    index: interface.index, name: interface.name,
                    addresses: addresses.compactMap { address in
                        IPAddress(bytes: address.bytes).map {
                            LinkInterface.Prefixed($0, prefixLength: address.prefixLength)
                        }
                    }))
        }
        var members: [UInt32: [DatagramSocket]] = [:]
        var sockets: [DatagramSocket] = []
        for isIPv6 in [false, true] {
            let socket: DatagramSocket
            do {
                socket = try DatagramSocket.open(ipv6: isIPv6, port: ResponderTiming.port, sharesPort: true)
            } catch {
                logger.log(
                    .warn, "mdns-socket", [("family", isIPv6 ? "ipv6" : "ipv4"), ("error", "\(error)")])
                continue
            }
            var joinedAny = false
            for interface in chosen {
                do {
                    try socket.join(
                        group: isIPv6 ? DatagramSocket.mdnsGroupIPv6 : DatagramSocket.mdnsGroupIPv4,
                        interface: interface.index)
                    members[interface.index, default: []].append(socket)
                    joinedAny = true
                } catch {
                    logger.log(
                        .debug, "mdns-join",
                        [
                            ("interface", interface.name), ("family", isIPv6 ? "ipv6" : "ipv4"),
                            ("error", "\(error)"),
                        ])
                }
            }
            if joinedAny { sockets.append(socket) } else { socket.close() }
        }
        let served = chosen.filter { members[$0.index] != nil }
        guard !served.isEmpty else {
            for socket in sockets { socket.close() }
            logger.log(
                .warn, "mdns-off",
                [("reason", "no interface that is up and multicast-capable could join the mDNS group")])
            return nil
        }
        let advertisement = ServiceAdvertisement(
            instanceName: "setd", hostLabel: ServiceAdvertisement.hostLabel(fromHostName: hostName()),
            port: port,
            services: services(counts: counts, isHTTPEnabled: isHTTPEnabled))
        let announcer = Announcer(
            responder: Responder(advertisement: advertisement, interfaces: served), members: members,
            sockets: sockets, counts: counts, isHTTPEnabled: isHTTPEnabled, queue: queue, logger: logger)
        logger.log(
            .info, "mdns-start",
            [("interfaces", served.map(\.name).joined(separator: ",")), ("port", "\(port)")])
        announcer.perform(announcer.responder.start(at: SystemClock.now().uptime))
        return announcer
    }

    private init(
        responder: Responder, members: [UInt32: [DatagramSocket]], sockets: [DatagramSocket],
        counts: (rooms: Int, players: Int), isHTTPEnabled: Bool, queue: DispatchQueue, logger: Logger
    ) {
        self.responder = responder
        self.members = members
        self.sockets = sockets
        self.counts = counts
        self.isHTTPEnabled = isHTTPEnabled
        self.queue = queue
        self.logger = logger
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [unowned self] in
            self.perform(self.responder.wake(at: SystemClock.now().uptime))
        }
        timer.resume()
        for socket in sockets {
            let source = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: queue)
            source.setEventHandler { [unowned self] in self.readAvailable(socket) }
            source.setCancelHandler { socket.close() }
            source.resume()
            sources.append(source)
        }
    }

    deinit { buffer.deallocate() }

    /// The TXT strings of both services for these counts.
    private static func services(counts: (rooms: Int, players: Int), isHTTPEnabled: Bool)
        -> [ServiceAdvertisement.Service]
    {
        DiscoveryTXT.services(
            version: Release.version, protocolVersion: Release.protocolVersion, rooms: counts.rooms,
            players: counts.players, isHTTPEnabled: isHTTPEnabled)
    }

    private static func hostName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Tells the responder the current counts; a change reaches the TXT records.
    func update(counts: (rooms: Int, players: Int)) {
        guard !isStopped, counts != self.counts else { return }
        self.counts = counts
        perform(
            responder.update(
                txt: Self.services(counts: counts, isHTTPEnabled: isHTTPEnabled), at: SystemClock.now().uptime
            ))
    }

    /// Says goodbye (TTL 0) on every interface, then closes the sockets.
    func stop() {
        guard !isStopped else { return }
        perform(responder.stop(at: SystemClock.now().uptime))
        isStopped = true
        timer.cancel()
        for source in sources { source.cancel() }
        sources = []
    }

    private func readAvailable(_ socket: DatagramSocket) {
        for _ in 0..<Self.datagramsPerEvent {
            let datagram: DatagramSocket.Datagram?
            do {
                datagram = try socket.receive(into: buffer)
            } catch {
                logger.log(.warn, "mdns-receive", [("error", "\(error)")])
                return
            }
            guard let datagram, let address = IPAddress(bytes: datagram.source) else { return }
            let group = socket.isIPv6 ? DatagramSocket.mdnsGroupIPv6 : DatagramSocket.mdnsGroupIPv4
            let source = Responder.Source(
                address: address, port: datagram.sourcePort, interface: datagram.interface,
                isToGroup: datagram.destination == group, hopLimit: datagram.hopLimit)
            let bytes = Array(UnsafeRawBufferPointer(rebasing: buffer[..<min(datagram.count, buffer.count)]))
            perform(responder.received(bytes, from: source, at: SystemClock.now().uptime))
        }
    }

    private func perform(_ output: Responder.Output) {
        for note in output.notes { log(note) }
        for packet in output.packets {
            let bytes = packet.message.encoded
            switch packet.destination {
            case .multicast(let interface):
                let source = responder.interfaces.first { $0.index == interface }?.addresses
                    .first { !$0.address.isIPv6 }?.address.bytes
                for socket in members[interface] ?? [] {
                    let group = socket.isIPv6 ? DatagramSocket.mdnsGroupIPv6 : DatagramSocket.mdnsGroupIPv4
                    send(
                        bytes, on: socket, to: group, port: ResponderTiming.port, interface: interface,
                        source: source)
                }
            case .unicast(let address, let port, let interface):
                guard let socket = sockets.first(where: { $0.isIPv6 == address.isIPv6 }) else { continue }
                send(bytes, on: socket, to: address.bytes, port: port, interface: interface)
            }
        }
        guard !isStopped else { return }
        if let wake = responder.nextWake {
            let delay = max(0, wake - SystemClock.now().uptime)
            timer.schedule(deadline: .now() + .nanoseconds(Int(delay * 1e9)), leeway: .milliseconds(2))
        } else {
            timer.schedule(deadline: .distantFuture)
        }
    }

    private func send(
        _ bytes: [UInt8], on socket: DatagramSocket, to address: [UInt8], port: UInt16, interface: UInt32,
        source: [UInt8]? = nil
    ) {
        do {
            try socket.send(bytes, to: address, port: port, interface: interface, source: source)
        } catch {
            logger.log(.debug, "mdns-send", [("error", "\(error)")])
        }
    }

    private func log(_ note: Responder.Note) {
        switch note {
        case .probing(let instance, let host):
            logger.log(.debug, "mdns-probe", [("instance", instance), ("host", host)])
        case .announced(let instance, let host):
            logger.log(.info, "mdns-announced", [("instance", instance), ("host", host)])
        case .conflict(let name, let renamedTo):
            logger.log(.warn, "mdns-conflict", [("name", name), ("renamed-to", renamedTo)])
        case .lostTiebreak(let name):
            logger.log(.info, "mdns-tiebreak", [("name", name)])
        case .offLink(let address):
            logger.log(.debug, "mdns-off-link", [("from", "\(address)")])
        }
    }
}
