import SetServerCore
import Testing

@testable import SetEngine

/// The engine's and the shell's memory of rooms' listener lists: whatever lists come, in whatever order,
/// each gets exactly its own members, and a list seen before (the same array) is not looked up again.
@Suite struct AudiencesTests {
    final class Member {
        let id: ConnectionID
        init(id: ConnectionID) { self.id = id }
    }

    @Test(arguments: [1, 2, 3]) func everyListGetsItsOwnMembersAndAKnownListIsNotFoundAgain(seed: UInt64) {
        let random = Randomness.seeded(seed)
        var members: [ConnectionID: Member] = [:]
        for id in 1...300 { members[id] = Member(id: id) }
        var audiences = Audiences<Member>()
        // Lists that share first members (a room whose listeners changed keeps its first one), and more
        // lists than the table starts with, so it grows and probes past taken slots.
        var lists: [[ConnectionID]] = []
        for _ in 0..<120 {
            let first = ConnectionID(1 + random.bits() % 40)
            let rest = (0..<Int(random.bits() % 8)).map { _ in ConnectionID(41 + random.bits() % 260) }
            lists.append([first] + rest)
        }
        var finds = 0
        // What it should remember: the last list of each first member since the last forget.
        var remembered: [ConnectionID: [ConnectionID]] = [:]
        var expectedFinds = 0
        for step in 0..<3_000 {
            let list = lists[Int(random.bits() % UInt64(lists.count))]
            if step % 700 == 699 {
                audiences.forget()
                remembered = [:]
            }
            let found = audiences.members(of: list) { id in
                finds += 1
                return members[id]
            }
            #expect(found.map { $0?.id } == list.map { $0 }, "step \(step)")
            if remembered[list[0]] != list { expectedFinds += list.count }
            remembered[list[0]] = list
            #expect(finds == expectedFinds, "step \(step): a list looked up again, or one not looked up")
        }
    }

    @Test func aKnownListIsNotLookedUpAgainUntilForgotten() {
        var audiences = Audiences<Member>()
        let ids: [ConnectionID] = [5, 9, 12]
        let other: [ConnectionID] = [5, 9]
        var finds = 0
        let find: (ConnectionID) -> Member? = { id in
            finds += 1
            return id == 12 ? nil : Member(id: id)
        }
        #expect(audiences.members(of: ids, find: find).map { $0?.id } == [5, 9, nil])
        #expect(finds == 3)
        #expect(audiences.members(of: ids, find: find).map { $0?.id } == [5, 9, nil])
        #expect(finds == 3, "the same list again is not looked up")
        // Another list with the same first member replaces it.
        #expect(audiences.members(of: other, find: find).map { $0?.id } == [5, 9])
        #expect(finds == 5)
        #expect(audiences.members(of: ids, find: find).map { $0?.id } == [5, 9, nil])
        #expect(finds == 8)
        audiences.forget()
        #expect(audiences.members(of: ids, find: find).map { $0?.id } == [5, 9, nil])
        #expect(finds == 11, "forgotten lists are looked up again")
        #expect(audiences.members(of: [], find: find).isEmpty)
    }
}
