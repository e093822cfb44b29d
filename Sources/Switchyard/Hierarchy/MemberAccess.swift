/// What a nested machine does for the root that runs it, in the machine's
/// own codes: closures made, specialised for its types, when it was nested
/// (a protocol's witnesses would run unspecialised generic code on every
/// step), grouped by what the root uses them for.
@usableFromInline
final class MemberAccess {
    /// How the root names the machine's states: in its codes, through the enum
    /// case it was nested as, and for messages.
    @usableFromInline
    struct Naming {
        /// How many codes the machine has handed out.
        let count: () -> Int
        /// Whether a code names a value (anonymous codes name none).
        let isNamed: (SymbolCode) -> Bool
        /// The parent's code for the value of a code, through the enum case the
        /// machine was nested as (interned in the parent); `nil` without one.
        let nameInParent: ((SymbolCode) -> SymbolCode)?
        /// The machine's code (interned) for the state whose image a parent's
        /// code is, through that enum case; `nil` when it is not one.
        let claim: ((SymbolCode) -> SymbolCode?)?
        /// A code no value names, for a state of a machine nested in this one.
        let reserveCode: () -> SymbolCode
        /// Names a code, for messages.
        @usableFromInline let describe: (SymbolCode) -> String
        /// The machine's transient codes (see ``Symbols``): states only a
        /// request, a question or a route mapping named.
        let transientCodes: () -> [SymbolCode]
        /// Hands a transient code back, its value has none until named again
        /// (through an enum case, the parent forgets that its code
        /// `parentCode`, if not 0, names the image), or keeps it for the
        /// machine's life: when asked to (`keep`), or when the parent named
        /// the image for itself since. Returns whether it handed it back.
        let handBack: (_ code: SymbolCode, _ keep: Bool, _ parentCode: SymbolCode) -> Bool
        /// Has the parent's code, whose image value ``handBack`` forgot, name
        /// the image of a code's value now, through the enum case the machine
        /// was nested as; `nil` without one.
        let renameInParent: ((_ parentCode: SymbolCode, _ code: SymbolCode) -> Void)?

        @usableFromInline
        init(
            count: @escaping () -> Int, isNamed: @escaping (SymbolCode) -> Bool,
            nameInParent: ((SymbolCode) -> SymbolCode)?, claim: ((SymbolCode) -> SymbolCode?)?,
            reserveCode: @escaping () -> SymbolCode, describe: @escaping (SymbolCode) -> String,
            transientCodes: @escaping () -> [SymbolCode], handBack: @escaping (SymbolCode, Bool, SymbolCode) -> Bool,
            renameInParent: ((SymbolCode, SymbolCode) -> Void)?
        ) {
            self.count = count
            self.isNamed = isNamed
            self.nameInParent = nameInParent
            self.claim = claim
            self.reserveCode = reserveCode
            self.describe = describe
            self.transientCodes = transientCodes
            self.handBack = handBack
            self.renameInParent = renameInParent
        }
    }

    /// How the root asks the machine's routes and route mappings.
    @usableFromInline
    struct Routes {
        /// Whether the machine's event type is the root's (rather than `NoEvent`).
        @usableFromInline let hasEvents: Bool
        /// The code of the root's event in the machine's tables.
        let eventCode: (BorrowedEvent) -> SymbolCode
        /// The first route of the event on a code (conditions told the
        /// machine's state `current`); without an event, the first route kept
        /// under the reserved code (an eventless or a done route). What the
        /// route does besides moving to one target goes into `extras`, read
        /// while its table is held: a condition may have removed the route
        /// from the machine's table since. A question about one move
        /// (`hasRoute`) names the target it asks about (`reaching`): routes
        /// that lead elsewhere are passed over.
        @usableFromInline let firstRoute:
            (
                _ event: BorrowedEvent?, _ eventCode: SymbolCode, _ on: SymbolCode, _ current: SymbolCode,
                _ reaching: SymbolCode?, _ userInfo: UserInfoBox?, _ refusal: inout Refusal?,
                _ extras: inout RouteExtras?
            ) -> MemberRoute?
        /// Whether the machine has routes under a reserved code (eventless or done).
        let hasRoutes: (_ reservedEvent: SymbolCode) -> Bool
        /// The first route from a code to a target.
        @usableFromInline let firstStateRoute:
            (
                _ on: SymbolCode, _ target: SymbolCode, _ current: SymbolCode, _ userInfo: UserInfoBox?,
                _ refusal: inout Refusal?
            ) ->
                MemberRoute?
        /// The target a route mapping names for the event (`nil`: a state
        /// request) from a state, interned.
        @usableFromInline let mappedTarget:
            (_ event: BorrowedEvent?, _ from: SymbolCode, _ userInfo: UserInfoBox?) -> SymbolCode?
        /// Whether a mapping allows a move: for the event, some route mapping
        /// asked with it; for a state request (`nil`), a state route mapping or
        /// some route mapping asked with a `nil` event.
        @usableFromInline let mappingsAllow:
            (_ event: BorrowedEvent?, _ from: SymbolCode, _ to: SymbolCode, _ userInfo: UserInfoBox?) -> Bool

