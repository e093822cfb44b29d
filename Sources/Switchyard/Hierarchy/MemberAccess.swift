/// What a nested machine does for the root that runs it, in the machine's
/// own codes: closures made, specialised for its types, when it was nested.
@usableFromInline
final class MemberAccess {
    /// How many codes the machine has handed out.
    @usableFromInline let count: () -> Int
    /// Whether a code names a value (anonymous codes name none).
    @usableFromInline let isNamed: (SymbolCode) -> Bool
    /// The parent's code for the value of a code, through the enum case the
    /// machine was nested as (interned in the parent); `nil` without one.
    @usableFromInline let nameInParent: ((SymbolCode) -> SymbolCode)?
    /// The machine's code (interned) for the state whose image a parent's
    /// code is, through that enum case; `nil` when it is not one.
    @usableFromInline let claim: ((SymbolCode) -> SymbolCode?)?
    /// A code no value names, for a state of a machine nested in this one.
    @usableFromInline let reserveCode: () -> SymbolCode
    /// Whether the machine's event type is the root's (rather than `NoEvent`).
    @usableFromInline let hasEvents: Bool
    /// The code of the root's event in the machine's tables.
    @usableFromInline let eventCode: (BorrowedEvent) -> SymbolCode
    /// The first route of the event on a code (conditions told the
    /// machine's state `current`).
    @usableFromInline let firstEventRoute:
        (
            _ event: BorrowedEvent, _ eventCode: SymbolCode, _ on: SymbolCode, _ current: SymbolCode,
            _ userInfo: UserInfoBox?, _ refusal: inout Refusal?
        ) -> MemberRoute?
    /// The first route from a code to a target.
    @usableFromInline let firstStateRoute:
        (
            _ on: SymbolCode, _ target: SymbolCode, _ current: SymbolCode, _ userInfo: UserInfoBox?,
            _ refusal: inout Refusal?
        ) ->
            MemberRoute?
    /// Whether a route of the event on a code leads to a target.
    @usableFromInline let someEventRoute:
        (
            _ event: BorrowedEvent, _ eventCode: SymbolCode, _ on: SymbolCode, _ current: SymbolCode,
            _ target: SymbolCode, _ userInfo: UserInfoBox?
        ) -> Bool
    /// The target a route mapping names for the event (`nil`: a state
    /// request) from a state, interned.
    @usableFromInline let mappedTarget:
        (_ event: BorrowedEvent?, _ from: SymbolCode, _ userInfo: UserInfoBox?) -> SymbolCode?
    /// Whether a mapping allows a move: for the event, some route mapping
    /// asked with it; for a state request (`nil`), a state route mapping or
    /// some route mapping asked with a `nil` event.
    @usableFromInline let mappingsAllow:
        (_ event: BorrowedEvent?, _ from: SymbolCode, _ to: SymbolCode, _ userInfo: UserInfoBox?) -> Bool
    /// Sets the state the machine reports.
    @usableFromInline let setCurrent: (SymbolCode) -> Void
    /// Runs its entry (`true`) or exit handlers of a code.
    @usableFromInline let deliverLifecycle: (_ entering: Bool, _ code: SymbolCode, _ facts: StepFacts) -> Void
    /// Whether it may have handlers of a transition of a kind (and event
    /// code) to run, and whether they match by state, so that they need the
    /// ancestries of ``deliverTransition``.
    @usableFromInline let transitionInterest:
        (_ kind: DeliveryKind, _ eventCode: SymbolCode) -> (hears: Bool, matchesStates: Bool)
    /// Runs its handlers of a transition, given the ancestries of its states
    /// before and after the step (its codes, innermost first, then `.any`).
    @usableFromInline let deliverTransition:
        (
            _ kind: DeliveryKind, _ eventCode: SymbolCode, _ before: ReusableList<SymbolCode>,
            _ after: ReusableList<SymbolCode>, _ facts: StepFacts
        ) -> Void
    /// Runs its error handlers.
    @usableFromInline let deliverError: (StepFacts) -> Void
    /// Names a code, for messages.
    @usableFromInline let describe: (SymbolCode) -> String
    /// Gives the machine its link to a new root.
    @usableFromInline let relink: (NestingLink) -> Void
    /// Makes the machine a machine of its own again, in its last state, with
    /// its own declarations.
    @usableFromInline let detach: (StateTree) -> Void

    @usableFromInline
    init(
        count: @escaping () -> Int, isNamed: @escaping (SymbolCode) -> Bool,
        nameInParent: ((SymbolCode) -> SymbolCode)?, claim: ((SymbolCode) -> SymbolCode?)?,
        reserveCode: @escaping () -> SymbolCode, hasEvents: Bool,
        eventCode: @escaping (BorrowedEvent) -> SymbolCode,
        firstEventRoute:
            @escaping (
                BorrowedEvent, SymbolCode, SymbolCode, SymbolCode, UserInfoBox?, inout Refusal?
            ) -> MemberRoute?,
        firstStateRoute: @escaping (SymbolCode, SymbolCode, SymbolCode, UserInfoBox?, inout Refusal?) -> MemberRoute?,
        someEventRoute:
            @escaping (BorrowedEvent, SymbolCode, SymbolCode, SymbolCode, SymbolCode, UserInfoBox?) -> Bool,
        mappedTarget: @escaping (BorrowedEvent?, SymbolCode, UserInfoBox?) -> SymbolCode?,
        mappingsAllow: @escaping (BorrowedEvent?, SymbolCode, SymbolCode, UserInfoBox?) -> Bool,
        setCurrent: @escaping (SymbolCode) -> Void,
        deliverLifecycle: @escaping (Bool, SymbolCode, StepFacts) -> Void,
        transitionInterest: @escaping (DeliveryKind, SymbolCode) -> (hears: Bool, matchesStates: Bool),
        deliverTransition:
            @escaping (
                DeliveryKind, SymbolCode, ReusableList<SymbolCode>, ReusableList<SymbolCode>, StepFacts
            ) -> Void,
        deliverError: @escaping (StepFacts) -> Void, describe: @escaping (SymbolCode) -> String,
        relink: @escaping (NestingLink) -> Void, detach: @escaping (StateTree) -> Void
    ) {
        self.count = count
        self.isNamed = isNamed
        self.nameInParent = nameInParent
        self.claim = claim
        self.reserveCode = reserveCode
        self.hasEvents = hasEvents
        self.eventCode = eventCode
        self.firstEventRoute = firstEventRoute
        self.firstStateRoute = firstStateRoute
        self.someEventRoute = someEventRoute
        self.mappedTarget = mappedTarget
        self.mappingsAllow = mappingsAllow
        self.setCurrent = setCurrent
        self.deliverLifecycle = deliverLifecycle
        self.transitionInterest = transitionInterest
        self.deliverTransition = deliverTransition
        self.deliverError = deliverError
        self.describe = describe
        self.relink = relink
        self.detach = detach
    }
}
