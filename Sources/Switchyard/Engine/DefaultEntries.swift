/// What entering each state by default enters, remembered per state: SCXML's
/// addDescendantStatesToEnter from the state alone, in the order it adds
/// them.
///
/// It remembers a state's list only when no state on it keeps history: then
/// the list depends on the tree's shape alone. It is worked out on a state's
/// first default entry, and forgotten when the tree is laid out again
/// (``StateTree/layouts`` moves). Every change of the tree's shape or history
/// marks the tree as not laid out, and a step reads no list until it is laid
/// out again (``Statechart/addWithDescendants(_:ignoringHistory:to:)`` checks
/// ``StateTree/isLaidOut``): a handler may declare history in the middle of a
/// macrostep.
struct DefaultEntries {
    /// Where a state's list lies in ``codes``.
    enum Span {
        /// Not worked out for this layout.
        case unknown
        /// A state on the list keeps history: it is worked out at every entry.
        case dependsOnHistory
        /// The list is `codes[start..<end]`.
        case known(start: Int32, end: Int32)
    }

    /// The layout of the tree the lists were worked out for.
    var layout: UInt32?
    /// By state code.
    var spans: [Span] = []
    /// The lists, one after another.
    var codes: [SymbolCode] = []

    init() {}

    /// The span of `state`'s list, if it is worked out for `layout`.
    func span(of state: SymbolCode, layout: UInt32) -> Span {
        guard self.layout == layout, Int(state) < spans.count else { return .unknown }
        return spans[Int(state)]
    }

    /// Remembers `entries` as `state`'s list for `layout`, or that it
    /// depends on history; forgets every list of another layout first.
    mutating func remember(
        _ entries: borrowing ReusableList<SymbolCode>, of state: SymbolCode, layout: UInt32,
        dependsOnHistory: Bool
    ) -> Span {
        if self.layout != layout {
            self.layout = layout
            spans.removeAll(keepingCapacity: true)
            codes.removeAll(keepingCapacity: true)
        }
        while spans.count <= Int(state) {
            spans.append(.unknown)
        }
        guard !dependsOnHistory else {
            spans[Int(state)] = .dependsOnHistory
            return .dependsOnHistory
        }
        let start = Int32(codes.count)
        for index in 0..<entries.length {
            codes.append(entries[index])
        }
        spans[Int(state)] = .known(start: start, end: Int32(codes.count))
        return spans[Int(state)]
    }
}
