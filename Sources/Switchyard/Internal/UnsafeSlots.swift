/// Elements that a step reads and writes in place, by index, without the
/// uniqueness check of an array held by a class, and without bounds checks in
/// release builds.
///
/// Invariants, asserted in debug builds: the first `count` elements are
/// initialized and the rest of `capacity` is not; an index is below `count`.
/// The slots belong to one owner (a class instance), which calls
/// ``deallocate()`` exactly once, in its `deinit`; copies of this struct are
/// views of the same storage, so only the owner's is ever grown.
@usableFromInline
struct UnsafeSlots<Element> {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline private(set) var count = 0
    @usableFromInline private(set) var capacity: Int

    /// Empty slots with room for `capacity` elements.
    @inlinable
    init(capacity: Int) {
        precondition(capacity > 0, "UnsafeSlots needs room for at least one element")
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    /// The element at `index`; not bounds-checked in release builds.
    @inlinable
    subscript(index: Int) -> Element {
        unsafeAddress {
            UnsafePointer(elements.address(of: index))
        }
        nonmutating unsafeMutableAddress {
            elements.address(of: index)
        }
    }

    /// The initialized elements, as a handle.
    @inlinable
    var elements: UnsafeArrayHandle<Element> {
        UnsafeArrayHandle(base: base, count: count)
    }

    /// Adds `element` at the end, doubling the storage when it is full.
    @inlinable
    mutating func append(_ element: Element) {
        if count == capacity {
            reserveCapacity(capacity * 2)
        }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Adds `element` at the end of slots that have room for it (the caller
    /// reserved it); not checked in release builds.
    @inlinable
    mutating func appendWithinCapacity(_ element: Element) {
        assert(count < capacity, "UnsafeSlots: no room for another element; reserve capacity first")
        (base + count).initialize(to: element)
        count += 1
    }

    /// Makes room for `minimumCapacity` elements in all.
    @inlinable
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        guard minimumCapacity > capacity else { return }
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: minimumCapacity)
        moved.moveInitialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = minimumCapacity
    }

    /// Removes every element, keeping the storage.
    @inlinable
    mutating func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    /// Frees the storage: the owner's last use of it.
    @inlinable
    func deallocate() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
