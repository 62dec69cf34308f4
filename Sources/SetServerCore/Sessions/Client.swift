/// What the core knows of one open connection: who speaks on it, what it watches, and its clocks.
///
/// The socket itself belongs to the shell; the core knows the connection only by its ``id``.
///
/// Every open connection holds one, so it is kept to 72 bytes, an 80-byte block of malloc's (issue 28):
/// an IPv4 peer is 6 bytes inline, and what few clients have (a peer in any other form, a room watched)
/// is in a box made when first needed.
final class Client {
    let id: ConnectionID
    /// `address:port`, for the log.
    var peer: String { "\(peerText)" }
    /// The address the per-address limits count it under (an IPv6 address by its /64).
    var addressKey: String { peerText.key }
    /// The peer and its key as one value (see ``PeerText``).
    private var peerText: PeerText { rare?.peerText ?? PeerText(packed: packedPeer) }
    /// An IPv4 peer as ``PeerText/packed`` spells it (its key is its address), or `UInt64.max` when the
    /// peer is in another form, held in the box: one word, where a ``PeerText`` is nine bytes and, beside
    /// the flag that was in its padding, took two.
    private let packedPeer: UInt64
    /// The player this connection speaks for, after `HELLO` or `RESUME`.
    var session: Session?
    /// The room this connection watches as a spectator. Strong: a room holds its spectators by ID only,
    /// and leaves the core's table only once nobody watches (see ``Session/room`` for why not weak).
    var watching: Room? {
        get { rare?.watching }
        set {
            if newValue == nil, rare == nil { return }
            let box = rare ?? Rare(peerText: nil)
            box.watching = newValue
            rare = box.watching == nil && box.peerText == nil ? nil : box
        }
    }
    /// What few clients have, in a box made when first needed.
    private var rare: Rare?
    /// When the last complete line arrived.
    var lastActivity: Double
    /// When it connected (uptime), until it says `HELLO`, `RESUME` or `WATCH`; NaN from then on. Only the
    /// registration deadline reads it, and only until then.
    private(set) var unidentifiedSince: Double
    /// When the last server `PING` went out.
    var lastPingAt = -Double.infinity

    /// A client's rarely set state.
    private final class Rare {
        /// The peer, when it is not an IPv4 address keyed by itself.
        let peerText: PeerText?
        var watching: Room?

        init(peerText: PeerText?) { self.peerText = peerText }
    }

    convenience init(id: ConnectionID, peer: String, addressKey: String, at now: Double) {
        self.init(id: id, peer: PeerText(peer, key: addressKey), at: now)
    }

    /// A client at IPv4 `address` and `port`, counted under its address.
    convenience init(id: ConnectionID, ipv4 address: UInt32, port: UInt16, at now: Double) {
        self.init(id: id, peer: PeerText(ipv4: address, port: port), at: now)
    }

    private init(id: ConnectionID, peer: PeerText, at now: Double) {
        self.id = id
        if let packed = peer.packed {
            packedPeer = packed
        } else {
            packedPeer = .max
            rare = Rare(peerText: peer)
        }
        lastActivity = now
        unidentifiedSince = now
    }

    /// Whether the client ever said `HELLO`, `RESUME` or `WATCH`, for the registration deadline; once
    /// it has, it stays so.
    var hasIdentified: Bool {
        get { unidentifiedSince.isNaN }
        set {
            precondition(newValue, "a client that identified stays identified")
            unidentifiedSince = .nan
        }
    }
}

extension Client {
    /// Finds a client in a ``KeyedTable`` by its connection's ID.
    enum ByID: TableKeying {
        static func key(of client: Client) -> ConnectionID { client.id }
    }
}
