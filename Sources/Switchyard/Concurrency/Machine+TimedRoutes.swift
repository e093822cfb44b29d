// Routes that fire after a duration in a state (XState's `after`, SCXML's
// delayed `<send>` cancelled on exit). A timed route is an eventless route
// whose condition holds only while its timer fires, so it is chosen, guarded
// and taken by the one engine path, with the usual exits, actions, handlers
// and entries; its source's entry and exit handlers arm and disarm the timer.

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Machine {
    /// Adds a route taken once its source has been active for `delay`.
    ///
    /// ```swift
    /// @MainActor final class Screen {
    ///     let machine = Machine<Banner, BannerEvent>(state: .hidden)
    ///
    ///     init() {
    ///         machine.addRoutes(event: .show, transitions: [.hidden => .shown])
    ///         machine.addTimedRoute(after: .seconds(5), .shown => .hidden)
    ///     }
    /// }
    /// ```
    ///
    /// Entering the source starts the count; leaving it stops it, and
    /// entering it again starts again from zero. When the count ends the
    /// route is offered once, as an eventless route: taken if its source is
    /// still active and its condition holds, with the usual exits, handlers
    /// and entries (the context's event is `nil`), and followed by the
    /// machine's eventless and done routes. A route added while its source
    /// is active starts counting at once.
    ///
    /// The timer is a task on the actor the route is added from, so the
    /// machine is only ever touched there; it is cancelled when the state is
    /// left, the route disposed, or the machine released. In tests, pass a
    /// ``ManualClock`` and advance it by hand.
    ///
    /// - Parameters:
    ///   - delay: How long the source must stay active.
    ///   - transition: From the state to count in, to the target (`.any` stays).
    ///   - condition: What must also hold when the count ends; `nil` always allows it.
    ///   - clock: The clock that measures `delay`: a `ContinuousClock` by
    ///     default, a ``ManualClock`` in tests.
    ///   - isolation: The actor the machine belongs to: the caller's, which
    ///     must be an actor (the main actor, or an actor of yours).
    /// - Returns: What removes the route and stops its timer.
    /// - Precondition: The caller is isolated to an actor, and the source is a state (not `.any`).
    @discardableResult
    public func addTimedRoute(
        after delay: Duration, _ transition: Transition<S>, condition: Condition? = nil,
        clock: some Clock<Duration> = ContinuousClock(), isolation: isolated (any Actor)? = #isolation
    ) -> Disposable {
        require(
            isolation != nil,
            "the timed route \(transition) was added outside any actor: its timer must fire on the machine's actor, so add it from the main actor or an actor (or use a SendableMachine)"
        )
        return addTimedRoute(transition, condition: condition) { [weak self] id, generation in
            let sleep = clock.timerSleep(until: clock.now.advanced(by: delay))
            return Task {
                _ = isolation
                do {
                    try await sleep()
                } catch {
                    return
                }
                self?.fireTimer(id, generation: generation)
            }
        }
    }

    /// Adds the eventless route, the timer and the handlers that arm and
    /// disarm it; `start` makes the task of one arming, which ends by firing
    /// the timer (``fireTimer(_:generation:)``).
    func addTimedRoute(
        _ transition: Transition<S>, condition: Condition?,
        start: @escaping (_ id: RegistrationID, _ generation: UInt64) -> Task<Void, Never>
    ) -> Disposable {
        guard let source = transition.fromState.rawValue else {
            fatalError("the timed route \(transition) leaves from .any: a timer counts in one state")
        }
        let id = makeID()
        let timer = RouteTimer { start(id, $0) }
        timers[id] = timer
        let route = addEventlessRoute(transition) { [weak timer] context in
            (timer?.isDue ?? false) && (condition?(context) ?? true)
        }
        let arming = addEntryHandler(source) { [weak timer] _ in timer?.arm() }
        let disarming = addExitHandler(source) { [weak timer] _ in timer?.disarm() }
        if isActive(source) {
            timer.arm()
        }
        return combine([
            route, arming, disarming,
            ActionDisposable { [weak self] in
                self?.timers.removeValue(forKey: id)?.disarm()
            },
        ])
    }
}

extension Machine {
    /// Offers the timed route of timer `id` once, if the timer is still
    /// armed for `generation`.
    func fireTimer(_ id: RegistrationID, generation: UInt64) {
        guard let timer = timers[id], timer.mayFire(generation) else { return }
        timer.isDue = true
        defer { timer.isDue = false }
        takeEventlessSteps()
    }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension SendableMachine {
    /// Adds a route taken once its source has been active for `delay`; see
    /// ``Machine/addTimedRoute(after:_:condition:clock:isolation:)``.
    ///
    /// The timer is a task that, when the count ends, takes the machine's
    /// lock and offers the route, as a request from another thread would.
    ///
    /// - Parameters:
    ///   - delay: How long the source must stay active.
    ///   - transition: From the state to count in, to the target (`.any` stays).
    ///   - condition: What must also hold when the count ends; `nil` always allows it.
    ///   - clock: The clock that measures `delay`: a `ContinuousClock` by
    ///     default, a ``ManualClock`` in tests.
    /// - Returns: What removes the route and stops its timer.
    @discardableResult
    public func addTimedRoute(
        after delay: Duration, _ transition: Transition<S>, condition: Condition? = nil,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> SendableDisposable {
        declare { machine in
            machine.addTimedRoute(transition, condition: condition) { [weak self] id, generation in
                let sleep = clock.timerSleep(until: clock.now.advanced(by: delay))
                return Task {
                    do {
                        try await sleep()
                    } catch {
                        return
                    }
                    self?.guarded.withLock { $0.fireTimer(id, generation: generation) }
                }
            }
        }
    }
}
