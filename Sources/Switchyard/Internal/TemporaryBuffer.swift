/// Room for `capacity` elements of a trivial type on the stack, for the
/// length of one call, read and written by index.
///
/// Invariants, asserted in debug builds: the element type holds no
/// references (the memory is never initialized nor deinitialized as such),
/// an index is below `capacity`, and the buffer is used only inside the
/// closure ``with(capacity:_:)`` calls. Release builds check nothing.
@usableFromInline
struct TemporaryBuffer<Element> {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    @usableFromInline let capacity: Int

    @inlinable
    init(base: UnsafeMutablePointer<Element>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Calls `body` with a buffer of `capacity` elements, on the stack when
    /// it is small enough.
    @inlinable
    @inline(__always)
    static func with<Result>(capacity: Int, _ body: (TemporaryBuffer) -> Result) -> Result {
        assert(_isPOD(Element.self), "TemporaryBuffer holds trivial values only")
        return withUnsafeTemporaryAllocation(of: Element.self, capacity: capacity) { buffer in
            body(
                TemporaryBuffer(
                    base: buffer.baseAddress.unchecked("a temporary allocation has an address"), capacity: capacity))
        }
    }

    /// The element at `index`; not bounds-checked in release builds.
    @inlinable
    subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < capacity, "TemporaryBuffer: index \(index) out of 0..<\(capacity)")
            return base[index]
        }
        nonmutating set {
            assert(index >= 0 && index < capacity, "TemporaryBuffer: index \(index) out of 0..<\(capacity)")
            base[index] = newValue
        }
    }
}
