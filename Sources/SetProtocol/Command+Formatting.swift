import SetGame

extension Command {
    /// The line a client sends for this command (without its LF): what ``parse(_:)-(String)`` reads
    /// back as the same command, so bots and clients send typed commands and never spell one by hand.
    /// Options are written in name order.
    public var text: String {
        var words = [verb.rawValue]
        func options(_ pairs: [String: String]) {
            words += pairs.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        }
        switch self {
        case .hello(let name, let key):
            words.append(name)
            if let key { words.append("key=\(key)") }
        case .resume(let token):
            words.append(token)
        case .join(let room, let game, let pairs):
            words.append(room)
            if let game { words.append(game.rawValue) }
            options(pairs)
        case .choose(let picks, let revision):
            for pick in picks {
                switch pick {
                case .position(let position): words.append(SetGame.positionName(position))
                case .code(let code): words.append(code)
                }
            }
            if let revision { words.append("@\(revision)") }
        case .new(let pairs):
            options(pairs)
        case .history(let room):
            if let room { words.append(room) }
        case .chat(let text):
            words.append(text)
        case .watch(let room, let password):
            words.append(room)
            if let password { words.append("password=\(password)") }
        case .stats(let name):
            if let name { words.append(name) }
        case .top(let mode):
            if let mode { words.append(mode) }
        case .allow(let name):
            words.append(name)
        case .record(let id):
            words.append(id)
        case .standings(let request):
            if request != .show { words.append(request.rawValue) }
        case .kick(let name, let reason):
            words.append(name)
            if let reason { words.append(reason) }
        case .rooms, .leave, .state, .hint, .ping, .help, .quit, .ready, .start, .lock, .unlock, .unready,
            .rematch, .pause, .unpause:
            break
        }
        return words.joined(separator: " ")
    }
}
