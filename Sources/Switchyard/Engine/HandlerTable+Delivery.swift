// A handler table's storage: adding a handler to its chains, and walking the
// chains a delivery calls, most specific first.

// Delivery reads the storage, not the table: a step holds it for all its
// deliveries (see `Machine.withHandlersHeldForSteps(_:)`).
extension HandlerTable.Storage {
    /// The slot of registration `id`'s record at `node`, `nil` if it was removed.
    @inlinable
    func slot(of id: RegistrationID, at node: Int32) -> HandlerSlot? {
        guard let entry = entries.element(at: node), entry.id == id else { return nil }
        return entry.slot
    }

    /// Whether the record at `node` is registration `id`'s: not if it was
    /// removed, and its node then given to another.
    @inlinable
    func holds(_ id: RegistrationID, at node: Int32) -> Bool {
        slot(of: id, at: node) != nil
    }

    // MARK: Delivery

    /// Calls `body` with every handler that `kind` of transition concerns, in
    /// delivery order: by `order`, then most specific first, then
    /// registration order.
    ///
    /// The sorted chains are merged on the fly, without allocating; a single
    /// chain, the common case, is walked directly.
    ///
    /// - Parameters:
    ///   - kind: Which handlers the transition concerns.
    ///   - codes: The codes of the transition's event and states.
    ///   - body: Called with each handler.
    @inlinable
    func forEachHandler(kind: DeliveryKind, codes: TransitionCodes, _ body: (HandlerTable<S, E>.Record) -> Void) {
        let (event, from, to) = (codes.event, codes.from, codes.to)
        if kind == .error {
            walk(errorHandlers, body)
            return
        }
        // At most 8 chains: 4 transition shapes of state (or 2 of event)
        // handlers, and 4 of "any" handlers.
        UnsafeArrayHandle<Int32>.withTemporary(capacity: 8) { cursors in
            var count = 0
            func add(_ chain: Chain) {
                guard !chain.isEmpty else { return }
                cursors[count] = chain.head
                count += 1
            }
            // Names the index by a flag rather than taking it as an argument: a
            // copy of the index would cost a retain and a release per delivery.
            func addChains(ofStateHandlers: Bool) {
                func chain(_ first: SymbolCode, _ second: SymbolCode) -> Chain {
                    ofStateHandlers ? stateHandlers[first, second] : anyHandlers[first, second]
                }
                let shapes = ofStateHandlers ? stateHandlers.shapes : anyHandlers.shapes
                // Most tables hold `.any => .any` handlers alone: one look-up.
                if shapes.contains(0) { add(chain(from, to)) }
                if shapes.contains(1) { add(chain(from, .wildcard)) }
                if shapes.contains(2) { add(chain(.wildcard, to)) }
                if shapes.contains(3) { add(chain(.wildcard, .wildcard)) }
            }
            if kind == .event {
                if event.isConcrete {
                    add(eventChain(event))
                }
                add(eventChain(.wildcard))
            } else {
                addChains(ofStateHandlers: true)
            }
            addChains(ofStateHandlers: false)
            merge(cursors, count: count, body)
        }
    }

    /// Whether the state `code` has entry (or exit) handlers.
    @inlinable
    func hasLifecycleHandlers(entering: Bool, of code: SymbolCode) -> Bool {
        !lifecycleChain(entering: entering, code).isEmpty
    }

    /// Calls `body` with the entry (or exit) handlers of the state `code`, in order.
    @inlinable
    func forEachLifecycleHandler(entering: Bool, of code: SymbolCode, _ body: (HandlerTable<S, E>.Record) -> Void) {
        walk(lifecycleChain(entering: entering, code), body)
    }

    /// Calls `body` with the entry (or exit) handlers of each state of
    /// `codes`, state after state, each state's in order.
    @inlinable
    func forEachLifecycleHandler(
        entering: Bool, ofEach codes: borrowing ReusableList<SymbolCode>, _ body: (HandlerTable<S, E>.Record) -> Void
    ) {
        for index in 0..<codes.length {
            walk(lifecycleChain(entering: entering, codes[index]), body)
        }
    }

    /// Whether a step of `kind` (for an event, of the event `event`) may
    /// have handlers of transitions to run: when not, a step need not build
    /// a context for them.
    @inlinable
    func mayHear(_ kind: DeliveryKind, event: SymbolCode) -> Bool {
        matchesStates(of: kind)
            || (kind == .event && (!eventChain(event).isEmpty || !eventChain(.wildcard).isEmpty))
    }

    /// Whether a step of `kind` may have handlers that match it by its states
    /// (handlers of transitions for a state request, "any" handlers for
    /// both): when not, a step need not list the ancestries of its states.
    @inlinable
    func matchesStates(of kind: DeliveryKind) -> Bool {
        !anyHandlers.isEmpty || (kind == .state && !stateHandlers.isEmpty)
    }

