extension Machine {
    /// For each state, the shortest requests that make it active from a
    /// fresh machine: `describe().shortestPaths(maxLength:)`.
    ///
    /// ```swift
    /// for path in makeDoor().shortestPaths().paths {
    ///     #expect(path.replay(on: makeDoor()), "\(path)")
    /// }
    /// ```
    ///
    /// - Parameter maxLength: The most steps a path may have.
    /// - Returns: The paths, and what they could not claim; see
    ///   ``MachineDescription/shortestPaths(maxLength:)``.
    /// - Complexity: That of ``describe()``, then of
    ///   ``MachineDescription/shortestPaths(maxLength:)``.
    public func shortestPaths(maxLength: Int = 64) -> TestPaths<S, E> {
        describe().shortestPaths(maxLength: maxLength)
    }

    /// Paths that together take every route a certain path can take:
    /// `describe().routeCoveringPaths(maxLength:)`.
    ///
    /// - Parameter maxLength: The most steps a path may have.
    /// - Returns: The paths, and what they could not claim; see
    ///   ``MachineDescription/routeCoveringPaths(maxLength:)``.
    /// - Complexity: That of ``describe()``, then of
    ///   ``MachineDescription/routeCoveringPaths(maxLength:)``.
    public func routeCoveringPaths(maxLength: Int = 64) -> TestPaths<S, E> {
        describe().routeCoveringPaths(maxLength: maxLength)
    }
}
