// Decisions for a statechart: the routes of one state at a time, which the
// statechart asks for each state on its walk from an active atomic state up
// to the root.

/// A route a statechart may take.
@usableFromInline
struct SelectedRoute<S: StateType> {
    @usableFromInline var id: RegistrationID
    /// The state the route leaves from; ``SymbolCode/wildcard`` for `.any` (the root).
    @usableFromInline var source: SymbolCode
    /// Where the route leads; `nil` for `.any` (stay), or a request's own target.
    @usableFromInline var target: S?
    @usableFromInline var targetCode: SymbolCode
    @usableFromInline var isLocal: Bool
    /// Whether the route's guard says more of how it moves (see
    /// ``RouteGuard/hasExtras``): kept there, out of this value, which each
    /// decision copies.
    @usableFromInline var hasExtras = false
    /// The node of the route in the table's event routes; -1 for a state route.
    @usableFromInline var node: Int32 = -1

    @inlinable
    init(id: RegistrationID, source: SymbolCode, target: S?, targetCode: SymbolCode, isLocal: Bool) {
        self.id = id
        self.source = source
        self.target = target
        self.targetCode = targetCode
        self.isLocal = isLocal
    }

    /// The route of `entry`, kept at `node`, leaving from `source`, with
    /// what its guard says of how it moves.
    @inlinable
    init<E>(
        _ entry: RouteTable<S, E>.Entry, at node: Int32, from source: SymbolCode, target: S?, targetCode: SymbolCode
    ) {
        self.init(id: entry.id, source: source, target: target, targetCode: targetCode, isLocal: false)
        self.node = node
        if let guarded = entry.guarded {
            isLocal = guarded.isLocal
            hasExtras = guarded.hasExtras
        }
    }
}

// Read from the storage, not the table, which a step holds while it
// chooses (see `Machine.withHeldRoutes(_:)`).
extension RouteTable.Storage {
    /// The first route of the chain at (`eventCode`, `state`) that `event`
    /// (`nil` for an eventless or done route) may take, in registration
    /// order; the reasons of those that refuse go into `refusal`.
    ///
    /// Conditions are told the machine's `current` state and the route's
    /// target (the current state for a route to `.any`). A question about
    /// one move (`hasRoute`) names its target as `reaching`: the routes that
    /// lead elsewhere are passed over unasked, so a question asks the
    /// conditions a request would, in the order it would.
    @inlinable
    func firstRoute(
        in eventCode: SymbolCode, _ state: SymbolCode, event: E?, current: S, reaching wanted: S? = nil,
        userInfo: UserInfoBox?, refusal: inout Refusal?
    ) -> SelectedRoute<S>? {
        guard eventCode != .unknown, state != .unknown, !eventRoutes.isEmpty else { return nil }
        // Most states on a walk up have no eventless or done route: skipped without a look-up.
        if eventCode.isReservedEvent, !hasRoutes(reservedEvent: eventCode, from: state) { return nil }
        var node = eventRoutes[eventCode, state].head
        while node >= 0 {
            // The entry read in place for its guard, and copied only once
            // chosen: a copy retains its guard.
            let target = eventEntries[node].target
            if let wanted, (target ?? current) != wanted {
                // Leads elsewhere: no answer to the question, and not asked.
            } else if let refused = eventEntries[node].refusal(
                event: event, from: current, to: target ?? current, userInfo: userInfo)
            {
                refusal = Refusal.merging(refusal, refused)
            } else {
                let entry = eventEntries[node]
                return SelectedRoute(entry, at: node, from: state, target: target, targetCode: entry.targetCode)
            }
            node = eventEntries.next(after: node)
        }
        return nil
    }

    /// The guard of the event route at `node`, which has one.
    @inlinable
    func guardOfEventRoute(at node: Int32) -> RouteGuard<S, E> {
        eventEntries[node].guarded.unchecked("the route at node \(node) has no guard")
    }

