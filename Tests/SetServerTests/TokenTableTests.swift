import SetGame
import Testing

@testable import SetSocket

/// A loop's table of channels by token (issue 28: 8 bytes a slot) finds exactly what a dictionary would,
/// through inserts, replacements and removals, with tokens handed out in order as the loop does.
@Suite struct TokenTableTests {
    final class Holder: TokenHolder {
        let token: UInt64
        init(_ token: UInt64) { self.token = token }
    }

    @Test func itAgreesWithADictionaryAsTokensComeAndGo() {
        var generator = SeededGenerator(seed: 28)
        var table = TokenTable<Holder>()
        var oracle: [UInt64: Holder] = [:]
        var nextToken: UInt64 = 1
        for _ in 0..<20_000 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let holder = Holder(nextToken)
                nextToken += 1
                table.insert(holder)
                oracle[holder.token] = holder
            case 5:
                // The same token again replaces what it found.
                guard let token = oracle.keys.randomElement(using: &generator) else { continue }
                let holder = Holder(token)
                table.insert(holder)
                oracle[token] = holder
            default:
                let token = oracle.keys.randomElement(using: &generator) ?? nextToken
                table.remove(token)
                oracle[token] = nil
            }
            #expect(table.count == oracle.count)
        }
        for token in 0..<(nextToken + 10) { #expect(table[token] === oracle[token]) }
    }

    /// Ten thousand channels opened in a row, then every other one closed, then as many opened again: a
    /// server's join flood and churn, all found.
    @Test func aFloodOfConsecutiveTokensIsAllFound() {
        var table = TokenTable<Holder>()
        var live: [UInt64: Holder] = [:]
        for token in UInt64(1)...10_000 {
            live[token] = Holder(token)
            table.insert(live[token]!)
        }
        for token in stride(from: UInt64(1), through: 10_000, by: 2) {
            table.remove(token)
            live[token] = nil
        }
        for token in UInt64(10_001)...15_000 {
            live[token] = Holder(token)
            table.insert(live[token]!)
        }
        #expect(table.count == 10_000)
        for token in UInt64(0)...15_001 { #expect(table[token] === live[token]) }
    }
}
