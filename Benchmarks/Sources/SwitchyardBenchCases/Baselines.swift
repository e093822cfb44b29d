// The hand-written machines every case is compared with: what an app would
// write if it had no state-machine library. A dictionary keyed by (state,
// event) giving the next state, and handlers in a plain array of closures.

/// A key of a hand-written route table.
struct RouteKey<S: Hashable, E: Hashable>: Hashable {
    var state: S
    var event: E
}

extension RouteKey: Sendable where S: Sendable, E: Sendable {}

/// What a hand-written handler is told: the same facts as Switchyard's context.
struct Change<S, E> {
    var event: E?
    var from: S
    var to: S
}

/// An event-driven machine written by hand.
final class DictionaryMachine<S: Hashable, E: Hashable> {
    private(set) var state: S
    var routes: [RouteKey<S, E>: S]
    var handlers: [(Change<S, E>) -> Void] = []
    var errorHandlers: [(Change<S, E>) -> Void] = []

    init(state: S, routes: [RouteKey<S, E>: S]) {
        self.state = state
        self.routes = routes
    }

    func fire(_ event: E) -> Bool {
        let from = state
        guard let next = routes[RouteKey(state: from, event: event)] else {
            let change = Change(event: event, from: from, to: from)
            for handler in errorHandlers { handler(change) }
            return false
        }
        state = next
        let change = Change(event: event, from: from, to: next)
        for handler in handlers { handler(change) }
        return true
    }
}

/// A key of a hand-written state-driven route table.
struct StatePair<S: Hashable>: Hashable {
    var from: S
    var to: S
}

/// A state-driven machine written by hand: the allowed (from, to) pairs.
final class DictionaryStateMachine<S: Hashable> {
    private(set) var state: S
    var routes: [StatePair<S>: Bool]
    var handlers: [(Change<S, Never>) -> Void] = []

    init(state: S, routes: [StatePair<S>: Bool]) {
        self.state = state
        self.routes = routes
    }

    func request(_ target: S) -> Bool {
        let from = state
        guard routes[StatePair(from: from, to: target)] == true else { return false }
        state = target
        let change = Change<S, Never>(event: nil, from: from, to: target)
        for handler in handlers { handler(change) }
        return true
    }
}

/// An event-driven machine written by hand with wildcards: `nil` stands for
/// any state or any event, tried from the most specific key to the least,
/// the same order Switchyard documents. A `nil` target means "stay".
final class WildcardDictionaryMachine<S: Hashable, E: Hashable> {
    struct Key: Hashable {
        var state: S?
        var event: E?
    }

    private(set) var state: S
    var routes: [Key: S?]
    var handlers: [(Change<S, E>) -> Void] = []

    init(state: S, routes: [Key: S?]) {
        self.state = state
        self.routes = routes
    }

    func fire(_ event: E) -> Bool {
        let from = state
        guard
            let target = routes[Key(state: from, event: event)] ?? routes[Key(state: nil, event: event)]
                ?? routes[Key(state: from, event: nil)] ?? routes[Key(state: nil, event: nil)]
        else { return false }
        let next = target ?? from
        state = next
        let change = Change(event: event, from: from, to: next)
        for handler in handlers { handler(change) }
        return true
    }
}

/// A machine written by hand around a routing closure, for states and events
/// with associated values (which no dictionary can enumerate).
final class MappingMachine<S, E> {
    private(set) var state: S
    let mapping: (E, S) -> S?
    var handlers: [(Change<S, E>) -> Void] = []

    init(state: S, mapping: @escaping (E, S) -> S?) {
        self.state = state
        self.mapping = mapping
    }

    func fire(_ event: E) -> Bool {
        let from = state
        guard let next = mapping(event, from) else { return false }
        state = next
        let change = Change(event: event, from: from, to: next)
        for handler in handlers { handler(change) }
        return true
    }
}

/// Where handlers leave their mark, so that they have something to do.
final class Counter {
    var value = 0
}

extension DictionaryMachine {
    /// Adds one route and returns what removes it: its key, which is all a
    /// hand-written table needs to forget it.
    func addRoute(from state: S, on event: E, to next: S) -> RouteKey<S, E> {
        let key = RouteKey(state: state, event: event)
        routes[key] = next
        return key
    }

    /// Removes a route that ``addRoute(from:on:to:)`` added.
    func removeRoute(_ key: RouteKey<S, E>) {
        routes[key] = nil
    }
}

/// Handlers for one event written by hand, in order, each removable: a
/// handler's token is its index, and removing it empties its slot.
final class HandlerList<Argument> {
    private(set) var handlers: [((Argument) -> Void)?] = []

    /// Adds `handler` after the others and returns its token.
    func add(_ handler: @escaping (Argument) -> Void) -> Int {
        handlers.append(handler)
        return handlers.count - 1
    }

    /// Removes the handler whose token is `token`.
    func remove(_ token: Int) {
        handlers[token] = nil
    }

    /// Calls every handler still there, in the order they were added.
    func callAll(_ argument: Argument) {
        for handler in handlers {
            handler?(argument)
        }
    }
}
