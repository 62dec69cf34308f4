import SetTestSupport
import Testing

/// `heapBlockSize(ofInstancesOf:)`, which the idle-memory bounds are written in, reads the size Swift
/// allocates for a class and rounds it as malloc does.
@Suite struct HeapBlockSizeTests {
    final class OneWord { var a = 1 }
    final class ThreeWordsAndAByte {
        var a = 1
        var b = 2
        var c = 3
        var d: UInt8 = 4
    }
    class Base { var a = 1 }
    final class Derived: Base {
        var flag = false
        var text = "a string is two words"
    }

    /// A header of two words, then the stored properties as their layout packs them (a subclass's
    /// after its superclass's).
    @Test func theInstanceSizeIsTheHeaderAndTheStoredProperties() {
        #expect(instanceSize(of: OneWord.self) == 24)
        #expect(instanceSize(of: ThreeWordsAndAByte.self) == 41)
        #expect(instanceSize(of: Base.self) == 24)
        #expect(instanceSize(of: Derived.self) == 48)
    }

    /// malloc's usable sizes on 64-bit glibc: 24 at least, then in steps of 16.
    @Test func theBlockIsMallocsSizeClass() {
        #expect(heapBlockSize(ofInstancesOf: OneWord.self) == 24)
        #expect(heapBlockSize(ofInstancesOf: ThreeWordsAndAByte.self) == 56)
        #expect(heapBlockSize(ofInstancesOf: Derived.self) == 56)
    }
}
