import SetGame
import SetProtocol

extension SetMode {
    /// Whether the mode's deck holds cards beyond the classic 81, whose codes only ``Card/init(anyCode:)``
    /// reads (MegaSet's borders, 4Set's fourth values).
    var hasLaterCards: Bool {
        switch self {
        case .megaset, .fourSet, .fourSetJunior: return true
        default: return false
        }
    }

    /// The card a `CHOOSE` code names in this mode, or the `ARGS` error saying why it names none. The
    /// classic modes read codes as they always did (a 4Set code there is no card at all).
    func card(code: String) -> Result<Card, ProtocolError> {
        guard hasLaterCards else {
            do {
                return .success(try Card(code: code))
            } catch {
                return .failure(ProtocolError(.choose, .args, "\(error)"))
            }
        }
        let card: Card
        do {
            card = try Card(anyCode: code)
        } catch {
            return .failure(ProtocolError(.choose, .args, "\(error)"))
        }
        guard hasCard(card) else {
            return .failure(ProtocolError(.choose, .args, "\(card.code) is not a card of \(rawValue)"))
        }
        return .success(card)
    }
}
