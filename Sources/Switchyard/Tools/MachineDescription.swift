/// A read-only description of a machine's structure: its states and their
/// tree, its events, its routes and route mappings, how many handlers of each
/// kind it has, and the machines nested in it.
///
/// ```swift
/// let description = door.describe()
/// print(description.states.map { "\($0.state)" })  // ["open", "closed", "locked"]
/// print(description.routes.count)         // 4
/// print(description.dot())                // a Graphviz digraph
/// ```
///
/// A description is read from the machine's own tables when
/// ``Machine/describe()`` is called: it is a snapshot, not kept up to date.
/// Everything in it is listed in the order it was declared or registered,
/// never in the order of a hash table, so that describing the same machine
/// twice, in two runs, gives equal descriptions and identical diagrams.
public struct MachineDescription<S: StateType, E: EventType> {
    /// The state the machine starts in (its statechart's initial state).
    public let initialState: S
    /// Every state the machine's routes, handlers and declarations name,
    /// with the initial state first if nothing else names it, then in the
    /// order they were first named.
    ///
    /// A state of a nested machine that this machine names through the enum
    /// case the machine was nested as (`.editor(.typing)`) is not listed
    /// here but in that nested machine's ``NestedMachine/statesNamedHere``.
    public let states: [State]
    /// Every event the machine's routes and handlers name, in the order they
    /// were first named.
    public let events: [E]
    /// The machine's routes, in the order they were added.
    public let routes: [Route]
    /// The machine's route mappings, in the order they were added.
    public let routeMappings: [RouteMapping]
    /// How many handlers of each kind the machine has.
    public let handlerCounts: HandlerCounts
    /// The machine's handlers, in the order they were registered.
    public let handlers: [Handler]
    /// The machines nested in this one, in the order they were nested.
    public let nestedMachines: [NestedMachine]

    /// The internal codes of ``states``, by position: what diagrams name states by.
    let stateCodes: [UInt32]

    init(
        initialState: S, states: [State], stateCodes: [UInt32], events: [E], routes: [Route],
        routeMappings: [RouteMapping], handlerCounts: HandlerCounts, handlers: [Handler],
        nestedMachines: [NestedMachine]
    ) {
        self.initialState = initialState
        self.states = states
        self.stateCodes = stateCodes
        self.events = events
        self.routes = routes
        self.routeMappings = routeMappings
        self.handlerCounts = handlerCounts
        self.handlers = handlers
        self.nestedMachines = nestedMachines
    }

    /// The description of `state`, `nil` if the machine does not name it.
    ///
    /// - Parameter state: A state of the machine.
    /// - Returns: Its description.
    /// - Complexity: O(*n*) in the states.
    public func state(_ state: S) -> State? {
        states.first { $0.state == state }
    }

    /// The top-level states, in the order they were first named.
    public var topLevelStates: [State] {
        states.filter { $0.parent == nil }
    }
}

extension MachineDescription {
    /// One state: where it sits in the tree, and how it is entered.
    public struct State {
        /// What kind of state it is.
        public enum Kind: Hashable, Sendable {
            /// No children.
            case atomic
            /// Children, of which one is active while the state is.
            case compound
            /// Children (regions) that are all active while the state is.
            case parallel
        }

        /// The state.
        public let state: S
        /// Whether it has children or regions.
        public let kind: Kind
        /// The state it is a child or region of; `nil` for a top-level state.
        public let parent: S?
        /// Its children (for a parallel state, its regions), in the order
        /// they were declared.
        public let children: [S]
        /// The child a compound state enters first: the declared initial
        /// child, else its first child; `nil` for other kinds.
        public let initial: S?
        /// The history the state keeps, if any.
        public let history: HistoryKind?
        /// What the state enters through its history before it has recorded
        /// any, when declared; `nil` for the initial child (or the regions).
        public let historyDefault: S?
        /// Whether entering the state completes its parent, or, for a
        /// top-level state, finishes the machine.
        public let isFinal: Bool
    }
}

extension MachineDescription {
    /// How many handlers of each kind a machine has.
    public struct HandlerCounts: Hashable, Sendable {
        /// Handlers of event-driven transitions (`addHandler(event:)`, `.any` included).
        public let event: Int
        /// Handlers of state-driven transitions (`addHandler(_ transition:)`).
        public let state: Int
        /// Handlers of transitions of both kinds (`addAnyHandler`).
        public let any: Int
        /// Error handlers.
        public let error: Int
        /// Entry handlers.
        public let entry: Int
        /// Exit handlers.
        public let exit: Int
        /// Actions attached to one route each.
        public let action: Int

        /// All the handlers together.
        public var total: Int {
            event + state + any + error + entry + exit + action
        }
    }
}

extension MachineDescription {
    /// A machine nested in this one, under one of its states or as an enum case.
    public struct NestedMachine {
        /// The state it is nested under; `nil` when it was nested as an enum
        /// case only, under a state only the hierarchy can see.
        public let host: S?
        /// The states of this machine that name its states (through the enum
        /// case it was nested as), in the order they were first named.
        public let statesNamedHere: [S]
        /// Its own description, with the machines nested in it.
        public let machine: AnyMachineDescription

        /// The internal codes of ``statesNamedHere`` here, and of the states
        /// they name in the nested machine.
        let aliases: [(code: UInt32, nestedCode: UInt32)]
    }
}
