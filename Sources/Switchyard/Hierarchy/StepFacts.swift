/// What a nested machine's handlers are told of a step, in its own codes.
///
/// Plain values only: the step's `userInfo` is lent by address, so handing
/// the facts to each machine copies no existential (a copy of `Any?` costs
/// about a hundred instructions, even when it is `nil`).
@usableFromInline
struct StepFacts {
    /// The root's event, which a machine with the same event type reads.
    @usableFromInline var event: BorrowedEvent?
    /// The step's `userInfo`, which the step keeps alive while it is delivered.
    @usableFromInline var userInfo: Unretained<UserInfoBox>?
    /// The machine's state before the step, and after it (for a refusal, the
    /// state asked for).
    @usableFromInline var before: SymbolCode
    @usableFromInline var after: SymbolCode

    @inlinable
    init(event: BorrowedEvent?, userInfo: UserInfoBox?, before: SymbolCode, after: SymbolCode) {
        self.event = event
        self.userInfo = userInfo.map(Unretained.init)
        self.before = before
        self.after = after
    }
}
