/// A sequence of requests that takes a machine from its initial state to a
/// given state, generated from its description, that a test can replay.
///
/// ```swift
/// for path in door.shortestPaths().paths {
///     let fresh = makeDoor()
///     #expect(path.replay(on: fresh), "\(path)")
/// }
/// ```
///
/// A path is only generated where the description makes its outcome
/// certain: see ``MachineDescription/shortestPaths(maxLength:maxConfigurations:)``.
public struct TestPath<S: StateType, E: EventType> {
    /// One request of a path.
    public enum Step {
        /// Fire this event (``Machine/tryEvent(_:userInfo:)``).
        case event(E)
        /// Ask for this state (``Machine/tryState(_:userInfo:)``).
        case state(S)
    }

    /// The state the path is for: active once the path has been replayed.
    public let target: S
    /// The walks of the call that made the path, which its lists are read
    /// from: a path holds no list of its own.
    let tree: TestPathTree<S, E>
    /// The node of ``tree`` the path ends at.
    let end: Int

    /// The machine's ``Machine/state`` before the first step: that of a
    /// fresh machine.
    public var start: S {
        tree.start.state
    }
    /// The machine's ``Machine/configuration`` before the first step, each
    /// state before its descendants.
    public var startConfiguration: [S] {
        tree.start.activeStates
    }
    /// The requests, in order; empty for the initial state's own path.
    ///
    /// - Complexity: O(*m*) for a path of *m* steps: the paths of one call
    ///   share their steps, and each read walks them again.
    public var steps: [Step] {
        tree.steps(to: end)
    }
    /// The machine's ``Machine/state`` after each step, once any eventless
    /// and done routes the step caused have been taken. Where regions are
    /// active, that is the innermost state that holds them all; see
    /// ``configurations`` for every active state.
    ///
    /// - Complexity: O(*m*) for a path of *m* steps.
    public var states: [S] {
        tree.states(to: end)
    }
    /// The machine's ``Machine/configuration`` after each step (every
    /// active state, each before its descendants), once any eventless and
    /// done routes the step caused have been taken.
    ///
    /// - Complexity: O(*m*) for a path of *m* steps.
    public var configurations: [[S]] {
        tree.configurations(to: end)
    }
    /// The routes the path takes, as positions in
    /// ``MachineDescription/routes``, in the order they are taken (eventless
    /// and done routes included). A step that a listed route mapping move
    /// decides takes no route.
    ///
    /// - Complexity: O(*m*) for a path of *m* steps, plus the routes.
    public var routes: [Int] {
        tree.routes(to: end)
    }

    /// The machine's ``Machine/state`` at the end of the path: ``target``,
    /// or, when the target is compound, the atomic state inside it that its
    /// initial children lead to.
    public var finalState: S {
        // The last of ``states``, or ``start`` for a path of no steps.
        tree.reading(at: end).state
    }

    /// Replays the path on `machine`, with no user info, and says whether
    /// it went as the path claims.
    ///
    /// ```swift
    /// #expect(path.replay(on: makeDoor()))
    /// ```
    ///
    /// - Parameter machine: A machine built like the one the path was
    ///   generated from, in its initial state.
    /// - Returns: `true` if the machine started in ``start`` with the
    ///   ``startConfiguration``, accepted every step, had the expected
    ///   ``states`` and ``configurations`` after each one, and ends with
    ///   ``target`` active; `false` at the first difference.
    /// - Complexity: One request per step, and reading the configuration
    ///   after each: O(*k*) in the active states.
    public func replay(on machine: Machine<S, E>) -> Bool {
        guard machine.state == start, Set(machine.configuration) == Set(startConfiguration) else { return false }
        for node in tree.walk(to: end) {
            let accepted: Bool
            switch tree.links[node]!.step {
            case .event(let event): accepted = machine.tryEvent(event)
            case .state(let state): accepted = machine.tryState(state)
            }
            let after = tree.reading(at: node)
            guard accepted, machine.state == after.state, Set(machine.configuration) == Set(after.activeStates)
            else { return false }
        }
        return machine.isActive(target)
    }
}

extension TestPath: CustomStringConvertible {
    /// The path as one line: `start -> step -> step: target`.
    public var description: String {
        let steps = steps.map { step -> String in
            switch step {
            case .event(let event): return "event \(event)"
            case .state(let state): return "state \(state)"
            }
        }
        return (["\(start)"] + steps).joined(separator: " -> ") + ": \(target)"
    }
}

/// The paths ``MachineDescription/shortestPaths(maxLength:maxConfigurations:)``
/// or ``MachineDescription/routeCoveringPaths(maxLength:maxConfigurations:)``
/// found, and what they could not claim.
public struct TestPaths<S: StateType, E: EventType> {
    /// The paths, in a fixed order (see each function).
    public let paths: [TestPath<S, E>]
    /// The states of ``MachineDescription/states`` no path reaches: no
    /// certain sequence of at most `maxLength` requests, through the
    /// configurations the search visited, makes them active.
    public let unreachedStates: [S]
    /// The positions in ``MachineDescription/routes`` of the routes no path
    /// takes (conditional routes, routes a certain path cannot reach within
    /// `maxLength` or `maxConfigurations`, routes whose outcome the
    /// description cannot tell).
    public let uncoveredRoutes: [Int]
    /// Whether the search stopped admitting configurations at
    /// `maxConfigurations`: steps into configurations past the bound were
    /// not followed, so what only they reach is in ``unreachedStates`` and
    /// ``uncoveredRoutes``.
    public let isTruncated: Bool
}

extension TestPath: Hashable {
    /// Whether two paths are for the same target and list the same start,
    /// steps, states, configurations and routes.
    ///
    /// - Complexity: O(*m*) for paths of *m* steps; O(1) for a path and a
    ///   copy of it.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.target == rhs.target else { return false }
        if lhs.tree === rhs.tree, lhs.end == rhs.end {
            return true
        }
        return lhs.start == rhs.start && lhs.startConfiguration == rhs.startConfiguration && lhs.steps == rhs.steps
            && lhs.states == rhs.states && lhs.configurations == rhs.configurations && lhs.routes == rhs.routes
    }

    /// Hashes what ``==(_:_:)`` compares.
    ///
    /// - Complexity: O(*m*) for a path of *m* steps.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(target)
        hasher.combine(start)
        hasher.combine(startConfiguration)
        hasher.combine(steps)
        hasher.combine(states)
        hasher.combine(configurations)
        hasher.combine(routes)
    }
}

extension TestPath.Step: Hashable {}
extension TestPath: Sendable where S: Sendable, E: Sendable {}
extension TestPath.Step: Sendable where S: Sendable, E: Sendable {}
extension TestPaths: Sendable where S: Sendable, E: Sendable {}
