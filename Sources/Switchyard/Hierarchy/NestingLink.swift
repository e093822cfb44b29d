/// How a nested machine reaches the root of its hierarchy, which decides and
/// delivers every step: closures made in the root's own (specialised) code,
/// taking the nested machine's codes.
///
/// The root keeps its nested machines alive and, when it is released, makes
/// each of them a machine of its own again (clearing this link), so the link
/// never outlives the root.
@usableFromInline
final class NestingLink {
    /// The nested machine's index among the root's members.
    @usableFromInline let member: Int
    /// The root machine, to recognise a cycle.
    let root: ObjectIdentifier
    /// Decides and takes the step a request to a member causes.
    @usableFromInline let request: (_ member: Int, _ request: StepRequest, _ userInfo: UserInfoBox?) -> NestedOutcome
    /// Brings the hierarchy's tree and configuration up to date.
    @usableFromInline let prepare: () -> Void
    let stateAfterEvent: (_ member: Int, _ event: BorrowedEvent, _ userInfo: UserInfoBox?) -> SymbolCode?
    let canTakeStep: (_ member: Int, _ target: SymbolCode, _ userInfo: UserInfoBox?) -> Bool
    let hasEventRoute:
        (_ member: Int, _ event: BorrowedEvent, _ from: SymbolCode, _ to: SymbolCode, _ userInfo: UserInfoBox?) ->
            Bool
    let hasStateRoute: (_ member: Int, _ from: SymbolCode, _ to: SymbolCode, _ userInfo: UserInfoBox?) -> Bool
    /// The member's active states, in document order, in its codes.
    let activeCodes: (_ member: Int) -> [SymbolCode]
    let isActive: (_ member: Int, _ code: SymbolCode) -> Bool
    let recordedHistory: (_ member: Int, _ code: SymbolCode) -> [SymbolCode]
    let declare:
        (_ member: Int, _ children: [SymbolCode], _ parent: SymbolCode, _ kind: StateTree.Kind, _ initial: SymbolCode?)
            -> Void
    let setHistory: (_ member: Int, _ kind: HistoryKind, _ code: SymbolCode, _ fallback: SymbolCode?) -> Void
    /// Makes a state of the member final.
    let setFinal: (_ member: Int, _ code: SymbolCode) -> Void
    /// The kind of a state of the member in the hierarchy's tree, where a
    /// state with a machine nested in it has children.
    let kind: (_ member: Int, _ code: SymbolCode) -> StateTree.Kind
    /// Tells the root that the member has routes under a reserved code
    /// (eventless or done), which its macrostep must ask it for.
    let noteRoutes: (_ reservedEvent: SymbolCode) -> Void
    /// Adds a machine nested in a member; returns its link.
    @usableFromInline let addMember: (_ nested: NestedMachine) -> NestingLink
    /// Whether the root has begun, and whether it is taking or deciding a step.
    let hasBegun: () -> Bool
    let isBusy: () -> Bool
    /// Whether the root has finished (entered a top-level final state).
    let isFinished: () -> Bool
    /// Has the root take the eventless routes that are enabled (see
    /// ``Machine/takeEventlessSteps()``): a member's timer has fired.
    let takeEventlessSteps: () -> Void
    /// The machines nested directly in the member, for its description
    /// (see ``Machine/nestedParts(of:)``).
    let nestedParts: (_ member: Int) -> [NestedPart]
    /// Hands back the member's transient codes that the chart does not hold,
    /// once the root is idle (see ``Machine/releaseTransientCodes()``).
    let releaseTransientCodes: (_ member: Int) -> Void

    @usableFromInline
    init(
        member: Int, root: ObjectIdentifier,
        request: @escaping (Int, StepRequest, UserInfoBox?) -> NestedOutcome, prepare: @escaping () -> Void,
        stateAfterEvent: @escaping (Int, BorrowedEvent, UserInfoBox?) -> SymbolCode?,
        canTakeStep: @escaping (Int, SymbolCode, UserInfoBox?) -> Bool,
        hasEventRoute: @escaping (Int, BorrowedEvent, SymbolCode, SymbolCode, UserInfoBox?) -> Bool,
        hasStateRoute: @escaping (Int, SymbolCode, SymbolCode, UserInfoBox?) -> Bool,
        activeCodes: @escaping (Int) -> [SymbolCode], isActive: @escaping (Int, SymbolCode) -> Bool,
        recordedHistory: @escaping (Int, SymbolCode) -> [SymbolCode],
        declare: @escaping (Int, [SymbolCode], SymbolCode, StateTree.Kind, SymbolCode?) -> Void,
        setHistory: @escaping (Int, HistoryKind, SymbolCode, SymbolCode?) -> Void,
        setFinal: @escaping (Int, SymbolCode) -> Void, kind: @escaping (Int, SymbolCode) -> StateTree.Kind,
        noteRoutes: @escaping (SymbolCode) -> Void, addMember: @escaping (NestedMachine) -> NestingLink,
        hasBegun: @escaping () -> Bool,
        isBusy: @escaping () -> Bool, isFinished: @escaping () -> Bool,
        takeEventlessSteps: @escaping () -> Void, nestedParts: @escaping (Int) -> [NestedPart],
        releaseTransientCodes: @escaping (Int) -> Void
    ) {
        self.member = member
        self.root = root
        self.request = request
        self.prepare = prepare
        self.stateAfterEvent = stateAfterEvent
        self.canTakeStep = canTakeStep
        self.hasEventRoute = hasEventRoute
        self.hasStateRoute = hasStateRoute
        self.activeCodes = activeCodes
        self.isActive = isActive
        self.recordedHistory = recordedHistory
        self.declare = declare
        self.setHistory = setHistory
        self.setFinal = setFinal
        self.kind = kind
        self.noteRoutes = noteRoutes
        self.addMember = addMember
        self.hasBegun = hasBegun
        self.isBusy = isBusy
        self.isFinished = isFinished
        self.takeEventlessSteps = takeEventlessSteps
        self.nestedParts = nestedParts
        self.releaseTransientCodes = releaseTransientCodes
    }
}
