/// The bytes of the heap block an instance of `type` takes, as glibc's malloc rounds it on x86-64 and
/// arm64 (its usable size): what one more connection or player really costs, which is what the
/// idle-memory tests hold down (issue 28).
///
/// Worked out from the class's instance size, not read from a live object with `malloc_usable_size`:
/// malloc hands out a free chunk whole when what splitting it would leave is too small to keep, so a
/// live 40-byte object sat in a 56-byte block in two full runs, depending on what the rest of the
/// process had freed.
public func heapBlockSize(ofInstancesOf type: AnyClass) -> Int {
    // A chunk is the request and malloc's 8-byte size word, in 16-byte steps, at least 32 bytes; all of
    // it but the size word is usable.
    max(32, (instanceSize(of: type) + 8 + 15) & ~15) - 8
}

/// The bytes `swift_allocObject` asks malloc for, for an instance of `type`: the class metadata's
/// instance size, a 32-bit field after the kind, superclass, flags and address point words (the layout
/// of Swift class metadata without Objective-C interop, as on Linux).
public func instanceSize(of type: AnyClass) -> Int {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    return Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
}
