/// How many non-empty buckets a table has of each key shape, so that a
/// decision skips the hash look-up of a shape that has no bucket at all.
///
/// Shapes are numbered by specificity: 0 is (concrete, concrete), 1 is
/// (concrete, `.any`), 2 is (`.any`, concrete), 3 is (`.any`, `.any`).
@usableFromInline
struct BucketShapes {
    @usableFromInline var counts: (Int, Int, Int, Int) = (0, 0, 0, 0)

    @inlinable
    init() {}

    @inlinable
    static func shape(_ first: Bool, _ second: Bool) -> Int {
        (first ? 0 : 2) + (second ? 0 : 1)
    }

    @inlinable
    func contains(_ shape: Int) -> Bool {
        switch shape {
        case 0: counts.0 > 0
        case 1: counts.1 > 0
        case 2: counts.2 > 0
        default: counts.3 > 0
        }
    }

    @inlinable
    mutating func adjust(_ shape: Int, by delta: Int) {
        switch shape {
        case 0: counts.0 += delta
        case 1: counts.1 += delta
        case 2: counts.2 += delta
        default: counts.3 += delta
        }
    }
}

/// A bucket key whose shape says which of its sides are wildcards.
@usableFromInline
protocol BucketKey: Hashable {
    /// 0 to 3, as numbered in ``BucketShapes``.
    var shape: Int { get }
}

/// A dictionary of buckets that knows which key shapes it holds.
@usableFromInline
struct Buckets<Key: BucketKey, Element> {
    @usableFromInline var storage: [Key: [Element]] = [:]
    @usableFromInline var shapes = BucketShapes()

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { storage.isEmpty }

    /// The bucket at `key`, skipping the hash when no bucket has its shape.
    @inlinable
    subscript(key: Key) -> [Element]? {
        shapes.contains(key.shape) ? storage[key] : nil
    }

    @inlinable
    mutating func append(_ element: Element, at key: Key) {
        insert(element, at: key) { _, _ in false }
    }

    /// Inserts `element` in its sorted place in the bucket at `key`, with one hash.
    @inlinable
    mutating func insert(_ element: Element, at key: Key, by precedes: (Element, Element) -> Bool) {
        var isNewBucket = false
        storage[
            key,
            default: {
                isNewBucket = true
                return []
            }()
        ].insertSorted(element, by: precedes)
        if isNewBucket {
            shapes.adjust(key.shape, by: 1)
        }
    }

    @inlinable
    mutating func removeAll(at key: Key, where shouldRemove: (Element) -> Bool) {
        guard let index = storage.index(forKey: key) else { return }
        storage.values[index].removeAll(where: shouldRemove)
        if storage.values[index].isEmpty {
            storage.remove(at: index)
            shapes.adjust(key.shape, by: -1)
        }
    }
}

extension Array {
    /// Inserts after every element that does not follow `element`: O(1) when
    /// elements arrive in order, O(*n*) otherwise.
    @inlinable
    mutating func insertSorted(_ element: Element, by precedes: (Element, Element) -> Bool) {
        var index = endIndex
        while index > startIndex, precedes(element, self[index - 1]) {
            index -= 1
        }
        // Appending is the common case, and much cheaper than a general insert.
        if index == endIndex {
            append(element)
        } else {
            insert(element, at: index)
        }
    }
}
