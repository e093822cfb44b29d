/// Elements read and written in place through one pointer, by index, for the
/// length of one call: an array's, which lets a ``ChainStore`` link or unlink
/// a node with one check that its array is unshared rather than one at every
/// write; or room on the stack for a few trivial values (the cursors and keys
/// of the handler merge).
///
/// Invariants, asserted in debug builds: an index is within `0..<count`; a
/// handle is used only inside the closure that made it
/// (``withElements(of:_:)``, ``withTemporary(capacity:_:)``) while nothing
/// else reaches those elements; temporary room holds trivial values only
/// (it is never initialized nor deinitialized as such). Release builds check
/// none of it.
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

    /// Calls `body` with room for `capacity` trivial values, on the stack
    /// when it is small enough, uninitialized: write before reading.
    @inlinable
    @inline(__always)
    static func withTemporary<Result>(capacity: Int, _ body: (UnsafeArrayHandle) -> Result) -> Result {
        assert(_isPOD(Element.self), "UnsafeArrayHandle: temporary room holds trivial values only")
        return withUnsafeTemporaryAllocation(of: Element.self, capacity: capacity) { buffer in
            body(
                UnsafeArrayHandle(
                    base: buffer.baseAddress.unchecked("a temporary allocation has an address"), count: capacity))
        }
    }

    /// The element at `index`; not bounds-checked in release builds.
    @inlinable
    subscript(index: Int) -> Element {
        unsafeAddress {
            UnsafePointer(address(of: index))
        }
        nonmutating unsafeMutableAddress {
            address(of: index)
        }
    }

    /// Where the element at `index` lies; not bounds-checked in release builds.
    @inlinable
    func address(of index: Int) -> UnsafeMutablePointer<Element> {
        assert(index >= 0 && index < count, "UnsafeArrayHandle: index \(index) out of 0..<\(count)")
        return base + index
    }
}
