/// Lists of elements, at most one per case of an enum, laid end to end in one
/// buffer and found by case index: what ``CaseDispatch`` learns for each case
/// of a state, read on every request without a hash or a bounds-checked
/// array.
///
/// The memory is two ``ReusableList``s (their invariants, and their bounds
/// asserted in debug builds, are theirs); this type adds its own:
/// - `bounds` holds, for each case index below its count, the start and end
///   of the case's list in `elements`, or `(-1, -1)` for a case without a
///   list yet;
/// - every list lies within the elements appended, and keeps its positions
///   when the storage grows, so positions learned before an append stay
///   valid after it (a guard may ask the same dispatch about a new case while
///   a search is going through an older case's list).
///
/// Like its lists, the storage is noncopyable: it has one owner, which keeps
/// it in a stored property and mutates it there.
@usableFromInline
struct CaseListStorage<Element>: ~Copyable {
    @usableFromInline var elements = ReusableList<Element>()
    @usableFromInline var bounds = ReusableList<(start: Int, end: Int)>()

    /// Storage without any list.
    init() {}

    /// The positions of the list of the case at `caseIndex` (not negative),
    /// or `nil` if none was appended for it.
    @inlinable
    @inline(__always)
    func positions(ofCase caseIndex: Int) -> Range<Int>? {
        assert(caseIndex >= 0, "A case index is never negative (\(caseIndex))")
        guard caseIndex < bounds.length else { return nil }
        let bound = bounds[caseIndex]
        guard bound.start >= 0 else { return nil }
        return Range(uncheckedBounds: (bound.start, bound.end))
    }

    /// The element at `position`, a position of a list appended before.
    ///
    /// Checked in debug builds only (by the slots): release builds read the
    /// position unchecked, trusting that it came from ``positions(ofCase:)``.
    @inlinable
    @inline(__always)
    subscript(position: Int) -> Element {
        elements[position]
    }

    /// Appends `list` as the list of the case at `caseIndex`, and returns its
    /// positions.
    ///
    /// A case that has a list already gets the new one, and the old one's
    /// room is not reused: a pattern's judge (a function given for a case
    /// pattern) may ask the same dispatch about the same case while that
    /// case is being learned, and both lists are then right.
    mutating func append(_ list: [Element], forCase caseIndex: Int) -> Range<Int> {
        let start = elements.length
        for element in list {
            elements.append(element)
        }
        while bounds.length <= caseIndex {
            bounds.append((start: -1, end: -1))
        }
        bounds[caseIndex] = (start: start, end: elements.length)
        return Range(uncheckedBounds: (start, elements.length))
    }
}
