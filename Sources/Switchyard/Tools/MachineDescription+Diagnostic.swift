extension MachineDescription {
    /// A problem ``MachineDescription/validate()`` found, naming the states,
    /// routes and handlers concerned.
    ///
    /// Routes and handlers are named by their positions in
    /// ``MachineDescription/routes`` and ``MachineDescription/handlers``;
    /// ``description`` writes the problem out for a log.
    public enum Diagnostic: Hashable {
        /// No route, route mapping or default entry leads to the state from
        /// the initial configuration.
        case unreachableState(S)
        /// An atomic state that is not final, and that no route or route
        /// mapping leaves, from it or from any state containing it.
        case inescapableState(S)
        /// The route at `route` is never taken: the unconditional route at
        /// `shadowingRoute`, added before it, has the same trigger and the
        /// same source (`nil` for `.any`), and for a state route the same
        /// target.
        case shadowedRoute(Int, by: Int, source: S?)
        /// The handler at `handler` is registered for an event or a
        /// transition that no route or route mapping allows.
        case unusedHandler(Int, Handler.Kind)
        /// The eventless routes at `routes`, none with a condition, each lead
        /// into the source of the next, the last into the first's: once one
        /// is taken, the machine never settles. `states` are their sources,
        /// in the same order.
        case eventlessCycle(routes: [Int], states: [S])
        /// The route at `route` leaves `state`, a final state: SCXML's
        /// `<final>` has no transitions, so the SCXML export leaves the
        /// route out, yet the machine takes it while `state` is active
        /// inside its parent (which stops being done); from a top-level
        /// final state that finished the machine, it is never taken.
        case routeFromFinalState(Int, state: S)
        /// The done route at `route` waits for `state` to be done, which it
        /// never is: a compound state is done when a final child is entered,
        /// a parallel state when every region is done, and `state` has no
        /// final child (a parallel state: some region cannot be done). The
        /// states only such routes lead to are reported as never reached.
        case doneRouteNeverTaken(Int, state: S)
    }
}

extension MachineDescription.Diagnostic: CustomStringConvertible {
    /// The problem, in one line, for a log.
    public var description: String {
        func name(_ state: S?) -> String {
            state.map { "\($0)" } ?? "any"
        }
        switch self {
        case .unreachableState(let state):
            return "state \(state) is never reached from the initial configuration"
        case .inescapableState(let state):
            return "state \(state) cannot be left and is not final"
        case .shadowedRoute(let route, let shadowingRoute, let source):
            return
                "route \(route) from \(name(source)) is never taken: route \(shadowingRoute), added before it with the same trigger and source, has no condition"
        case .unusedHandler(let handler, let kind):
            let key: String
            switch kind {
            case .event(let event): key = "of event \(event.map { "\($0)" } ?? "any")"
            case .transition(let from, let to): key = "of \(name(from)) => \(name(to))"
            case .anyTransition(let from, let to): key = "of any transition \(name(from)) => \(name(to))"
            case .error, .entry, .exit, .action: key = "\(kind)"
            }
            return "handler \(handler) \(key) is registered for a transition no route allows"
        case .eventlessCycle(let routes, let states):
            let path = (states + states.prefix(1)).map { "\($0)" }.joined(separator: " -> ")
            return
                "eventless routes \(routes.map(String.init).joined(separator: ", ")) have no condition and form a cycle: \(path)"
        case .routeFromFinalState(let route, let state):
            return
                "route \(route) leaves final state \(state), which SCXML does not allow: it is left out of the SCXML export, and taken only while \(state) is active inside its parent, never once it has finished the machine"
        case .doneRouteNeverTaken(let route, let state):
            return
                "done route \(route) is never taken: \(state) is never done, since it has no final child (or, parallel, a region without one)"
        }
    }
}