    /// What the event route at `node`, which has a guard, does besides
    /// moving to one target.
    @inlinable
    func extrasOfEventRoute(at node: Int32) -> RouteExtras {
        let guarded = guardOfEventRoute(at: node)
        return (guarded.ignoresHistory, guarded.otherTargets, guarded.action, guarded.actionID)
    }

    /// `route`, selected from this table, as a hierarchy's step takes it;
    /// what else it does, if anything, goes into `extras`.
    @inlinable
    func memberRoute(_ route: SelectedRoute<S>, extras: inout RouteExtras?) -> MemberRoute {
        if route.hasExtras {
            extras = extrasOfEventRoute(at: route.node)
        }
        return MemberRoute(route)
    }

    /// Whether `state` has routes of the event `eventCode` or of `.any`
    /// event: when not, ``firstRoute(event:code:on:current:userInfo:refusal:)``
    /// answers `nil` without a look at the guards.
    @inlinable
    func hasEventRoutes(code eventCode: SymbolCode, on state: SymbolCode) -> Bool {
        guard state != .unknown, !eventRoutes.isEmpty else { return false }
        return (eventCode != .unknown && !eventRoutes[eventCode, state].isEmpty)
            || !eventRoutes[.wildcard, state].isEmpty
    }

    /// The first route of `state` that `event` may take (and that leads to
    /// `reaching`, if a question names a target): the routes of this event,
    /// then those of `.any` event, each in registration order. With no
    /// event, the routes kept under the reserved code `eventCode` alone (an
    /// eventless or a done route), which no route of `.any` event hears.
    ///
    /// The one order of SPEC §2 on one state: every walk, of a flat machine
    /// (``firstRouteWalking(event:code:from:current:reaching:userInfo:refusal:)``)
    /// or a statechart (`Machine.firstMove`), asks each state through it.
    ///
    /// - Complexity: Two integer look-ups, then the guards of the routes tried.
    @inlinable
    func firstRoute(
        event: E?, code eventCode: SymbolCode, on state: SymbolCode, current: S, reaching wanted: S? = nil,
        userInfo: UserInfoBox?, refusal: inout Refusal?
    ) -> SelectedRoute<S>? {
        guard let event else {
            return firstRoute(
                in: eventCode, state, event: nil, current: current, reaching: wanted, userInfo: userInfo,
                refusal: &refusal)
        }
        // Most ancestors on a walk up the tree have no event routes at all.
        guard hasEventRoutes(from: state) else { return nil }
        return firstRoute(
            in: eventCode, state, event: event, current: current, reaching: wanted, userInfo: userInfo,
            refusal: &refusal)
            ?? firstRoute(
                in: .wildcard, state, event: event, current: current, reaching: wanted, userInfo: userInfo,
                refusal: &refusal)
    }

    /// The route `event` takes from `state` in a machine without children
    /// (and that leads to `reaching`, if a question names a target): the
    /// walk of a statechart, of two states, `state` then `.any` (the root),
    /// each with this event's routes before `.any` event's.
    ///
    /// For flat machines (``RouteTable/decide(event:code:from:code:reaching:userInfo:)``),
    /// charts without children, and flat definitions.
    @inlinable
    func firstRouteWalking(
        event: E?, code eventCode: SymbolCode, from state: SymbolCode, current: S, reaching wanted: S? = nil,
        userInfo: UserInfoBox?, refusal: inout Refusal?
    ) -> SelectedRoute<S>? {
        firstRoute(
            event: event, code: eventCode, on: state, current: current, reaching: wanted, userInfo: userInfo,
            refusal: &refusal)
            ?? firstRoute(
                event: event, code: eventCode, on: .wildcard, current: current, reaching: wanted, userInfo: userInfo,
                refusal: &refusal)
    }