        @usableFromInline
        init(
            hasEvents: Bool, eventCode: @escaping (BorrowedEvent) -> SymbolCode,
            firstRoute:
                @escaping (
                    BorrowedEvent?, SymbolCode, SymbolCode, SymbolCode, SymbolCode?, UserInfoBox?, inout Refusal?,
                    inout RouteExtras?
                ) -> MemberRoute?,
            hasRoutes: @escaping (SymbolCode) -> Bool,
            firstStateRoute:
                @escaping (SymbolCode, SymbolCode, SymbolCode, UserInfoBox?, inout Refusal?) -> MemberRoute?,
            mappedTarget: @escaping (BorrowedEvent?, SymbolCode, UserInfoBox?) -> SymbolCode?,
            mappingsAllow: @escaping (BorrowedEvent?, SymbolCode, SymbolCode, UserInfoBox?) -> Bool
        ) {
            self.hasEvents = hasEvents
            self.eventCode = eventCode
            self.firstRoute = firstRoute
            self.hasRoutes = hasRoutes
            self.firstStateRoute = firstStateRoute
            self.mappedTarget = mappedTarget
            self.mappingsAllow = mappingsAllow
        }
    }

    /// How the root tells the machine its state, and runs its handlers.
    @usableFromInline
    struct Handlers {
        /// Sets the state the machine reports, and updates its observable
        /// model, if it has one.
        @usableFromInline let setCurrent: (SymbolCode) -> Void
        /// Runs its entry (`true`) or exit handlers of a code.
        @usableFromInline let deliverLifecycle: (_ entering: Bool, _ code: SymbolCode, _ facts: StepFacts) -> Void
        /// Whether it may have handlers of a transition of a kind (and event
        /// code) to run, and whether they match by state, so that they need the
        /// ancestries of ``deliverTransition``.
        @usableFromInline let transitionInterest:
            (_ kind: DeliveryKind, _ eventCode: SymbolCode) -> (hears: Bool, matchesStates: Bool)
        /// Records a transition for its watchers and runs its handlers of it, given the ancestries of its states
        /// before and after the step (its codes, innermost first, then `.any`).
        @usableFromInline let deliverTransition:
            (
                _ kind: DeliveryKind, _ eventCode: SymbolCode, _ before: borrowing ReusableList<SymbolCode>,
                _ after: borrowing ReusableList<SymbolCode>, _ facts: StepFacts
            ) -> Void
        /// Runs its error handlers, for a request refused for a refusal
        /// (`nil`: no route covered it).
        @usableFromInline let deliverError: (_ facts: StepFacts, _ refusal: Refusal?) -> Void
        /// Runs the route action at a node of its handler table, registered
        /// as the id given, unless it was disposed.
        @usableFromInline let deliverAction: (_ node: Int32, _ id: RegistrationID, _ facts: StepFacts) -> Void
        /// Shows its observers of inspections, if any, its start, with its
        /// active states.
        let inspectStart: () -> Void

        @usableFromInline
        init(
            setCurrent: @escaping (SymbolCode) -> Void,
            deliverLifecycle: @escaping (Bool, SymbolCode, StepFacts) -> Void,
            transitionInterest: @escaping (DeliveryKind, SymbolCode) -> (hears: Bool, matchesStates: Bool),
            deliverTransition:
                @escaping (
                    DeliveryKind, SymbolCode, borrowing ReusableList<SymbolCode>, borrowing ReusableList<SymbolCode>,
                    StepFacts
                ) -> Void, deliverError: @escaping (StepFacts, Refusal?) -> Void,
            deliverAction: @escaping (Int32, RegistrationID, StepFacts) -> Void, inspectStart: @escaping () -> Void
        ) {
            self.setCurrent = setCurrent
            self.deliverLifecycle = deliverLifecycle
            self.transitionInterest = transitionInterest
            self.deliverTransition = deliverTransition
            self.deliverError = deliverError
            self.deliverAction = deliverAction
            self.inspectStart = inspectStart
        }
    }

    @usableFromInline let naming: Naming
    @usableFromInline let routes: Routes
    @usableFromInline let handlers: Handlers
    /// Gives the machine its link to a new root.
    let relink: (NestingLink) -> Void
    /// Makes the machine a machine of its own again, in its last state, with
    /// its own declarations.
    let detach: (StateTree) -> Void

    @usableFromInline
    init(
        naming: Naming, routes: Routes, handlers: Handlers, relink: @escaping (NestingLink) -> Void,
        detach: @escaping (StateTree) -> Void
    ) {
        self.naming = naming
        self.routes = routes
        self.handlers = handlers
        self.relink = relink
        self.detach = detach
    }
}
