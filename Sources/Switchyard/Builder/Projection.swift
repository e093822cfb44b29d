/// `root` seen as a `Value`: itself when `Value` is its type, else the
/// associated value of its case, if that is a `Value` (read with `Mirror`,
/// so that path allocates).
///
/// What lets `From(Loading.self) { On(Done.self) { loading, done in … } }`
/// hand its closure a `Loading` and a `Done` rather than the enums that carry them.
@inlinable
func project<Root, Value>(_ root: Root, as type: Value.Type) -> Value? {
    if Value.self == Root.self {
        return identityCast(root, to: Value.self)
    }
    return CasePattern<Root>.payload(of: root, as: Value.self)
}

/// A closure of `(Root, RootEvent)` that calls `body` with the two seen as
/// `View` and `EventView`, or answers `refused` when either is not one.
@inlinable
func projecting<Root, RootEvent, View, EventView, Result>(
    _ body: @escaping (View, EventView) -> Result, refused: Result
) -> (Root, RootEvent) -> Result {
    if View.self == Root.self, EventView.self == RootEvent.self {
        // The same function type: the closure itself, without a call around it.
        return identityCast(body, to: ((Root, RootEvent) -> Result).self)
    }
    return { root, event in
        guard let view = project(root, as: View.self), let eventView = project(event, as: EventView.self) else {
            return refused
        }
        return body(view, eventView)
    }
}
