/// One decision of a machine, as ``Machine/inspect(_:)`` shows it to an
/// observer: what was asked, whether it was taken or refused (and why), and
/// for a statechart's step the actions it takes, in the order they run.
///
/// ```swift
/// let logging = player.inspect { inspection in
///     print(inspection)
///     // "event(play): stopped => playing, exits [stopped], routes [stopped => active], entries [active, playing]"
/// }
/// ```
///
/// A flat machine's decision has no exits, entries or routes: its handlers
/// of a transition are the only actions it runs. A statechart's step lists
/// the states it exits (innermost first), the routes it takes (in the order
/// their actions run) and the states it enters (outermost first). In a
/// hierarchy of nested machines, the root names the states as it names them,
/// and leaves out those of nested machines it has no value for.
///
/// Besides decisions, an observer hears ``Machine/start()`` enter the
/// initial configuration (a ``Request/start`` inspection whose entries are
/// its states, outermost first) and the machine finish once it has entered
/// a top-level final state (a ``Request/finish`` inspection whose exits are
/// the states left, innermost first):
///
/// ```swift
/// player.start()
/// // "start: stopped => stopped, entries [stopped]"
/// ```
public struct Inspection<S: StateType, E: EventType> {
    /// What caused a decision.
    public enum Request {
        /// An event sent (`tryEvent`).
        case event(E)
        /// A state asked for (`tryState`): the state asked for.
        case state(S)
        /// A statechart's eventless routes, taken after a step.
        case eventless
        /// A statechart's done routes, taken when a state completes.
        case done
        /// ``Machine/start()``, entering the initial configuration: the
        /// inspection's ``Inspection/entries`` are its states, outermost
        /// first (a flat machine's: its state), and `fromState` and
        /// `toState` are both the machine's `state`. The eventless and done
        /// steps the start leads to are inspections of their own, after it.
        case start
        /// The machine finishing, right after the step that entered a
        /// top-level final state: the inspection's ``Inspection/exits`` are
        /// the states whose exit handlers run, innermost first, and
        /// `fromState` and `toState` are both the machine's `state`, which
        /// stays for reading.
        case finish
    }

    /// One route a statechart's step takes; its trigger is the step's ``Inspection/request``.
    public struct Route {
        /// The state the route leaves from, `nil` if the machine has no value for it.
        public var source: S?
        /// The state the route leads to; `nil` for a route without target
        /// (which stays), or one the machine has no value for.
        public var target: S?

        /// Creates a route; machines make these, tests may too.
        ///
        /// - Parameters:
        ///   - source: The state the route leaves from.
        ///   - target: The state it leads to; `nil` for none.
        public init(source: S?, target: S?) {
            self.source = source
            self.target = target
        }
    }

    /// What caused the decision.
    public var request: Request
    /// The machine's `state` before the decision.
    public var fromState: S
    /// The machine's `state` after it; for a refused event, `fromState`,
    /// and for a refused state request, the state asked for (as error
    /// handlers are told).
    public var toState: S
    /// Why the request was refused, or `nil` for a step taken.
    public var refusal: TransitionError.Reason?
    /// The states the step exits, innermost first; empty for a flat machine.
    /// For a ``Request/finish``, the states left as the machine finishes.
    public var exits: [S]
    /// The routes the step takes, in the order their actions run; empty
    /// for a flat machine.
    public var routes: [Route]
    /// The states the step enters, outermost first; empty for a flat machine.
    /// For a ``Request/start``, the initial configuration.
    public var entries: [S]

    /// Creates an inspection; machines make these, tests may too.
    ///
    /// - Parameters:
    ///   - request: What caused the decision.
    ///   - fromState: The state before.
    ///   - toState: The state after, or the state asked for.
    ///   - refusal: Why the request was refused; `nil` for a step taken.
    ///   - exits: The states exited, innermost first.
    ///   - routes: The routes taken, in the order their actions run.
    ///   - entries: The states entered, outermost first.
    public init(
        request: Request, fromState: S, toState: S, refusal: TransitionError.Reason? = nil, exits: [S] = [],
        routes: [Route] = [], entries: [S] = []
    ) {
        self.request = request
        self.fromState = fromState
        self.toState = toState
        self.refusal = refusal
        self.exits = exits
        self.routes = routes
        self.entries = entries
    }

    /// Whether the machine took the step (rather than refusing the request).
    public var isAccepted: Bool { refusal == nil }
}

extension Inspection: Sendable where S: Sendable, E: Sendable {}
extension Inspection.Request: Sendable where S: Sendable, E: Sendable {}
extension Inspection.Route: Sendable where S: Sendable {}

extension Inspection.Request: Equatable {}
extension Inspection.Route: Equatable {}
extension Inspection: Equatable {}

extension Inspection: CustomStringConvertible {
    /// The request, `from => to`, then the refusal or the step's actions:
    /// `event(lock): closed => closed, refused: noRoute`.
    public var description: String {
        var text = "\(request): \(fromState) => \(toState)"
        if let refusal {
            text += ", refused: \(refusal)"
        }
        if !exits.isEmpty {
            text += ", exits [\(exits.map { "\($0)" }.joined(separator: ", "))]"
        }
        if !routes.isEmpty {
            let routes = routes.map { "\($0.source.map { "\($0)" } ?? "_") => \($0.target.map { "\($0)" } ?? "_")" }
            text += ", routes [\(routes.joined(separator: ", "))]"
        }
        if !entries.isEmpty {
            text += ", entries [\(entries.map { "\($0)" }.joined(separator: ", "))]"
        }
        return text
    }
}

extension Inspection.Request: CustomStringConvertible {
    /// `event(play)`, `state(paused)`, `eventless`, `done`, `start` or `finish`.
    public var description: String {
        switch self {
        case .event(let event): "event(\(event))"
        case .state(let state): "state(\(state))"
        case .eventless: "eventless"
        case .done: "done"
        case .start: "start"
        case .finish: "finish"
        }
    }
}
