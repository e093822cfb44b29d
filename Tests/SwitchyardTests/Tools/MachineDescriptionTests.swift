import Switchyard
import Testing

private enum Light: StateType, CaseIterable {
    case off, on, dim, bright, broken
}

private enum Switch: EventType, CaseIterable {
    case toggle, fail
}

/// A state whose description holds every character a diagram's syntax reads.
private struct Tricky: StateType, CustomStringConvertible {
    var name: String
    var description: String { name }
}

/// A table whose states are not `CaseIterable`, listed out of order.
private struct Switchboard: MutableTransitionTable {
    enum State: StateType { case zulu, alpha, mike }
    static let stateTransitions: [State: Set<State>] = [
        .zulu: [.alpha, .mike], .alpha: [.zulu, .mike], .mike: [.alpha],
    ]
    var state = State.zulu
}

@Suite struct MachineDescriptionTests {
    private func makeLight() -> Machine<Light, Switch> {
        Machine(state: .off) { light in
            light.addChildren([.dim, .bright], to: .on, initial: .bright)
            light.addHistory(.deep, to: .on)
            light.addFinalState(.broken)
            light.addRoutes(event: .toggle, transitions: [.off => .on, .on => .off])
            light.addRoutes(event: .any, transitions: [.any => .broken], condition: { _ in false })
            light.addRoute(.dim => .bright)
            light.addRouteMapping { event, state, _ in event == .fail && state == .off ? .broken : nil }
            light.addHandler(event: .toggle) { _ in }
            light.addEntryHandler(.on) { _ in }
            light.addErrorHandler { _ in }
        }
    }

    @Test func statesAndTheirTree() throws {
        let description = makeLight().describe()
        #expect(description.initialState == .off)
        #expect(description.states.map(\.state) == [.on, .dim, .bright, .off, .broken])
        let on = try #require(description.state(.on))
        #expect(on.kind == .compound)
        #expect(on.children == [.dim, .bright])
        #expect(on.initial == .bright)
        #expect(on.history == .deep)
        #expect(description.state(.dim)?.parent == .on)
        #expect(description.state(.broken)?.isFinal == true)
        #expect(description.topLevelStates.map(\.state) == [.on, .off, .broken])
        #expect(description.events == [.toggle])
    }

    @Test func routesInTheOrderTheyWereAdded() {
        let routes = makeLight().describe().routes
        #expect(routes.map(\.trigger) == [.event(.toggle), .event(.toggle), .anyEvent, .state])
        #expect(routes.map(\.source) == [.off, .on, nil, .dim])
        #expect(routes.map(\.target) == [.on, .off, .broken, .bright])
        #expect(routes.map(\.isConditional) == [false, false, true, false])
    }

    @Test func routesAndHandlersAddedAfterARemovalComeLast() {
        // The new registrations reuse the removed ones' table nodes, ahead of the others.
        let door = Machine<ReadmeDoor, ReadmeDoorEvent>(state: .open)
        let firstRoute = door.addRoute(.open => .closed)
        door.addRoute(.closed => .open)
        door.addRoute(.closed => .locked)
        let firstHandler = door.addHandler(event: .close) { _ in }
        door.addHandler(event: .lock) { _ in }
        door.addHandler(event: .unlock) { _ in }
        firstRoute.dispose()
        firstHandler.dispose()
        door.addRoute(.locked => .closed)
        door.addHandler(event: .open) { _ in }
        let description = door.describe()
        #expect(description.routes.map(\.source) == [.closed, .closed, .locked])
        #expect(description.routes.map(\.target) == [.open, .locked, .closed])
        #expect(description.handlers.map(\.kind) == [.event(.lock), .event(.unlock), .event(.open)])
    }

    @Test func routeMappingsAreListedForCaseIterableTypes() throws {
        let mapping = try #require(makeLight().describe().routeMappings.first)
        #expect(mapping.kind == .event)
        let moves = try #require(mapping.moves)
        #expect(moves.map(\.source) == [.off])
        #expect(moves.map(\.event) == [.fail])
        #expect(moves.map(\.target) == [.broken])
    }

    @Test func handlersAreCountedByKind() {
        let counts = makeLight().describe().handlerCounts
        #expect(counts.event == 1 && counts.entry == 1 && counts.error == 1)
        #expect(counts.total == 3)
    }

    @Test func aRouteMappingOfTypesThatCannotBeListedSaysSo() throws {
        let machine = Machine<Tricky, NoEvent>(state: Tricky(name: "a")) { machine in
            machine.addRouteMapping { _, _, _ in nil }
        }
        let description = machine.describe()
        #expect(try #require(description.routeMappings.first).moves == nil)
        #expect(description.dot().contains("1 route mapping: targets computed by a closure"))
    }

