// A nested machine's side of a hierarchy: the closures through which its root
// reads its routes, tells it its state and runs its handlers (issue 37 item 2
// replaces them with a typed interface).

extension Machine {
    /// The closures its root runs this machine's part of a step through.
    ///
    /// The root keeps the machine, and the machines between them, alive
    /// while it is nested: the closures use them unretained.
    @inlinable
    func makeMemberAccess<P: StateType, PE: EventType>(parent: Machine<P, PE>, embed: ((S) -> P)?) -> MemberAccess {
        let machine = Unretained(self)
        return MemberAccess(
            naming: makeNaming(parent: Unretained(parent), embed: embed), routes: makeRouteAccess(),
            handlers: makeHandlerAccess(),
            relink: { link in machine.withObject { $0.nestingLink = link } },
            detach: { tree in
                machine.withObject { machine in
                    machine.nestingLink = nil
                    let chart = Statechart()
                    chart.tree = tree
                    machine.chart = chart
                    machine.stepEntry = .root
                    machine.initialState = machine.currentState
                    machine.beginNesting()
                }
            })
    }

    /// How the root names this machine's states, nested in `parent` as `embed`.
    @inlinable
    func makeNaming<P: StateType, PE: EventType>(parent: Unretained<Machine<P, PE>>, embed: ((S) -> P)?)
        -> MemberAccess.Naming
    {
        let machine = Unretained(self)
        return MemberAccess.Naming(
            count: { machine.withObject { $0.routes.storage.states.count } },
            isNamed: { code in machine.withObject { $0.routes.storage.states.name(of: code) != nil } },
            nameInParent: embed.map { embed in
                { code in
                    let (value, isTransient) = machine.withObject {
                        ($0.value(of: code), $0.routes.storage.states.transient.contains(code))
                    }
                    // Transient in the parent too while only this machine's
                    // transient code names it (see `handBack`).
                    return parent.withObject {
                        isTransient ? $0.routes.internTransient(embed(value)) : $0.routes.intern(embed(value))
                    }
                }
            },
            claim: embed.map { embed in
                { parentCode in
                    guard let value = parent.withObject({ $0.routes.storage.states.name(of: parentCode) }),
                        let payload = Machine<P, PE>.payload(of: value, as: S.self), embed(payload) == value
                    else { return nil }
                    // A transient code stays one: the parent may have
                    // named the image only for it (see `nameInParent`).
                    return machine.withObject { machine in
                        let code = machine.routes.storage.states.code(of: payload)
                        return code != .unknown ? code : machine.routes.intern(payload)
                    }
                }
            },
            reserveCode: { machine.withObject { $0.routes.uniqueStorage.states.reserveAnonymousCode() } },
            describe: { code in machine.withObject { $0.name(of: code) } },
            transientCodes: { machine.withObject { $0.routes.storage.states.transient } },
            handBack: { code, keep, parentCode in
                machine.withObject { machine in
                    // The image's code is the parent's to keep once the
                    // parent names it itself (it is no longer transient).
                    let parentKeeps =
                        parentCode != 0
                        && parent.withObject { !$0.routes.storage.states.transient.contains(parentCode) }
                    if keep || parentKeeps {
                        machine.routes.uniqueStorage.states.keep(code)
                        return false
                    }
                    if let embed, parentCode != 0 {
                        let image = embed(machine.value(of: code))
                        parent.withObject { $0.routes.uniqueStorage.states.forget(image) }
                    }
                    machine.routes.uniqueStorage.states.release(code)
                    return true
                }
            },
            renameInParent: embed.map { embed in
                { parentCode, code in
                    let image = embed(machine.withObject { $0.value(of: code) })
                    parent.withObject { $0.routes.uniqueStorage.states.rename(parentCode, to: image) }
                }
            })
    }

