// The questions a condition may ask its own machine while it decides, and
// how routes and handlers are registered and disposed of.

// MARK: - Questions

extension Machine {
    /// A question a condition may ask its own machine, kept while it is
    /// answered so that the same question asked again inside it is caught.
    @usableFromInline
    enum Question: Equatable {
        case event(E, from: S, to: S?)
        case state(from: S, to: S)
        /// A question a machine nested in this one asked, in its codes
        /// (``SymbolCode/unknown`` for no target).
        case nested(member: Int, event: E?, from: SymbolCode, to: SymbolCode)
    }

    /// Answers `question` with `answer`, or with `unanswerable` if a
    /// condition or mapping asks it again while it is being answered: asked
    /// again, it would ask that condition again, for ever.
    @usableFromInline
    func answer<Answer>(_ question: Question, unanswerable: Answer, _ answer: () -> Answer) -> Answer {
        if decisionDepth > 0 {
            guard !openQuestions.contains(question) else {
                assertionFailure(
                    """
                    Switchyard: a condition or route mapping asked \(question) while that same question was \
                    being answered, so answering it would ask the same condition again without end. A condition \
                    must not ask about the routes it guards; the inner question is answered \(unanswerable).
                    """)
                return unanswerable
            }
            openQuestions.append(question)
        }
        decisionDepth += 1
        assert(noteDecidingThread())
        defer {
            decisionDepth -= 1
            if decisionDepth > 0 {
                openQuestions.removeLast()
            }
        }
        return answer()
    }
}

// MARK: - Registering

extension Machine {
    /// Hands out `count` registrations in a row and returns the first.
    func makeIDs(count: Int) -> RegistrationID {
        let first = RegistrationID(rawValue: lastID + 1)
        lastID += UInt64(count)
        return first
    }

    /// The disposable of registration `id`, kept at `node` of the table `kind` names.
    func registration(_ id: RegistrationID, at node: Int32, in kind: Registration.Kind) -> Registration {
        Registration(owner: registrationOwner, id: id, node: node, kind: kind)
    }

    /// Whether `registration` is still in the machine, removing it first if
    /// `removing`; a handler that a running delivery has listed is skipped
    /// there too.
    ///
    /// What a removal takes out is let go of last, once the tables are whole
    /// again: its closures' captures may run code that adds or disposes
    /// registrations, or may hold the last reference to this machine, so
    /// nothing here touches the machine after that (hence `_ =` on each
    /// removal, as its last step).
    ///
    /// - Complexity: O(1).
    func access(_ registration: Registration, removing: Bool) -> Bool {
        let (id, node) = (registration.id, registration.node)
        switch registration.kind {
        case .handler:
            guard let slot = handlers.storage.slot(of: id, at: node) else { return false }
            if removing {
                if deliveryDepth > 0 {
                    disposedDuringDelivery.insert(id)
                }
                _ = handlers.remove(node, from: slot)
            }
        case .eventRoute:
            guard routes.holdsEventRoute(id, at: node) else { return false }
            if removing {
                _ = routes.removeEventRoute(at: node)
            }
        case .stateRoute:
            guard routes.holdsStateRoute(id, at: node) else { return false }
            if removing {
                _ = routes.removeStateRoute(at: node)
            }
        case .routeMapping:
            guard routes.holdsRouteMapping(id, at: node) else { return false }
            if removing {
                _ = routes.removeRouteMapping(at: node)
            }
        case .stateRouteMapping:
            guard routes.holdsStateRouteMapping(id, at: node) else { return false }
            if removing {
                _ = routes.removeStateRouteMapping(at: node)
            }
        }
        return true
    }

    /// Adds a handler to `slot` and returns what removes it.
    @usableFromInline
    func register(_ slot: HandlerSlot, order: HandlerOrder, handler: @escaping Handler) -> Disposable {
        let id = makeID()
        let node = handlers.add(HandlerEntry(order: order, slot: slot, id: id), body: handler)
        return Registration.disposable(owner: registrationOwner, id: id, node: node, kind: .handler)
    }

    /// The slot of handlers for `event` (or any event).
    func slot(event: Event<E>) -> HandlerSlot {
        .event(routes.intern(event.rawValue))
    }

    /// The codes of a transition's sides, for a handler slot.
    func codes(of transition: Transition<S>) -> (from: SymbolCode, to: SymbolCode) {
        (routes.intern(transition.fromState.rawValue), routes.intern(transition.toState.rawValue))
    }

    /// One disposable for several registrations.
    @usableFromInline
    func combine(_ disposables: [Disposable]) -> Disposable {
        ActionDisposable {
            for disposable in disposables {
                disposable.dispose()
            }
        }
    }
}