    /// Whether a handler that ``matchesStates(of:)`` names a state on either
    /// side: when not, every one is `.any => .any`, and a step's ancestries
    /// can be just the root.
    @inlinable
    func namesStates(of kind: DeliveryKind) -> Bool {
        func names(_ index: PairIndex) -> Bool {
            index.shapes.contains(0) || index.shapes.contains(1) || index.shapes.contains(2)
        }
        return names(anyHandlers) || (kind == .state && names(stateHandlers))
    }

    /// Calls `body` with every handler that a statechart step of `kind`
    /// concerns, in delivery order: a handler for `a => b` hears a step whose
    /// state before is `a` or inside it and whose state after is `b` or
    /// inside it.
    ///
    /// - Parameters:
    ///   - kind: ``DeliveryKind/event`` or ``DeliveryKind/state``.
    ///   - event: The event's code (``SymbolCode/wildcard`` for a state request).
    ///   - before: The state before and its ancestors, then ``SymbolCode/wildcard``.
    ///   - after: The state after and its ancestors, then ``SymbolCode/wildcard``.
    ///   - body: Called with each handler.
    /// - Complexity: Two look-ups per pair of ancestors that handlers name:
    ///   O(*d*²) for a chart *d* deep, whatever the number of handlers elsewhere.
    @inlinable
    func forEachHandler(
        kind: DeliveryKind, event: SymbolCode, before: borrowing ReusableList<SymbolCode>,
        after: borrowing ReusableList<SymbolCode>,
        _ body: (HandlerTable<S, E>.Record) -> Void
    ) {
        let capacity = 2 + 2 * before.length * after.length
        UnsafeArrayHandle<Int32>.withTemporary(capacity: capacity) { cursors in
            var count = 0
            func add(_ chain: Chain) {
                guard !chain.isEmpty else { return }
                cursors[count] = chain.head
                count += 1
            }
            func addPairs(ofStateHandlers: Bool) {
                guard !(ofStateHandlers ? stateHandlers.isEmpty : anyHandlers.isEmpty) else { return }
                for fromIndex in 0..<before.length {
                    for toIndex in 0..<after.length {
                        let (from, to) = (before[fromIndex], after[toIndex])
                        add(ofStateHandlers ? stateHandlers[from, to] : anyHandlers[from, to])
                    }
                }
            }
            if kind == .event {
                if event.isConcrete {
                    add(eventChain(event))
                }
                add(eventChain(.wildcard))
            } else {
                addPairs(ofStateHandlers: true)
            }
            addPairs(ofStateHandlers: false)
            merge(cursors, count: count, body)
        }
    }

    /// Calls `body` with each record of `chain`.
    ///
    /// The records are read in place from this storage, which the caller
    /// keeps alive, its handlers unchanged, while handlers run, by holding
    /// it or a copy of the table (a change they make to the machine's table copies
    /// it first): a copy of its entries and closures would cost a retain and
    /// a release of each per walk.
    @inlinable
    func walk(_ chain: Chain, _ body: (HandlerTable<S, E>.Record) -> Void) {
        walk(from: chain.head, body)
    }

    /// Calls `body` with each record of a chain from `node` to its end, as
    /// ``walk(_:_:)`` does.
    @inlinable
    func walk(from node: Int32, _ body: (HandlerTable<S, E>.Record) -> Void) {
        var node = node
        while node >= 0 {
            // The next node is read before the handler runs: after a call
            // into user code, reading it would load the storage's arrays again.
            let record = self[node]
            node = entries.next(after: node)
            body(record)
        }
    }

    /// Calls `body` with the records of `count` sorted chains, starting at
    /// `cursors`, in merged order.
    ///
    /// Most deliveries have one chain at most: walked here, in the caller,
    /// without a call of the merge of several.
    @inlinable
    @inline(__always)
    func merge(_ cursors: UnsafeArrayHandle<Int32>, count: Int, _ body: (HandlerTable<S, E>.Record) -> Void) {
        guard count > 1 else {
            if count == 1 {
                walk(from: cursors[0], body)
            }
            return
        }
        mergeSeveral(cursors, count: count, body)
    }

    /// ``merge(_:count:_:)`` of two chains or more.
    ///
    /// Each chain's next sort key is kept beside its cursor, so that choosing
    /// the next handler reads only the record it moves to; a chain that runs
    /// out leaves the buffer (the last cursor takes its place), and once a
    /// single chain is left it is walked directly.
    @inlinable
    func mergeSeveral(_ cursors: UnsafeArrayHandle<Int32>, count: Int, _ body: (HandlerTable<S, E>.Record) -> Void) {
        UnsafeArrayHandle<UInt64>.withTemporary(capacity: count) { keys in
            for position in 0..<count {
                keys[position] = entries[cursors[position]].sortKey
            }
            var count = count
            while count > 1 {
                var best = 0
                for position in 1..<count where keys[position] < keys[best] {
                    best = position
                }
                let node = cursors[best]
                let next = entries.next(after: node)
                if next >= 0 {
                    cursors[best] = next
                    keys[best] = entries[next].sortKey
                } else {
                    count -= 1
                    cursors[best] = cursors[count]
                    keys[best] = keys[count]
                }
                body(self[node])
            }
            walk(from: cursors[0], body)
        }
    }
}
