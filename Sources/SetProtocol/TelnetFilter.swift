#if canImport(Glibc)
    import Glibc
#endif

/// Takes telnet's commands (RFC 854/855) out of a client's byte stream, so `telnet` and PuTTY can play
/// beside `nc`: bytes in, data bytes for the ``LineFramer`` and bytes to send back out.
///
/// The rules, one connection's filter for its whole life:
/// - `IAC DO x` is answered `IAC WONT x` and `IAC WILL x` is answered `IAC DONT x`, at most once per
///   option and verb: setd supports no option, and answering a repeated request again could loop with a
///   client that repeats on every refusal. `IAC WONT x` and `IAC DONT x` get no answer (every option is
///   off already).
/// - `IAC SB … IAC SE` is dropped; `IAC IAC` inside it is part of it. A subnegotiation is counted, never
///   buffered; one longer than ``maximumSubnegotiationLength`` is not telnet, and the bytes after that
///   many are data again. `IAC` followed by anything but `SE` or `IAC` inside one ends it, and that byte
///   is read as the command after an `IAC`.
/// - `IAC IAC` is one data byte 0xFF (which is not UTF-8, so its line gets `ERR - BADUTF8`, as today).
///   The other commands (NOP, DM, BRK, IP, AO, AYT, EC, EL, GA, SE, EOF, SUSP, ABORT, EOR) are dropped
///   without an answer. `IAC` followed by a byte that is no command is left in the data as it is.
/// - With the commands taken out, `CR NUL` is a line end like `CR LF`: the NUL becomes an LF, and the
///   framer drops the CR before it. A CR followed by anything else stays data, as it is for `nc`.
/// - Nothing is ever sent back except the answers to `DO` and `WILL`: a client that sends no `IAC` gets
///   no byte from the filter, and a chunk without 0xFF and without `CR NUL` is passed on untouched, in
///   one piece, without being copied.
public struct TelnetFilter: Sendable {
    /// Telnet's command bytes (RFC 854, and EOF, SUSP, ABORT from RFC 1184, EOR from RFC 885).
    public enum Byte {
        /// Interpret as command.
        public static let iac: UInt8 = 255
        /// Refuses an option the peer offered: "don't".
        public static let dont: UInt8 = 254
        /// Asks the peer to use an option.
        public static let `do`: UInt8 = 253
        /// Refuses an option the peer asked for: "won't".
        public static let wont: UInt8 = 252
        /// Offers to use an option.
        public static let will: UInt8 = 251
        /// Begins a subnegotiation.
        public static let sb: UInt8 = 250
        /// Ends a subnegotiation.
        public static let se: UInt8 = 240
        /// The lowest command byte (EOF, RFC 1184); an `IAC` before a lower byte is no command.
        public static let lowestCommand: UInt8 = 236
    }

    /// The longest subnegotiation skipped, in bytes after `IAC SB`. We refuse every option, so a client
    /// has nothing to subnegotiate: real ones send a few bytes at most (a window size, a terminal
    /// type), and 1 KiB, a line's cap, is plenty; past it a stray `IAC SB` must not silence a connection.
    public static let maximumSubnegotiationLength = 1024

    private enum State: Sendable {
        case data
        /// After an `IAC`.
        case command
        /// After `IAC` and a verb (`WILL`, `WONT`, `DO`, `DONT`), waiting for the option.
        case option(UInt8)
        /// Inside `IAC SB`, with the number of bytes skipped so far (at most
        /// ``maximumSubnegotiationLength``: 16 bits keep every connection's filter one word smaller).
        case subnegotiation(UInt16)
        /// After an `IAC` inside a subnegotiation.
        case subnegotiationCommand(UInt16)
    }

    private var state = State.data
    /// Whether the last data byte passed on was a CR, for a `CR NUL` split across commands or reads.
    private var isAfterCR = false
    /// Options answered `WONT` (the client said `DO`) and `DONT` (the client said `WILL`), in a box made
    /// at the first one: only telnet clients negotiate, and every connection has a filter.
    private var refused: RefusedOptions?

    /// Creates the filter for a new connection.
    public init() {}

    /// Whether the filter is between bytes of a command or a subnegotiation.
    public var isInsideCommand: Bool {
        if case .data = state { return false }
        return true
    }

