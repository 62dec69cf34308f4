/// The bytes of the heap block `object` lives in, as malloc rounds it (its usable size): what one more
/// connection or player really costs, which is what the idle-memory tests hold down (issue 28).
///
/// One block can be larger than the object's size class: glibc hands out a free chunk whole when what
/// splitting it would leave is too small to keep, so a 40-byte object sometimes sits in a 56-byte block,
/// depending on what the rest of the process freed. A bound on the object's own cost takes
/// ``smallestHeapBlockSize(tries:of:)``.
public func heapBlockSize(of object: AnyObject) -> Int {
    usableSize(Unmanaged.passUnretained(object).toOpaque())
}

/// The smallest heap block among `tries` objects that `make` makes, all alive at once (so each gets a
/// block of its own): the object's size class, whatever free chunks the rest of the process left.
public func smallestHeapBlockSize(tries: Int = 8, of make: () -> AnyObject) -> Int {
    let objects = (0..<tries).map { _ in make() }
    return objects.map { heapBlockSize(of: $0) }.min() ?? 0
}

/// glibc's `malloc_usable_size`, which its Swift module does not export (it is in `malloc.h`).
@_silgen_name("malloc_usable_size")
private func usableSize(_ block: UnsafeMutableRawPointer) -> Int