    @Test func aNestedMachineIsASubtreeOfItsHost() throws {
        enum Outer: StateType { case idle, busy }
        enum Inner: StateType { case working, resting }
        let inner = Machine<Inner, NoEvent>(state: .working) { $0.addRoute(.working => .resting) }
        let outer = Machine<Outer, NoEvent>(state: .idle) { $0.addRoute(.idle => .busy) }
        outer.nest(inner, under: .busy)
        let nested = try #require(outer.describe().nestedMachines.first)
        #expect(nested.host == .busy)
        let innerDescription = try #require(nested.machine.base as? MachineDescription<Inner, NoEvent>)
        #expect(innerDescription.routes.map(\.target) == [.resting])
        #expect(outer.describe().dot().contains("subgraph cluster_s2"))
    }

    @Test func aNestedMachineDescribesTheMachinesNestedInIt() throws {
        enum Outer: StateType { case idle, busy }
        enum Middle: StateType { case waiting, working }
        enum Inner: StateType { case low, high }
        let inner = Machine<Inner, NoEvent>(state: .low) { $0.addRoute(.low => .high) }
        let middle = Machine<Middle, NoEvent>(state: .waiting) { $0.addRoute(.waiting => .working) }
        let outer = Machine<Outer, NoEvent>(state: .idle) { $0.addRoute(.idle => .busy) }
        middle.nest(inner, under: .working)
        outer.nest(middle, under: .busy)

        let fromMiddle = middle.describe()
        #expect(fromMiddle.states.map(\.state) == [.waiting, .working])
        let nested = try #require(fromMiddle.nestedMachines.first)
        #expect(nested.host == .working)
        #expect((nested.machine.base as? MachineDescription<Inner, NoEvent>)?.routes.map(\.target) == [.high])

        let fromOuter = try #require(outer.describe().nestedMachines.first?.machine)
        #expect(fromOuter.dot() == fromMiddle.dot())
        #expect(fromOuter.mermaid() == fromMiddle.mermaid())
    }

    @Test func aStateNamedThroughAnEnumCaseIsTheNestedMachines() throws {
        enum App: StateType {
            case home
            case editor(Draft)
        }
        enum Draft: StateType { case viewing, typing }
        let draft = Machine<Draft, NoEvent>(state: .viewing) { $0.addRoute(.viewing => .typing) }
        let app = Machine<App, NoEvent>(state: .home) { $0.addRoute(.home => .editor(.viewing)) }
        app.nest(draft, as: App.editor)

        let description = app.describe()
        #expect(description.states.map(\.state) == [.home])
        let nested = try #require(description.nestedMachines.first)
        #expect(nested.host == nil)
        #expect(nested.statesNamedHere == [.editor(.viewing), .editor(.typing)])
        #expect(description.routes.first?.target == .editor(.viewing))
        #expect(description.dot().contains("s1 -> m0_s1;"))

        // A machine that starts in a nested machine's state starts there in its diagrams.
        let openDraft = Machine<Draft, NoEvent>(state: .typing)
        let openApp = Machine<App, NoEvent>(state: .editor(.typing)) { $0.addRoute(.editor(.typing) => .home) }
        openApp.nest(openDraft, as: App.editor)
        #expect(openApp.describe().dot().contains("start -> m0_s1;"))
        #expect(openApp.describe().mermaid().contains("[*] --> m0_s1\n"))
    }

    @Test func aTableIsDescribedInTheSameOrderEveryTime() {
        let routes = Switchboard.describe(state: .zulu).routes
        // Not CaseIterable: by description.
        #expect(
            routes.map { "\($0.source!)>\($0.target!)" } == [
                "alpha>mike", "alpha>zulu", "mike>alpha", "zulu>alpha", "zulu>mike",
            ])
    }

    @Test(arguments: ["say \"hi\"", "two\nlines", "back\\slash", "{braces} <angles> |bar|", "a;b:c#d"])
    func anyDescriptionExportsValidText(_ name: String) {
        let machine = Machine<Tricky, NoEvent>(state: Tricky(name: name)) { machine in
            machine.addRoute(Tricky(name: name) => Tricky(name: "plain"))
        }
        let description = machine.describe()
        let dot = description.dot()
        // Every quote inside a DOT label is escaped, so quotes pair up on each line.
        for line in dot.split(separator: "\n") {
            let unescaped = line.replacingOccurrences(of: "\\\\", with: "").replacingOccurrences(of: "\\\"", with: "")
            #expect(unescaped.filter { $0 == "\"" }.count % 2 == 0, "\(line)")
        }
        #expect(!dot.contains("two\nlines"))
        let mermaid = description.mermaid()
        #expect(mermaid.split(separator: "\n").count == 5)
        for line in mermaid.split(separator: "\n") where line.contains("state \"") {
            #expect(line.filter { $0 == "\"" }.count == 2, "\(line)")
            for raw in ["\"hi", "{braces}", "<angles>", "a;b", "b:c", "c#d", "\n"] {
                #expect(!line.contains(raw), "\(line)")
            }
        }
    }
}
