/// One bucket of a ``ChainStore``: its first and last node, `-1` when empty.
@usableFromInline
struct Chain {
    @usableFromInline var head: Int32 = -1
    @usableFromInline var tail: Int32 = -1

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { head < 0 }
}

/// The elements of many buckets in one array, each bucket a linked chain.
///
/// One array for a whole table keeps a bucket from costing an allocation of
/// its own (building 10,000 routes allocates a few growing arrays, not
/// 10,000 small ones) and keeps what a decision touches close together.
/// Removed nodes are reused, and release their element at once.
@usableFromInline
struct ChainStore<Element> {
    @usableFromInline
    struct Node {
        /// `nil` once removed, so that a removed closure's captures are released.
        @usableFromInline var element: Element?
        @usableFromInline var next: Int32

        @inlinable
        init(element: Element?, next: Int32) {
            self.element = element
            self.next = next
        }
    }

    @usableFromInline var nodes: [Node] = []
    /// The first of the removed nodes, linked through `next`; `-1` when none.
    @usableFromInline var firstFree: Int32 = -1

    @inlinable
    init() {}

    /// Makes room for `count` more elements at once.
    @inlinable
    mutating func reserveRoom(forAdding count: Int) {
        nodes.reserveCapacity(nodes.count + count)
    }

    /// The element at `node`, which must be in a chain.
    @inlinable
    subscript(node: Int32) -> Element {
        nodes[Int(node)].element!
    }

    /// The node after `node` in its chain, `-1` at the end.
    @inlinable
    func next(after node: Int32) -> Int32 {
        nodes[Int(node)].next
    }

    @inlinable
    mutating func makeNode(_ element: Element, next: Int32) -> Int32 {
        if firstFree >= 0 {
            let node = firstFree
            firstFree = nodes[Int(node)].next
            nodes[Int(node)] = Node(element: element, next: next)
            return node
        }
        precondition(nodes.count < Int(Int32.max), "A machine can hold at most \(Int32.max) routes or handlers")
        nodes.append(Node(element: element, next: next))
        return Int32(truncatingIfNeeded: nodes.count - 1)
    }

    /// Adds `element` at the end of `chain`.
    ///
    /// - Complexity: O(1).
    @inlinable
    mutating func append(_ element: Element, to chain: inout Chain) {
        let node = makeNode(element, next: -1)
        if chain.isEmpty {
            chain.head = node
        } else {
            nodes[Int(chain.tail)].next = node
        }
        chain.tail = node
    }

    /// Adds `element` after every element of `chain` that it does not precede.
    ///
    /// - Complexity: O(1) when elements arrive in order, O(*n*) in the chain otherwise.
    @inlinable
    mutating func insert(_ element: Element, into chain: inout Chain, by precedes: (Element, Element) -> Bool) {
        guard !chain.isEmpty, precedes(element, self[chain.tail]) else {
            append(element, to: &chain)
            return
        }
        var previous: Int32 = -1
        var current = chain.head
        while current >= 0, !precedes(element, self[current]) {
            previous = current
            current = next(after: current)
        }
        let node = makeNode(element, next: current)
        if previous < 0 {
            chain.head = node
        } else {
            nodes[Int(previous)].next = node
        }
    }

    /// Removes the elements of `chain` that `shouldRemove` picks.
    ///
    /// - Complexity: O(*n*) in the chain.
    @inlinable
    mutating func removeAll(from chain: inout Chain, where shouldRemove: (Element) -> Bool) {
        var previous: Int32 = -1
        var current = chain.head
        while current >= 0 {
            let following = next(after: current)
            if shouldRemove(self[current]) {
                if previous < 0 {
                    chain.head = following
                } else {
                    nodes[Int(previous)].next = following
                }
                if chain.tail == current {
                    chain.tail = previous
                }
                nodes[Int(current)] = Node(element: nil, next: firstFree)
                firstFree = current
            } else {
                previous = current
            }
            current = following
        }
    }

    /// Whether some element of `chain` satisfies `predicate`, in chain order.
    @inlinable
    func contains(in chain: Chain, where predicate: (Element) throws -> Bool) rethrows -> Bool {
        var current = chain.head
        while current >= 0 {
            if try predicate(self[current]) { return true }
            current = next(after: current)
        }
        return false
    }
}
