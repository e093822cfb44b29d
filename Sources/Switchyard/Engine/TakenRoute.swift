/// What a decision took: the registration of the route or route mapping that
/// allowed the move and, when that was a definition's mapping, the clause
/// that answered.
///
/// A decision names it so that what a step emits is a look-up by what was
/// taken: an ``EffectMachine`` finds a route's clause by its registration
/// and a mapped clause by its place in the definition.
@usableFromInline
struct TakenRoute: Hashable {
    /// The registration of the route or mapping; 0 for a move nothing
    /// registered allowed (a statechart's start, a restored snapshot).
    @usableFromInline var id: RegistrationID
    /// For a definition's route mapping, the place among the definition's
    /// clauses of the clause that answered; -1 otherwise.
    @usableFromInline var clause: Int32

    @inlinable
    init(id: RegistrationID, clause: Int32 = -1) {
        self.id = id
        self.clause = clause
    }

    /// No registration: a move made without a route.
    @inlinable
    static var none: TakenRoute { TakenRoute(id: RegistrationID(rawValue: 0)) }
}

/// What a route mapping answers one request.
@usableFromInline
enum MappingAnswer<S> {
    /// The mapping names this state; `clause` is the place of the clause of
    /// a definition that did, -1 for a mapping written as one closure.
    case move(to: S, clause: Int32)
    /// The mapping covers the request and refuses it: a definition's clause
    /// whose guard, `disable` or closure said no.
    case refused
    /// The mapping does not cover the request.
    case none
}