    /// The first route of `state` that a request for `target` may take:
    /// event-less routes to it, then to `.any`, then the routes of every
    /// event, likewise.
    ///
    /// - Complexity: At most four integer look-ups, then the guards of the routes tried.
    @inlinable
    func firstRoute(
        on state: SymbolCode, to target: S, code targetCode: SymbolCode, current: S, userInfo: UserInfoBox?,
        refusal: inout Refusal?
    ) -> SelectedRoute<S>? {
        func selected(_ entry: RouteTable<S, E>.Entry, _ refusal: inout Refusal?) -> SelectedRoute<S>? {
            if let refused = entry.refusal(event: nil, from: current, to: target, userInfo: userInfo) {
                refusal = Refusal.merging(refusal, refused)
                return nil
            }
            return SelectedRoute(entry, at: -1, from: state, target: target, targetCode: targetCode)
        }
        func firstEventless(to second: SymbolCode, _ refusal: inout Refusal?) -> SelectedRoute<S>? {
            guard second != .unknown, !stateRoutes.isEmpty else { return nil }
            var node = stateRoutes[state, second].head
            while node >= 0 {
                if let route = selected(stateEntries[node], &refusal) { return route }
                node = stateEntries.next(after: node)
            }
            return nil
        }
        func firstOfAnEvent(to second: SymbolCode, _ refusal: inout Refusal?) -> SelectedRoute<S>? {
            guard second != .unknown, !eventRoutesByTransition.isEmpty else { return nil }
            var link = eventRoutesByTransition[state, second].head
            while link >= 0 {
                if let route = selected(eventEntries[eventRouteLinks[link]], &refusal) {
                    return route
                }
                link = eventRouteLinks.next(after: link)
            }
            return nil
        }
        return firstEventless(to: targetCode, &refusal) ?? firstEventless(to: .wildcard, &refusal)
            ?? firstOfAnEvent(to: targetCode, &refusal) ?? firstOfAnEvent(to: .wildcard, &refusal)
    }

    /// The first route mapping that names a target for `event` (`nil` when
    /// asking for a state) from `state` (the target `reaching`, if a question
    /// names one: a mapping that names another is passed over, as SwiftState
    /// asks every mapping for `hasRoute` and `tryState`), in registration
    /// order, and what was taken; a mapping that covers the request and
    /// refuses it sets `refusal`.
    // Always inlined: out of line in `decide(event:…)`, it cost `mapping` 30
    // instructions a request (a retain of the storage and the call).
    @inlinable
    @inline(__always)
    func mappedMove(
        event: E?, from state: S, reaching wanted: S? = nil, userInfo: UserInfoBox?, refusal: inout Refusal?
    ) -> (target: S, taken: TakenRoute)? {
        var node = routeMappingChain.head
        while node >= 0 {
            switch routeMappingAnswer(at: node, event: event, from: state, userInfo: userInfo) {
            case .move(let target, _) where wanted != nil && target != wanted:
                break
            case .move(let target, let clause):
                return (target, TakenRoute(id: routeMappings[node].id, clause: clause))
            case .refused:
                refusal = Refusal.merging(refusal, .conditions)
            case .none:
                break
            }
            node = routeMappings.next(after: node)
        }
        return nil
    }

    /// Whether a mapping lets a state request go from `state` to `target`:
    /// a state route mapping, else a route mapping asked with a `nil` event.
    @inlinable
    func mappingsAllow(from state: S, to target: S, userInfo: UserInfoBox?) -> Bool {
        var refusal: Refusal?
        return stateMappingAllows(from: state, to: target, userInfo: userInfo)
            || mappedMove(event: nil, from: state, reaching: target, userInfo: userInfo, refusal: &refusal) != nil
    }

    /// Whether a state route mapping allows `state` → `target`.
    @inlinable
    func stateMappingAllows(from state: S, to target: S, userInfo: UserInfoBox?) -> Bool {
        var node = stateRouteMappingChain.head
        while node >= 0 {
            if let targets = stateRouteMappingTargets(at: node, from: state, userInfo: userInfo),
                targets.contains(target)
            {
                return true
            }
            node = stateRouteMappings.next(after: node)
        }
        return false
    }
}
