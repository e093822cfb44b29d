import Switchyard
import Testing

// A flat definition over an enum answers its mapped clauses through the
// per-case dispatch, which sorts them by the case index the reader gives each
// state. These tests ask it about states of every payload shape, several
// values of each case in an order that mixes them, through the three paths
// (the pure function, a plain machine, an effect machine), and expect the
// clause of the case `Mirror` names: a case index read wrongly would hand a
// state another case's list (and debug builds' reader stops on it first).

private final class Owner: Hashable {
    let id: Int
    init(_ id: Int) { self.id = id }
    static func == (lhs: Owner, rhs: Owner) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A multi-payload enum, carried by two cases of ``Parcel``.
private enum Content: Hashable {
    case count(Int)
    case label(String)
    case owner(Owner)
    case nothing
}

/// Cases without a payload, with a class, a `String`, a multi-payload enum,
/// and several values; pairs of cases with the same payload type.
private enum Parcel: StateType {
    case idle
    case owned(Owner)
    case shared(Owner)
    case named(String)
    case titled(String)
    case holding(Content)
    case wrapped(Content)
    case pair(Int, String)
    case sealed
    /// Where each clause sends the machine: the name of the case it is for.
    case reached(String)
}

private enum Poke: EventType {
    case poke
    /// Moves the machine to any state, so that one machine's dispatch is
    /// asked about every case.
    case jump(Parcel)
}

/// The name `Mirror` gives `value`'s case.
private func caseName(of value: Parcel) -> String {
    Mirror(reflecting: value).children.first?.label ?? "\(value)"
}

/// One clause per case, each sending the machine to `.reached` with its
/// case's name and emitting it: by pattern for the payload cases, by value
/// for the others.
private func parcels() -> Definition<Parcel, Poke, String> {
    Definition(initialState: .idle) {
        From(.idle) { On(.poke, emit: "idle") { _, _ in .reached("idle") } }
        From(Parcel.owned) { On(.poke, emit: "owned") { _, _ in .reached("owned") } }
        From(Parcel.shared) { On(.poke, emit: "shared") { _, _ in .reached("shared") } }
        From(Parcel.named) { On(.poke, emit: "named") { _, _ in .reached("named") } }
        From(Parcel.titled) { On(.poke, emit: "titled") { _, _ in .reached("titled") } }
        From(Parcel.holding) { On(.poke, emit: "holding") { _, _ in .reached("holding") } }
        From(Parcel.wrapped) { On(.poke, emit: "wrapped") { _, _ in .reached("wrapped") } }
        From(Parcel.pair) { On(.poke, emit: "pair") { _, _ in .reached("pair") } }
        From(.sealed) { On(.poke, emit: "sealed") { _, _ in .reached("sealed") } }
        From(Parcel.reached) { On(.poke, emit: "reached") { _, _ in .reached("reached") } }
        From(.any) {
            On(Poke.jump) { _, event in
                guard case .jump(let target) = event else { return nil }
                return target
            }
        }
    }
}

/// Several values of every case, the same case's values apart, its payloads
/// differing in their own case (the multi-payload `Content`) and in spare bits.
private func mixedParcels() -> [Parcel] {
    let first = Owner(1)
    let second = Owner(2)
    return [
        .holding(.count(1)), .idle, .owned(first), .named("a"), .wrapped(.label("x")), .sealed, .shared(second),
        .titled("t"), .pair(1, "p"), .holding(.label("y")), .reached("r"), .wrapped(.nothing), .owned(second),
        .holding(.owner(first)), .named(""), .shared(first), .wrapped(.count(2)),
        .titled(String(repeating: "long ", count: 8)),
        .holding(.nothing), .pair(0, ""), .wrapped(.owner(second)), .named("b"), .idle, .sealed, .reached(""),
    ]
}

@Suite struct CaseDispatchTests {
    @Test func everyPathAnswersEachStateWithTheClauseOfTheCaseMirrorNames() throws {
        let definition = parcels()
        // One dispatch each, asked about the cases in a mixed order.
        let plain = definition.makeMachine()
        let effects = EffectMachine(definition)
        for state in mixedParcels() + mixedParcels().reversed() {
            let name = caseName(of: state)
            let outcome = try #require(definition.transition(from: state, on: .poke), "\(state)")
            #expect(outcome.toState == .reached(name), "\(state)")
            #expect(outcome.effects == [name], "\(state)")

            #expect(plain.tryEvent(.jump(state)))
            #expect(plain.tryEvent(.poke), "\(state)")
            #expect(plain.state == .reached(name), "\(state)")

            try effects.transition(.jump(state))
            let transition = try effects.transition(.poke)
            #expect(transition.toState == .reached(name), "\(state)")
            #expect(transition.effects == [name], "\(state)")
        }
    }

    @Test func aMachineStartingInAnyCaseLearnsThatCaseFirst() throws {
        for state in mixedParcels() {
            let name = caseName(of: state)
            let machine = parcels().starting(in: state).makeMachine()
            #expect(machine.tryEvent(.poke), "\(state)")
            #expect(machine.state == .reached(name), "\(state)")
            let transition = try EffectMachine(parcels().starting(in: state)).transition(.poke)
            #expect(transition.effects == [name], "\(state)")
        }
    }
}
