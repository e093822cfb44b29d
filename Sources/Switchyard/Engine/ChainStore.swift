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

/// The elements of many buckets in one array, each bucket a doubly linked chain.
///
/// One array for a whole table keeps a bucket from costing an allocation of
/// its own (building 10,000 routes allocates a few growing arrays, not
/// 10,000 small ones) and keeps what a decision touches close together.
/// Adding returns the element's node, which stays put for the element's whole
/// life, so that removing it later unlinks it in O(1) without a search.
/// Removed nodes are reused. Removing hands the element back rather than
/// releasing it, so that a deinitialiser it runs finds the tables whole.
@usableFromInline
struct ChainStore<Element> {
    @usableFromInline
    struct Node {
        /// `nil` once removed, so that a removed closure's captures are released.
        @usableFromInline var element: Element?
        @usableFromInline var next: Int32
        @usableFromInline var previous: Int32

        @inlinable
        init(element: Element?, next: Int32, previous: Int32) {
            self.element = element
            self.next = next
            self.previous = previous
        }
    }

    @usableFromInline var nodes: [Node] = []
    /// The first of the removed nodes, linked through `next`; `-1` when none.
    @usableFromInline var firstFree: Int32 = -1

    @inlinable
    init() {}

    /// Makes room for `count` more elements, growing geometrically, so that
    /// many small batches still cost amortised O(1) each.
    @inlinable
    mutating func reserveRoom(forAdding count: Int) {
        let needed = nodes.count + count
        if needed > nodes.capacity {
            nodes.reserveCapacity(Swift.max(needed, 2 * nodes.capacity))
        }
    }

    /// The element at `node`, which must be in a chain. (Unwrapped without
    /// a check in release builds: a node in a chain always holds one, and the
    /// check made each handler's delivery copy the optional through an
    /// outlined function.)
    @inlinable
    subscript(node: Int32) -> Element {
        nodes[Int(node)].element.unchecked("a node in a chain holds an element")
    }

    /// The element at `node`, `nil` if the node is free.
    @inlinable
    func element(at node: Int32) -> Element? {
        nodes[Int(node)].element
    }

    /// The node after `node` in its chain, `-1` at the end.
    @inlinable
    func next(after node: Int32) -> Int32 {
        nodes[Int(node)].next
    }

    /// Lets `body` read and change several nodes in place, so that linking or
    /// unlinking a node checks once, not at every write, that the array is
    /// not shared. The handle checks its indices in debug builds only.
    @inlinable
    mutating func withNodes<Result>(_ body: (UnsafeArrayHandle<Node>) -> Result) -> Result {
        UnsafeArrayHandle.withElements(of: &nodes, body)
    }

    /// Makes `second` follow `first` in `chain`; `-1` on either side stands
    /// for the chain's end, whose head (or tail) then becomes the other.
    /// Linking a node is two joins, unlinking one is one.
    @inlinable
    static func join(_ first: Int32, _ second: Int32, in chain: inout Chain, _ nodes: UnsafeArrayHandle<Node>) {
        if first < 0 {
            chain.head = second
        } else {
            nodes[Int(first)].next = second
        }
        if second < 0 {
            chain.tail = first
        } else {
            nodes[Int(second)].previous = first
        }
    }

    /// Makes `node` the one between `previous` and `next` (`-1` for the ends
    /// of `chain`).
    @inlinable
    static func link(
        _ node: Int32, after previous: Int32, before next: Int32, in chain: inout Chain,
        _ nodes: UnsafeArrayHandle<Node>
    ) {
        join(previous, node, in: &chain, nodes)
        join(node, next, in: &chain, nodes)
    }

    /// Puts `element` in a node between `previous` and `next` (`-1` for the
    /// ends of `chain`), a removed node if there is one.
    ///
    /// - Returns: The node.
    @inlinable
    mutating func link(_ element: Element, after previous: Int32, before next: Int32, in chain: inout Chain)
        -> Int32
    {
        let node = firstFree
        guard node >= 0 else {
            return linkNewNode(element, after: previous, before: next, in: &chain)
        }
        // A removed node holds no element, so it is simply overwritten.
        firstFree = withNodes { nodes in
            let nextFree = nodes[Int(node)].next
            nodes[Int(node)] = Node(element: element, next: next, previous: previous)
            Self.link(node, after: previous, before: next, in: &chain, nodes)
            return nextFree
        }
        return node
    }

    /// Puts `element` in a node added at the end of the array, when no
    /// removed node is left to reuse.
    @inlinable
    mutating func linkNewNode(_ element: Element, after previous: Int32, before next: Int32, in chain: inout Chain)
        -> Int32
    {
        require(nodes.count < Int(Int32.max), "A machine can hold at most \(Int32.max) routes or handlers")
        nodes.append(Node(element: element, next: next, previous: previous))
        let node = Int32(truncatingIfNeeded: nodes.count - 1)
        withNodes { Self.link(node, after: previous, before: next, in: &chain, $0) }
        return node
    }

    /// Adds `element` at the end of `chain`.
    ///
    /// - Returns: The element's node, for ``remove(_:from:)``.
    /// - Complexity: Amortised O(1).
    @inlinable
    @discardableResult
    mutating func append(_ element: Element, to chain: inout Chain) -> Int32 {
        link(element, after: chain.tail, before: -1, in: &chain)
    }

    /// Adds `element` after every element of `chain` that it does not precede.
    ///
    /// - Returns: The element's node, for ``remove(_:from:)``.
    /// - Complexity: O(1) when elements arrive in order; otherwise O(*k*),
    ///   where *k* is the number of elements that `element` precedes (the
    ///   chain is searched from its end).
    @inlinable
    mutating func insert(_ element: Element, into chain: inout Chain, by precedes: (Element, Element) -> Bool)
        -> Int32
    {
        var following: Int32 = -1
        var current = chain.tail
        while current >= 0, precedes(element, self[current]) {
            following = current
            current = nodes[Int(current)].previous
        }
        return link(element, after: current, before: following, in: &chain)
    }

    /// Removes the element at `node` from `chain`, which holds it.
    ///
    /// - Returns: The element, which the caller lets go of once it has
    ///   finished changing its tables: letting go may run a deinitialiser
    ///   that adds or removes elements of this store.
    /// - Complexity: O(1).
    @inlinable
    mutating func remove(_ node: Int32, from chain: inout Chain) -> Element {
        let nextFree = firstFree
        let element = withNodes { nodes in
            Self.join(nodes[Int(node)].previous, nodes[Int(node)].next, in: &chain, nodes)
            nodes[Int(node)].next = nextFree
            nodes[Int(node)].previous = -1
            return nodes[Int(node)].element.take().unchecked("a node in a chain holds an element")
        }
        firstFree = node
        return element
    }

    /// Calls `body` with every element in the store, whatever its chain.
    @inlinable
    func forEachElement(_ body: (Element) -> Void) {
        for node in nodes {
            if let element = node.element {
                body(element)
            }
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
