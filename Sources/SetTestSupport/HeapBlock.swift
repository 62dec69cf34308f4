/// The bytes of the heap block `object` lives in, as malloc rounds it (its usable size): what one more
/// connection or player really costs, which is what the idle-memory tests hold down (issue 28).
public func heapBlockSize(of object: AnyObject) -> Int {
    usableSize(Unmanaged.passUnretained(object).toOpaque())
}

/// glibc's `malloc_usable_size`, which its Swift module does not export (it is in `malloc.h`).
@_silgen_name("malloc_usable_size")
private func usableSize(_ block: UnsafeMutableRawPointer) -> Int
