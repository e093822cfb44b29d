/// A list that keeps its storage when emptied, and empties in O(1): the lists
/// a statechart fills again at every step (the states to exit and enter, the
/// active atomic states, the configuration's flags by state code), which must
/// not allocate once they have grown, and the tables a step reads in place (a
/// hierarchy's member states, a case dispatch's lists).
///
/// Its elements live in raw storage that the list alone owns, so a write is a
/// store: an array held by a class checks that its buffer is unshared at
/// every write, a call that cost a step more than a tenth of its
/// instructions. The price is that a list cannot be copied: it is
/// noncopyable, read in place (`borrowing`), and handed over with `swap`.
///
/// Invariants: `base` has room for `capacity` elements (it is `nil` exactly
/// when `capacity` is 0), of which the first `length` are initialized; an
/// index is within `0..<length`, which debug builds assert at every access
/// and release builds do not check. The list frees its storage when it ends.
@usableFromInline
struct ReusableList<Element>: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<Element>?
    /// How many elements the storage has room for.
    @usableFromInline
    private(set) var capacity = 0
    /// How many elements the list holds.
    @usableFromInline
    private(set) var length = 0

    @inlinable
    init() {}

    /// A list of `elements`.
    @inlinable
    init(_ elements: some Sequence<Element>) {
        for element in elements {
            append(element)
        }
    }

    @inlinable
    deinit {
        if let base {
            base.deinitialize(count: length)
            base.deallocate()
        }
    }

    @inlinable
    var isEmpty: Bool { length == 0 }

    /// The element at `position`; not bounds-checked in release builds.
    @inlinable
    subscript(position: Int) -> Element {
        unsafeAddress {
            UnsafePointer(address(of: position))
        }
        unsafeMutableAddress {
            address(of: position)
        }
    }

    /// Where the element at `position` lies; not bounds-checked in release builds.
    @inlinable
    @inline(__always)
    func address(of position: Int) -> UnsafeMutablePointer<Element> {
        assert(position >= 0 && position < length, "ReusableList: index \(position) out of 0..<\(length)")
        return base.unsafelyUnwrapped + position
    }

    @inlinable
    @inline(__always)
    mutating func append(_ element: Element) {
        if length == capacity {
            grow()
        }
        (base.unsafelyUnwrapped + length).initialize(to: element)
        length += 1
    }

    /// Adds `element` at the end of a list that has room for it (the caller
    /// reserved it); not checked in release builds.
    @inlinable
    @inline(__always)
    mutating func appendWithinCapacity(_ element: Element) {
        assert(length < capacity, "ReusableList: no room for another element; reserve capacity first")
        (base.unsafelyUnwrapped + length).initialize(to: element)
        length += 1
    }

    /// Appends the elements of `source` at `positions`, after making room
    /// for all of them; the range is not checked in release builds.
    @inlinable
    mutating func append(contentsOf source: borrowing ReusableList<Element>, at positions: Range<Int>) {
        assert(
            positions.lowerBound >= 0 && positions.upperBound <= source.length,
            "ReusableList: range \(positions) out of 0..<\(source.length)")
        guard !positions.isEmpty else { return }
        if length + positions.count > capacity {
            // At least doubled, so that appending range after range stays linear.
            reserveCapacity(Swift.max(length + positions.count, capacity * 2))
        }
        // Element by element: the lists are short, and a bulk copy calls `memcpy`.
        for position in positions {
            (base.unsafelyUnwrapped + length).initialize(to: source[position])
            length += 1
        }
    }

    /// Doubles the storage (to 4 elements at first).
    @inlinable
    @inline(never)
    mutating func grow() {
        reserveCapacity(Swift.max(4, capacity * 2))
    }

    /// Makes room for `minimumCapacity` elements in all, moving the elements
    /// to new storage if there is not.
    @inlinable
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        guard minimumCapacity > capacity else { return }
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: minimumCapacity)
        if let base {
            moved.moveInitialize(from: base, count: length)
            base.deallocate()
        }
        base = moved
        capacity = minimumCapacity
    }

    /// Removes and returns the last element, keeping the storage: the list
    /// used as a stack. Not checked in release builds.
    mutating func removeLast() -> Element {
        assert(length > 0, "ReusableList: removeLast on an empty list")
        length -= 1
        return (base.unsafelyUnwrapped + length).move()
    }

    /// Empties the list, keeping its storage.
    @inlinable
    mutating func removeAll() {
        base?.deinitialize(count: length)
        length = 0
    }

    /// Removes the elements `shouldRemove` picks, keeping the others in order.
    @inlinable
    mutating func removeAll(where shouldRemove: (Element) -> Bool) {
        var kept = 0
        for position in 0..<length where !shouldRemove(self[position]) {
            self[kept] = self[position]
            kept += 1
        }
        base?.advanced(by: kept).deinitialize(count: length - kept)
        length = kept
    }

    /// Sorts the list in place by insertion: the lists are short, and this
    /// allocates nothing.
    @inlinable
    mutating func insertionSort(by isBefore: (Element, Element) -> Bool) {
        guard length > 1 else { return }
        for index in 1..<length {
            let value = self[index]
            var position = index
            while position > 0, isBefore(value, self[position - 1]) {
                self[position] = self[position - 1]
                position -= 1
            }
            self[position] = value
        }
    }

    /// Whether an element satisfies `predicate`.
    @inlinable
    func contains(where predicate: (Element) -> Bool) -> Bool {
        for position in 0..<length where predicate(self[position]) {
            return true
        }
        return false
    }

    /// The elements, as an array.
    @inlinable
    var elements: [Element] {
        (0..<length).map { self[$0] }
    }
}

extension ReusableList where Element: Equatable {
    /// Whether `element` is in the list.
    @inlinable
    func contains(_ element: Element) -> Bool {
        contains { $0 == element }
    }

    /// Whether the elements at `positions` are those of `other`, in order.
    @inlinable
    func elements(at positions: Range<Int32>, equal other: borrowing ReusableList<Element>) -> Bool {
        guard other.length == positions.count else { return false }
        for index in 0..<other.length where other[index] != self[Int(positions.lowerBound) + index] {
            return false
        }
        return true
    }
}