    /// How the root asks this machine's routes and route mappings.
    @inlinable
    func makeRouteAccess() -> MemberAccess.Routes {
        let machine = Unretained(self)
        let hasEvents = E.self != NoEvent.self
        return MemberAccess.Routes(
            hasEvents: hasEvents,
            eventCode: { event in machine.withObject { $0.routes.code(of: event.load(as: E.self)) } },
            firstRoute: { event, eventCode, state, current, reaching, userInfo, refusal, extras in
                machine.withObject { machine in
                    // Most of the states a walk asks have no route: answered
                    // before the table is held.
                    let mayHaveRoutes =
                        event == nil
                        ? machine.routes.hasRoutes(reservedEvent: eventCode)
                        : machine.routes.storage.hasEventRoutes(code: eventCode, on: state)
                    guard mayHaveRoutes else { return nil }
                    return machine.withHeldRoutes { routes in
                        routes.firstRoute(
                            event: event?.load(as: E.self), code: eventCode, on: state,
                            current: routes.states.value(of: current),
                            reaching: reaching.map { routes.states.value(of: $0) }, userInfo: userInfo,
                            refusal: &refusal
                        ).map { routes.memberRoute($0, extras: &extras) }
                    }
                }
            },
            hasRoutes: { eventCode in machine.withObject { $0.routes.hasRoutes(reservedEvent: eventCode) } },
            firstStateRoute: { state, target, current, userInfo, refusal in
                machine.withObject { machine in
                    let routes = machine.routesForStateRequests()
                    guard
                        let route = routes.storage.firstRoute(
                            on: state, to: machine.value(of: target), code: target,
                            current: machine.value(of: current), userInfo: userInfo, refusal: &refusal)
                    else { return nil }
                    return MemberRoute(id: route.id, target: target, isLocal: route.isLocal)
                }
            },
            mappedTarget: { event, from, userInfo in
                machine.withObject { machine in
                    var refusal: Refusal?
                    let move = machine.mappedMove(
                        event: hasEvents ? event?.load(as: E.self) : nil, from: machine.value(of: from),
                        userInfo: userInfo, refusal: &refusal)
                    return move.map { machine.transientCode(of: $0.target) }
                }
            },
            mappingsAllow: { event, from, to, userInfo in
                machine.withObject { machine in
                    let routes = machine.routes
                    let (from, to) = (machine.value(of: from), machine.value(of: to))
                    guard let event else {
                        return routes.storage.mappingsAllow(from: from, to: to, userInfo: userInfo)
                    }
                    var refusal: Refusal?
                    return routes.storage.mappedMove(
                        event: hasEvents ? event.load(as: E.self) : nil, from: from, reaching: to, userInfo: userInfo,
                        refusal: &refusal) != nil
                }
            })
    }

    /// How the root tells this machine its state and runs its handlers.
    @inlinable
    func makeHandlerAccess() -> MemberAccess.Handlers {
        let machine = Unretained(self)
        return MemberAccess.Handlers(
            setCurrent: { code in
                machine.withObject { machine in
                    machine.currentCode = code
                    machine.currentState = machine.value(of: code)
                    // Its share of the configuration may have changed with
                    // its state, or alone, as its parent entered or left it.
                    machine.watchers?.observe?()
                }
            },
            // The handler table's storage is held, not copied.
            deliverLifecycle: { entering, code, facts in
                machine.withObject { machine in
                    machine.withHeldHandlers { handlers in
                        // Most states have no entry or exit handler: build no context for them.
                        guard handlers.hasLifecycleHandlers(entering: entering, of: code) else { return }
                        let context = machine.context(of: facts)
                        machine.delivering {
                            handlers.forEachLifecycleHandler(entering: entering, of: code) {
                                machine.invoke($0, context)
                            }
                        }
                    }
                }
            },
            transitionInterest: { kind, eventCode in
                machine.withObject { machine in
                    machine.withHeldHandlers { handlers in
                        // A machine watched (transitions(), observable) hears every step.
                        let hears = handlers.mayHear(kind, event: eventCode) || machine.watchers != nil
                        return (hears, handlers.matchesStates(of: kind))
                    }
                }
            },
            deliverTransition: { kind, eventCode, before, after, facts in
                machine.withObject { machine in
                    machine.withHeldHandlers { handlers in
                        let context = machine.context(of: facts)
                        machine.report(kind, context, refusal: nil)
                        machine.delivering {
                            handlers.forEachHandler(kind: kind, event: eventCode, before: before, after: after) {
                                machine.invoke($0, context)
                            }
                        }
                    }
                }
            },
            deliverError: { facts, refusal in
                machine.withObject { machine in
                    let context = machine.context(of: facts)
                    machine.delivering { machine.deliverErrorHandlers(context, refusal: refusal) }
                }
            },
            deliverAction: { node, id, facts in
                machine.withObject { machine in
                    machine.withHeldHandlers { handlers in
                        // A condition may have disposed the route, and its action with it.
                        guard handlers.holds(id, at: node) else { return }
                        let context = machine.context(of: facts)
                        machine.delivering { machine.invoke(handlers[node], context) }
                    }
                }
            },
            inspectStart: {
                machine.withObject { $0.inspectOwnStart() }
            })
    }

    /// What this machine's handlers are told of a step its root takes.
    @inlinable
    @inline(__always)
    func context(of facts: StepFacts) -> Context {
        let states = routes.storage.states
        return Context(
            event: E.self != NoEvent.self ? facts.event?.load(as: E.self) : nil,
            fromState: states.value(of: facts.before), toState: states.value(of: facts.after),
            userInfoBox: facts.userInfo?.withObject { $0 })
    }

    /// Runs `body`, handlers of this machine that its root delivers, as a
    /// delivery of this machine's own.
    @inlinable
    func delivering(_ body: () -> Void) {
        beginDelivery(on: nil)
        body()
        endDelivery(on: nil)
    }
}
