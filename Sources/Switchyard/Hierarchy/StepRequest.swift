/// A request to one machine of a hierarchy, as its root decides it: an
/// event, lent for the call, or one of the machine's states, in its codes.
@usableFromInline
enum StepRequest {
    case event(BorrowedEvent)
    case state(SymbolCode)

    /// The event of an event request.
    @inlinable
    var event: BorrowedEvent? {
        guard case .event(let event) = self else { return nil }
        return event
    }

    /// The state a state request asks for.
    @inlinable
    var target: SymbolCode? {
        guard case .state(let target) = self else { return nil }
        return target
    }

    /// The handlers a step the request causes runs.
    @inlinable
    var kind: DeliveryKind {
        event == nil ? .state : .event
    }
}
