import SetEngine
import Testing

/// The shell's and the engine's broadcast loops read a room's `[Member?]` as `[Unmanaged<Member>?]` to
/// borrow each member without retaining it (issue 28). That rests on the two having one layout: one
/// pointer per element, zero for `nil`. Should a toolchain change that, these fail rather than the loops
/// reading garbage.
@Suite struct BorrowedMembersTests {
    final class Member {
        let id: Int
        init(id: Int) { self.id = id }
    }

    @Test func anOptionalReferenceAndAnOptionalUnmanagedOneAreOnePointer() {
        #expect(MemoryLayout<Member?>.size == MemoryLayout<Int>.size)
        #expect(MemoryLayout<Unmanaged<Member>?>.size == MemoryLayout<Member?>.size)
        #expect(MemoryLayout<Unmanaged<Member>?>.stride == MemoryLayout<Member?>.stride)
        #expect(MemoryLayout<Unmanaged<Member>?>.alignment == MemoryLayout<Member?>.alignment)
    }

    @Test func aListReadAsUnmanagedGivesBackTheSameMembersAndGaps() {
        let members: [Member?] = [Member(id: 1), nil, Member(id: 3), Member(id: 4), nil]
        let borrowed: [ObjectIdentifier?] = members.withBorrowedReferences { list in
            list.map { $0?._withUnsafeGuaranteedRef { ObjectIdentifier($0) } }
        }
        #expect(borrowed == members.map { $0.map(ObjectIdentifier.init) })
        let ids = members.withBorrowedReferences { list in
            list.map { $0?._withUnsafeGuaranteedRef { $0.id } }
        }
        #expect(ids == [1, nil, 3, 4, nil])
    }
}
