import Switchyard

/// Four states for the small machines.
public enum Light: StateType, CaseIterable, Sendable {
    case s0, s1, s2, s3
}

/// Two events for the small machines.
public enum LightEvent: EventType, Sendable {
    case next, reset
}

/// One state of a ring of any size.
public struct RingState: StateType, Sendable {
    /// Where the state sits on the ring.
    public var index: Int

    /// The state at `index` on the ring.
    public init(index: Int) {
        self.index = index
    }
}

/// The one event of a ring: go to the next state.
public enum RingEvent: EventType, Sendable {
    case advance
}

/// A document with a version: states with associated values, for route mappings.
public enum Document: StateType, Sendable {
    case draft(version: Int)
    case review(version: Int)
    case published(version: Int)
}

/// What can happen to a document.
public enum DocumentEvent: EventType, Sendable {
    case submit, approve, revise
}

/// The user's routing logic for documents, written once and used by every
/// side of the `mapping` case.
@inline(never)
func routeDocument(_ event: DocumentEvent, from state: Document) -> Document? {
    switch (event, state) {
    case (.submit, .draft(let version)): .review(version: version)
    case (.approve, .review(let version)): .published(version: version)
    case (.revise, .published(let version)): .draft(version: version &+ 1)
    default: nil
    }
}

/// The events that walk a document round its cycle.
let documentCycle: [DocumentEvent] = [.submit, .approve, .revise]

/// The version a document is at, for checksums.
extension Document {
    var version: Int {
        switch self {
        case .draft(let version), .review(let version), .published(let version): version
        }
    }
}

/// The states of the `nested-3` chart: top { left { l1, l2 }, right { r1, r2 } }.
public enum Nested: Int, StateType, CaseIterable, Sendable {
    case top, left, l1, l2, right, r1, r2
}

/// The states of the `parallel-2` chart: pair ‖ first { a, b } ‖ second { c, d }.
public enum Pair: Int, StateType, CaseIterable, Sendable {
    case pair, first, a, b, second, c, d
}

/// The one event of the statechart cases.
public enum Flip: EventType, Sendable {
    case flip
}

/// The states of each child machine of the `nested-machines` case.
public enum Leaf: Int, StateType, CaseIterable, Sendable {
    case a, b
}

/// The parent's states in the `nested-machines` case: two states, each with
/// a child machine nested in it, whose states the parent names by case.
public enum Shell: StateType, Sendable {
    case one, two
    case first(Leaf)
    case second(Leaf)
}
