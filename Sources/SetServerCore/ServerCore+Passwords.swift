import SetDigest
import SetProtocol

/// Private rooms' passwords: hashed as keys are, and checked.
extension ServerCore {
    /// How a password asked for in room `room` (created with it, or changed by `NEW`) is kept: the room's
    /// `current` hash when it is the same password (so a `NEW` naming it changes nothing); else the hash
    /// of an archived private game of that name it matches, so the games played under it before stay
    /// readable to its players (`HISTORY`); else a new hash under a fresh 16-byte salt.
    func passwordSealer(for room: String, current: PasswordHash?) -> (String) -> PasswordHash {
        { [self] clear in
            if let current, current.matches(clear) { return current }
            var tried: Set<String> = []
            for game in (archive.games[room] ?? []).reversed() {
                guard let text = game.password, tried.insert(text).inserted,
                    let hash = PasswordHash(text: text)
                else { continue }
                if hash.matches(clear) { return hash }
            }
            return PasswordHash(
                secret: clear, salt: random.bytes(16), iterations: configuration.keyHashIterations)
        }
    }

    /// Whether `given` opens `room` for `verb` (`JOIN`, `WATCH`): `nil` for a public room or the right
    /// password, else why not: `NOSUCHROOM` in the same words as for no room at all (a private room is
    /// no room to anyone without its password), or `BACKOFF` while the address waits after wrong ones.
    func checkRoomPassword(_ room: Room, given: String?, verb: Verb, on connection: Client, at now: Instant)
        -> ProtocolError?
    {
        guard let secret = room.options.password else { return nil }
        // No password is no guess: it is refused without a check, and costs nothing.
        guard let given else { return noSuchRoom(verb, room.name) }
        if let refusal = guessRefusal(verb, from: connection, name: nil, at: now) { return refusal }
        guard secret.matches(given) else {
            noteWrongGuess(from: connection, name: nil, at: now)
            return noSuchRoom(verb, room.name)
        }
        return nil
    }
}
