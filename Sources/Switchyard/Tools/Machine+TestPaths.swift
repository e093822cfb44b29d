extension Machine {
    /// For each state, the shortest requests that make it active from a
    /// fresh machine: `describe().shortestPaths(maxLength:maxConfigurations:)`.
    ///
    /// ```swift
    /// for path in makeDoor().shortestPaths().paths {
    ///     #expect(path.replay(on: makeDoor()), "\(path)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - maxLength: The most steps a path may have.
    ///   - maxConfigurations: The most configurations the search visits.
    /// - Returns: The paths, and what they could not claim; see
    ///   ``MachineDescription/shortestPaths(maxLength:maxConfigurations:)``.
    /// - Complexity: That of ``describe()``, then of
    ///   ``MachineDescription/shortestPaths(maxLength:maxConfigurations:)``.
    public func shortestPaths(maxLength: Int = 64, maxConfigurations: Int = 100_000) -> TestPaths<S, E> {
        describe().shortestPaths(maxLength: maxLength, maxConfigurations: maxConfigurations)
    }

    /// Paths that together take every route a certain path can take:
    /// `describe().routeCoveringPaths(maxLength:maxConfigurations:)`.
    ///
    /// - Parameters:
    ///   - maxLength: The most steps a path may have.
    ///   - maxConfigurations: The most configurations the search visits.
    /// - Returns: The paths, and what they could not claim; see
    ///   ``MachineDescription/routeCoveringPaths(maxLength:maxConfigurations:)``.
    /// - Complexity: That of ``describe()``, then of
    ///   ``MachineDescription/routeCoveringPaths(maxLength:maxConfigurations:)``.
    public func routeCoveringPaths(maxLength: Int = 64, maxConfigurations: Int = 100_000) -> TestPaths<S, E> {
        describe().routeCoveringPaths(maxLength: maxLength, maxConfigurations: maxConfigurations)
    }
}
