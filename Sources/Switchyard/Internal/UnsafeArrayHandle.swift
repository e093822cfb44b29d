/// The elements of an array, read and written in place through one pointer
/// for the length of one call: what lets a ``ChainStore`` link or unlink a
/// node with one check that its array is unshared, rather than one at every
/// write.
///
/// Invariants, asserted in debug builds: an index is within the array's
/// elements, and a handle is used only inside the closure that
/// ``withElements(of:_:)`` calls, while nothing else reaches the array.
/// Release builds check neither.
@usableFromInline
struct UnsafeArrayHandle<Element> {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    @usableFromInline let count: Int

    @inlinable
    init(base: UnsafeMutablePointer<Element>, count: Int) {
        self.base = base
        self.count = count
    }

    /// Calls `body` with a handle on the elements of `array`, which is made
    /// unshared first.
    @inlinable
    @inline(__always)
    static func withElements<Result>(of array: inout [Element], _ body: (UnsafeArrayHandle) -> Result) -> Result {
        array.withUnsafeMutableBufferPointer { buffer in
            body(
                UnsafeArrayHandle(
                    base: buffer.baseAddress.unchecked("an array's elements have an address, even when there are none"),
                    count: buffer.count))
        }
    }

    /// The element at `index`; not bounds-checked in release builds.
    @inlinable
    subscript(index: Int) -> Element {
        unsafeAddress {
            assert(index >= 0 && index < count, "UnsafeArrayHandle: index \(index) out of 0..<\(count)")
            return UnsafePointer(base + index)
        }
        nonmutating unsafeMutableAddress {
            assert(index >= 0 && index < count, "UnsafeArrayHandle: index \(index) out of 0..<\(count)")
            return base + index
        }
    }
}