    /// Filters one chunk: calls `data` with each run of data bytes in order (the chunk itself when it
    /// has nothing to take out) and appends the answers to `replies`.
    public mutating func filter(
        _ bytes: UnsafeRawBufferPointer, replies: inout [UInt8], data: (UnsafeRawBufferPointer) -> Void
    ) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let count = bytes.count
        // The fast path, for every chunk from `nc` and most from telnet: `memchr` runs at memory speed.
        if case .data = state, memchr(base, Int32(Byte.iac), count) == nil, memchr(base, 0, count) == nil {
            isAfterCR = bytes[count - 1] == 0x0D
            data(bytes)
            return
        }
        var runStart = 0
        var index = 0
        // Where the next IAC and the next NUL are, at or after `index` (`count` for none): data between
        // them is skipped with `memchr`, not looked at byte by byte, so a chunk of junk with an IAC every
        // few hundred bytes costs about what a clean one does.
        var nextIAC = -1
        var nextNUL = -1
        /// Passes on the data bytes from `runStart` up to `index`.
        func flush() {
            if index > runStart { data(UnsafeRawBufferPointer(rebasing: bytes[runStart..<index])) }
        }
        while index < count {
            if case .data = state {
                if nextIAC < index {
                    nextIAC = Self.position(of: Byte.iac, in: base, from: index, count: count)
                }
                if nextNUL < index { nextNUL = Self.position(of: 0, in: base, from: index, count: count) }
                let next = min(nextIAC, nextNUL)
                if next > index {
                    isAfterCR = bytes[next - 1] == 0x0D
                    index = next
                    continue
                }
            }
            let byte = bytes[index]
            switch state {
            case .data:
                if byte == Byte.iac {
                    flush()
                    state = .command
                    runStart = index + 1
                } else if byte == 0 && isAfterCR {
                    flush()
                    Self.emit(0x0A, data)
                    isAfterCR = false
                    runStart = index + 1
                } else {
                    isAfterCR = byte == 0x0D
                }
            case .command:
                runStart = index + 1
                command(byte, data)
            case .option(let verb):
                runStart = index + 1
                state = .data
                answer(verb, option: byte, replies: &replies)
            case .subnegotiation(let length):
                runStart = index + 1
                if byte == Byte.iac {
                    state = .subnegotiationCommand(length + 1)
                } else {
                    skip(length + 1)
                }
            case .subnegotiationCommand(let length):
                runStart = index + 1
                if byte == Byte.se {
                    state = .data
                } else if byte == Byte.iac {
                    skip(length + 1)
                } else {
                    command(byte, data)
                }
            }
            index += 1
        }
        flush()
    }

    /// Filters `bytes` and returns the data and the answers: for tests and tools.
    public mutating func filter(_ bytes: [UInt8]) -> (data: [UInt8], replies: [UInt8]) {
        var output: [UInt8] = []
        var replies: [UInt8] = []
        bytes.withUnsafeBytes { raw in filter(raw, replies: &replies) { output.append(contentsOf: $0) } }
        return (output, replies)
    }

    /// The byte after an `IAC`, outside a subnegotiation or ending one.
    private mutating func command(_ byte: UInt8, _ data: (UnsafeRawBufferPointer) -> Void) {
        switch byte {
        case Byte.iac:
            state = .data
            Self.emit(Byte.iac, data)
            isAfterCR = false
        case Byte.will, Byte.wont, Byte.do, Byte.dont:
            state = .option(byte)
        case Byte.sb:
            state = .subnegotiation(0)
        case Byte.lowestCommand..<Byte.sb:
            // NOP, GA, AYT and the rest ask for nothing a line protocol has.
            state = .data
        default:
            // No command: the IAC was data after all, and so is this byte.
            state = .data
            Self.emit(Byte.iac, data)
            Self.emit(byte, data)
            isAfterCR = byte == 0x0D
        }
    }

    /// One more byte of a subnegotiation; past the cap it is given up and the next byte is data.
    private mutating func skip(_ length: UInt16) {
        state = length >= Self.maximumSubnegotiationLength ? .data : .subnegotiation(length)
    }

    /// Refuses `DO` and `WILL`, once per option each.
    private mutating func answer(_ verb: UInt8, option: UInt8, replies: inout [UInt8]) {
        guard verb == Byte.do || verb == Byte.will else { return }
        if refused == nil {
            refused = RefusedOptions()
        } else if !isKnownUniquelyReferenced(&refused) {
            // A copy of the filter answers for itself.
            refused = refused!.copy()
        }
        let options = refused!
        switch verb {
        case Byte.do:
            guard options.toDo.insert(option) else { return }
            replies += [Byte.iac, Byte.wont, option]
        default:
            guard options.toWill.insert(option) else { return }
            replies += [Byte.iac, Byte.dont, option]
        }
    }

    /// The index of the first `byte` in `base[from..<count]`, or `count`.
    private static func position(of byte: UInt8, in base: UnsafeRawPointer, from: Int, count: Int) -> Int {
        guard let found = memchr(base + from, Int32(byte), count - from) else { return count }
        return UnsafeRawPointer(found) - base
    }

    private static func emit(_ byte: UInt8, _ data: (UnsafeRawBufferPointer) -> Void) {
        withUnsafeBytes(of: byte) { data($0) }
    }
}

/// The options a filter refused, each once: `DO`s answered `WONT` and `WILL`s answered `DONT`.
private final class RefusedOptions: @unchecked Sendable {
    // Unchecked: mutated only through a filter that holds the only reference (see `answer`).
    var toDo = OptionBits()
    var toWill = OptionBits()

    /// A box of its own with the same options.
    func copy() -> RefusedOptions {
        let other = RefusedOptions()
        (other.toDo, other.toWill) = (toDo, toWill)
        return other
    }
}

/// A set of the 256 telnet options, in four words.
private struct OptionBits: Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// Adds `option`; returns whether it was new.
    mutating func insert(_ option: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(option & 63)
        func insert(into word: inout UInt64) -> Bool {
            defer { word |= bit }
            return word & bit == 0
        }
        switch option >> 6 {
        case 0: return insert(into: &words.0)
        case 1: return insert(into: &words.1)
        case 2: return insert(into: &words.2)
        default: return insert(into: &words.3)
        }
    }
}
