/// A list that keeps its storage when emptied, and empties in O(1): the lists
/// a statechart fills again at every step (the states to exit and enter, the
/// active atomic states), which must not allocate once they have grown.
///
/// `Array.removeAll(keepingCapacity:)` keeps the storage too, but costs a
/// hundred instructions a call; this only resets a count.
@usableFromInline
struct ReusableList<Element>: RandomAccessCollection, MutableCollection {
    @usableFromInline var storage: [Element] = []
    /// How many elements of `storage` are in the list.
    @usableFromInline var length = 0

    @inlinable
    init() {}

    @inlinable
    var startIndex: Int { 0 }

    @inlinable
    var endIndex: Int { length }

    @inlinable
    subscript(position: Int) -> Element {
        get { storage[position] }
        set { storage[position] = newValue }
    }

    @inlinable
    @inline(__always)
    mutating func append(_ element: Element) {
        if length < storage.count {
            storage[length] = element
        } else {
            storage.append(element)
        }
        length += 1
    }

    /// Empties the list, keeping its storage.
    @inlinable
    mutating func removeAll() {
        length = 0
    }

    /// Removes the elements `shouldRemove` picks, keeping the others in order.
    @inlinable
    mutating func removeAll(where shouldRemove: (Element) -> Bool) {
        var kept = 0
        for position in 0..<length where !shouldRemove(storage[position]) {
            storage[kept] = storage[position]
            kept += 1
        }
        length = kept
    }

    /// Sorts the list in place by insertion: the lists are short, and this
    /// allocates nothing.
    @inlinable
    mutating func insertionSort(by isBefore: (Element, Element) -> Bool) {
        guard length > 1 else { return }
        for index in 1..<length {
            let value = storage[index]
            var position = index
            while position > 0, isBefore(value, storage[position - 1]) {
                storage[position] = storage[position - 1]
                position -= 1
            }
            storage[position] = value
        }
    }
}

extension ReusableList {
    /// Whether an element satisfies `predicate`; an index loop, which
    /// optimises better than the generic one.
    @inlinable
    func contains(where predicate: (Element) -> Bool) -> Bool {
        for position in 0..<length where predicate(storage[position]) {
            return true
        }
        return false
    }
}

extension ReusableList where Element: Equatable {
    /// Whether `element` is in the list.
    @inlinable
    func contains(_ element: Element) -> Bool {
        contains { $0 == element }
    }
}
