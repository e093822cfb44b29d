// A flat machine's decisions, the walk of its state then the root, and
// what a decision answers.

extension RouteTable {
    /// Where `event` takes the machine from `state`; for a question about
    /// one move (`hasRoute`), where it may take it if it names `reaching`.
    ///
    /// The one order of every machine (SPEC §2, §3.2), for a flat machine's
    /// walk of two states: `state`, then `.any` (the root); on each, this
    /// event's routes, then `.any` event's, each in registration order
    /// (``Storage/firstRouteWalking(event:code:from:current:reaching:userInfo:refusal:)``,
    /// a statechart's walk with one state); route mappings last, in
    /// registration order. The first route whose guard allows the move (and
    /// that leads to `reaching`, if given) wins.
    ///
    /// - Parameters:
    ///   - event: The event fired.
    ///   - eventCode: `code(of: event)`.
    ///   - state: The current state.
    ///   - stateCode: `code(of: state)`.
    ///   - wanted: For a question, the target it asks about: routes and
    ///     mappings that lead elsewhere are passed over, their conditions unasked.
    ///   - userInfo: Passed to conditions and mappings.
    /// - Returns: The move and its target's code, or why there is none.
    /// - Complexity: No hashing; at most four integer look-ups, then the
    ///   guards of the routes that could fire.
    @inlinable
    func decide(
        event: E, code eventCode: SymbolCode, from state: S, code stateCode: SymbolCode, reaching wanted: S? = nil,
        userInfo: UserInfoBox?
    ) -> Decision<S> {
        let storage = self.storage
        var refusal: Refusal?
        if let route = storage.firstRouteWalking(
            event: event, code: eventCode, from: stateCode, current: state, reaching: wanted, userInfo: userInfo,
            refusal: &refusal)
        {
            // A route to `.any` keeps an event's machine where it is.
            return route.target == nil
                ? .move(to: state, code: stateCode, taken: TakenRoute(id: route.id))
                : .move(to: route.target!, code: route.targetCode, taken: TakenRoute(id: route.id))
        }
        if let (target, taken) = storage.mappedMove(
            event: event, from: state, reaching: wanted, userInfo: userInfo, refusal: &refusal)
        {
            return .move(to: target, code: .unknown, taken: taken)
        }
        return refusal.map(Decision.refused) ?? .noRoute
    }

    /// Whether the machine may go from `state` to `target` by asking for the state.
    ///
    /// The one order of every machine (SPEC §2, §3.2), for a flat machine's
    /// walk of two states: `state`, then `.any` (the root), each asked as a
    /// statechart asks a node for a state
    /// (``Storage/firstRoute(on:to:code:current:userInfo:refusal:)``:
    /// event-less routes, then event routes of every event); then state
    /// route mappings, then route mappings asked with a `nil` event.
    /// Event routes count only once ``indexEventRoutesByTransition()`` has run.
    ///
    /// - Complexity: No hashing; at most eight integer look-ups, then the
    ///   guards of the routes that could allow the move.
    // Always inlined: called out of line, as the optimiser chose once the
    // mappings' calls grew, it cost a state request 26 instructions more.
    @inlinable
    @inline(__always)
    func decide(
        from state: S, code stateCode: SymbolCode, to target: S, code targetCode: SymbolCode, userInfo: UserInfoBox?
    ) -> Decision<S> {
        let storage = self.storage
        var refusal: Refusal?
        let route =
            storage.firstRoute(
                on: stateCode, to: target, code: targetCode, current: state, userInfo: userInfo, refusal: &refusal)
            ?? storage.firstRoute(
                on: .wildcard, to: target, code: targetCode, current: state, userInfo: userInfo, refusal: &refusal)
        if route != nil || storage.mappingsAllow(from: state, to: target, userInfo: userInfo) {
            return .move(to: target, code: targetCode, taken: .none)
        }
        return refusal.map(Decision.refused) ?? .noRoute
    }
}

/// Why routes that cover a request did not take it.
@usableFromInline
enum Refusal: Hashable, Sendable {
    /// The user's condition of every covering route said no.
    case conditions
    /// The covering routes list their source states, and the current state is not among them.
    case sourceNotListed
    /// The covering routes list their target states, and the target is not among them.
    case targetNotListed
    /// The request came while the machine was deciding another one.
    case reentrant
    /// The request came while a statechart's step was running; it waits.
    case queued
    /// The request was made to a nested machine whose state is not active.
    case inactive
    /// The machine entered a top-level final state: it takes no more steps.
    case finished
    /// The step was taken, but the eventless and done routes it led to did
    /// not settle within ``Machine/internalStepLimit`` steps.
    case unsettled

    /// What to report when a route refuses for `new` after others refused
    /// for `old`: a user's condition says the most, so it wins; otherwise
    /// the first reason stands.
    @inlinable
    static func merging(_ old: Refusal?, _ new: Refusal) -> Refusal {
        guard let old, new != .conditions else { return new }
        return old
    }
}

/// What a route table decided for one request.
@usableFromInline
enum Decision<S: StateType> {
    /// A route or mapping allows the move to this state, whose code is given
    /// (``SymbolCode/unknown`` after a route mapping: no look-up was needed).
    /// An event's decision names what it took; a state request's, which may
    /// be allowed by several routes at once, names nothing (``TakenRoute/none``).
    case move(to: S, code: SymbolCode, taken: TakenRoute)
    /// No route or mapping covers the request.
    case noRoute
    /// Routes cover the request, but each one's guard refused it.
    case refused(Refusal)

    /// Why routes refused the request: `nil` for a move, and when none covered it.
    @inlinable
    var refusal: Refusal? {
        if case .refused(let refusal) = self { refusal } else { nil }
    }
}
