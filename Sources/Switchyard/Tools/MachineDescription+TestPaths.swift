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
    ///   to `.any`, the events or states it tries. The paths share the
    ///   search's tree, so their memory is that of the configurations
    ///   visited, not their total length (*n*²/2 steps for a ring of *n*);
    ///   each path's lists are walked from it when read.
    public func shortestPaths(maxLength: Int = 64, maxConfigurations: Int = 100_000) -> TestPaths<S, E> {
        let search = TestPathSearch(self, maxLength: maxLength, maxConfigurations: maxConfigurations)
        let nodes = search.chart.nodes
        var targets: [S] = []
        var ends: [Int] = []
        for position in nodes.indices {
            if let end = search.nearest[position] {
                targets.append(nodes[position].state)
                ends.append(end)
            }
        }
        // The paths share the search's tree: each is its end node in it.
        let tree = search.tree(reaching: ends).tree
        return search.paths(zip(targets, ends).map { TestPath(target: $0, tree: tree, end: $1) })
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
    ///   plus, for each path, the length of its shortest part.
    public func routeCoveringPaths(maxLength: Int = 64, maxConfigurations: Int = 100_000) -> TestPaths<S, E> {
        let search = TestPathSearch(self, maxLength: maxLength, maxConfigurations: maxConfigurations)
        var covered = [Bool](repeating: false, count: routes.count)
        // Each path is the search's shortest path to where its first route
        // is taken from, then a walk: that step and those it goes on with.
        var walks: [[TestPathSearch<S, E>.Edge]] = []
        var targets: [S] = []
        for route in routes.indices where !covered[route] {
            guard let taking = search.taking[route] else { continue }
            var walk = [taking]
            var length = search.distance[taking.from] + 1
            var node = taking.from
            while let edge = search.reachedBy[node] {
                for taken in edge.routes {
                    covered[taken] = true
                }
                node = edge.from
            }
            for taken in taking.routes {
                covered[taken] = true
            }
            // Go on while a step from where the path ends takes a route not yet taken.
            while length < maxLength,
                let next = search.leaving[walk.last!.to].first(where: { $0.routes.contains { !covered[$0] } })
            {
                walk.append(next)
                length += 1
                for taken in next.routes {
                    covered[taken] = true
                }
            }
            walks.append(walk)
            targets.append(search.state(at: walk.last!.to))
        }
        let (tree, ends) = search.tree(reaching: [], thenWalking: walks)
        return search.paths(zip(targets, ends).map { TestPath(target: $0, tree: tree, end: $1) })
    }
}
