/// Lists of elements, at most one per case of an enum, laid end to end in one
/// buffer and found by case index: what ``CaseDispatch`` learns for each case
/// of a state, read on every request without a hash or a bounds-checked
/// array.
///
/// Invariant (every pointer of the dispatch is here, and only here):
/// - `elements` has room for `capacity` elements, of which the first `count`
///   are initialized and the rest are not;
/// - `bounds` has room for, and initializes, `caseCount` pairs: for each case
///   index below `caseCount`, the start and end of its list in `elements`, or
///   `(-1, -1)` for a case without a list yet;
/// - every list lies within `0..<count`, and keeps its positions when the
///   buffer grows, so positions learned before an append stay valid after it
///   (a guard may ask the same dispatch about a new case while a search is
///   going through an older case's list).
///
/// The accessors assert their bounds in debug builds; release builds trust
/// the positions ``positions(ofCase:)`` gave, as the comments say.
///
/// The storage is a handle, as `Deque._UnsafeHandle` is: its one owner keeps
/// it in a stored property, mutates it there, and calls ``deallocate()`` once,
/// in its `deinit`; nothing else keeps a copy. (A noncopyable struct with a
/// `deinit` would say so itself, but as a stored property of a class it
/// crashes the Swift 6.3 optimizer.)
@usableFromInline
struct CaseListStorage<Element> {
    @usableFromInline var elements: UnsafeMutablePointer<Element>
    @usableFromInline var capacity: Int
    @usableFromInline var count: Int
    @usableFromInline var bounds: UnsafeMutablePointer<(start: Int, end: Int)>
    @usableFromInline var caseCount: Int

    /// Storage without any list.
    @usableFromInline
    init() {
        elements = .allocate(capacity: 0)
        capacity = 0
        count = 0
        bounds = .allocate(capacity: 0)
        caseCount = 0
    }

    /// Frees the storage; its owner calls this once, when it goes.
    @usableFromInline
    func deallocate() {
        elements.deinitialize(count: count)
        elements.deallocate()
        bounds.deinitialize(count: caseCount)
        bounds.deallocate()
    }

    /// The positions of the list of the case at `caseIndex` (not negative),
    /// or `nil` if none was appended for it.
    @inlinable
    @inline(__always)
    func positions(ofCase caseIndex: Int) -> Range<Int>? {
        assert(caseIndex >= 0, "A case index is never negative (\(caseIndex))")
        guard caseIndex < caseCount else { return nil }
        let bound = bounds[caseIndex]
        guard bound.start >= 0 else { return nil }
        return Range(uncheckedBounds: (bound.start, bound.end))
    }

    /// The element at `position`, a position of a list appended before.
    ///
    /// Checked in debug builds only: release builds read the position
    /// unchecked, trusting that it came from ``positions(ofCase:)``.
    @inlinable
    @inline(__always)
    subscript(position: Int) -> Element {
        assert(position >= 0 && position < count, "Position \(position) outside the \(count) elements of case lists")
        return elements[position]
    }

    /// Appends `list` as the list of the case at `caseIndex`, and returns its
    /// positions.
    ///
    /// A case that has a list already gets the new one, and the old one's
    /// room is not reused: a pattern's judge (a function given for a case
    /// pattern) may ask the same dispatch about the same case while that
    /// case is being learned, and both lists are then right.
    @usableFromInline
    mutating func append(_ list: [Element], forCase caseIndex: Int) -> Range<Int> {
        let start = count
        let end = count + list.count
        reserveCapacity(end)
        for (offset, element) in list.enumerated() {
            (elements + start + offset).initialize(to: element)
        }
        count = end
        if caseIndex >= caseCount {
            let grown = UnsafeMutablePointer<(start: Int, end: Int)>.allocate(capacity: caseIndex + 1)
            grown.moveInitialize(from: bounds, count: caseCount)
            (grown + caseCount).initialize(repeating: (start: -1, end: -1), count: caseIndex + 1 - caseCount)
            bounds.deallocate()
            bounds = grown
            caseCount = caseIndex + 1
        }
        bounds[caseIndex] = (start: start, end: end)
        return Range(uncheckedBounds: (start, end))
    }

    /// Makes room for `minimumCapacity` elements; the initialized ones keep
    /// their positions.
    @usableFromInline
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        guard minimumCapacity > capacity else { return }
        let newCapacity = max(minimumCapacity, 2 * capacity)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: elements, count: count)
        elements.deallocate()
        elements = grown
        capacity = newCapacity
    }
}
