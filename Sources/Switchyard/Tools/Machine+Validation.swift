extension Machine {
    /// Looks for problems in the machine's structure: `describe().validate()`.
    ///
    /// ```swift
    /// #expect(door.validate().isEmpty)
    /// ```
    ///
    /// - Returns: The problems found; empty for a sound machine. See
    ///   ``MachineDescription/validate()`` for what each one means.
    /// - Precondition: Not called from a condition, route mapping or handler
    ///   while the machine is deciding or taking a step.
    /// - Complexity: That of ``describe()``, then of ``MachineDescription/validate()``.
    public func validate() -> [MachineDescription<S, E>.Diagnostic] {
        describe().validate()
    }
}
