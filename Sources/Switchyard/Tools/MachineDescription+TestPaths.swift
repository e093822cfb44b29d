// Test paths: a breadth-first search over the configurations (and recorded
// history) the machine can be in, whose every step the description decides
// for certain, built on the same index as validation.

extension MachineDescription {
    /// For each state, the shortest sequence of events and state requests
    /// that makes it active, from a fresh machine.
    ///
    /// ```swift
    /// for path in makeDoor().describe().shortestPaths().paths {
    ///     #expect(path.replay(on: makeDoor()), "\(path)")
    /// }
    /// ```
    ///
    /// The search models the machine as its configuration (every active
    /// state, in all the regions of a parallel state) and the history its
    /// states have recorded, and follows a step only when the description
    /// decides its outcome for certain: each route it takes, by the
    /// precedence the machine applies (in every region at once), has no
    /// condition, and so do the eventless and done routes taken after it,
    /// until the machine settles. Entering a state through its history
    /// enters what the path has made it record, or its history's default.
    /// Everything else is left out, and shows in
    /// ``TestPaths/unreachedStates`` and ``TestPaths/uncoveredRoutes``
    /// rather than as a path that might not replay. The article *Describing
    /// and Drawing Machines* lists exactly what is followed.
    ///
    /// - Parameters:
    ///   - maxLength: The most steps a path may have.
    ///   - maxConfigurations: The most configurations (with their recorded
    ///     history) the search visits, the initial one included: a chart
    ///     with many regions or histories can have more than a test wants
    ///     to explore. Those found after the bound are left out, and
    ///     ``TestPaths/isTruncated`` says so.
    /// - Returns: One path per state of ``states`` that some path makes
    ///   active, in the order of ``states``, each as short as possible (the
    ///   first found, breadth-first, among equally short ones).
    /// - Complexity: O(*c* × *q* × (*r* + *k* × *d* + *h*)) for the *c*
    ///   configurations visited (at most `maxConfigurations`; the states
    ///   *n* for a machine without regions or history), the *q* requests
    ///   tried from each, the routes *r* each request looks at, *k* active
    ///   atomic states in a tree of depth *d*, and *h* states recorded in a
    ///   history: each request costs what the configuration holds, never
    ///   the size of the whole tree. For a flat machine, O((*n* + *r*) ×
    ///   *d*) as before, plus, for a state with a route of `.any` event or
    ///   to `.any`, the events or states it tries; plus the length of the
    ///   paths returned.
    public func shortestPaths(maxLength: Int = 64, maxConfigurations: Int = 100_000) -> TestPaths<S, E> {
        let search = TestPathSearch(self, maxLength: maxLength, maxConfigurations: maxConfigurations)
        let nodes = search.chart.nodes
        var readings = search.makeReadings()
        return search.paths(
            nodes.indices.compactMap { position in
                search.nearest[position].map {
                    search.path(to: $0, target: nodes[position].state, readings: &readings)
                }
            })
    }

    /// Paths that together take every route a certain path can take.
    ///
    /// ```swift
    /// let covering = makeDoor().describe().routeCoveringPaths()
    /// for path in covering.paths {
    ///     #expect(path.replay(on: makeDoor()), "\(path)")
    /// }
    /// print(covering.uncoveredRoutes)  // [3]: unlocking has a condition
    /// ```
    ///
    /// Chosen greedily: for each route in the order of ``routes`` that no
    /// path so far takes, the shortest path to a state it is taken from,
    /// then the step that takes it, then, while a step from where the path
    /// ends takes a route not yet taken, that step (so a ring is one path).
    /// Which steps are followed, and how far the search goes, is as for
    /// ``shortestPaths(maxLength:maxConfigurations:)``.
    ///
    /// - Parameters:
    ///   - maxLength: The most steps a path may have.
    ///   - maxConfigurations: The most configurations the search visits.
    /// - Returns: The paths, in the order of the first route each was chosen
    ///   for; the routes none takes are in ``TestPaths/uncoveredRoutes``.
    /// - Complexity: That of ``shortestPaths(maxLength:maxConfigurations:)``,
    ///   plus the length of the paths returned.
    public func routeCoveringPaths(maxLength: Int = 64, maxConfigurations: Int = 100_000) -> TestPaths<S, E> {
        let search = TestPathSearch(self, maxLength: maxLength, maxConfigurations: maxConfigurations)
        var covered = [Bool](repeating: false, count: routes.count)
        var paths: [TestPath<S, E>] = []
        var readings = search.makeReadings()
        for route in routes.indices where !covered[route] {
            guard let taking = search.taking[route] else { continue }
            var edges = search.edges(through: taking)
            for taken in edges.flatMap(\.routes) {
                covered[taken] = true
            }
            // Go on while a step from where the path ends takes a route not yet taken.
            while edges.count < maxLength,
                let next = search.leaving[edges.last!.to].first(where: { $0.routes.contains { !covered[$0] } })
            {
                edges.append(next)
                for taken in next.routes {
                    covered[taken] = true
                }
            }
            paths.append(search.makePath(edges, target: search.state(at: edges.last!.to), readings: &readings))
        }
        return search.paths(paths)
    }
}
