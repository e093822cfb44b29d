import Testing

@testable import Switchyard

// The memo of choices a statechart keeps (`Engine/ChoiceMemo.swift`): what it
// finds, and when it forgets. The moves it returns are checked against the
// reference interpreter by the statechart's model-based tests.

/// A move from `source` to `target`.
private func move(_ source: SymbolCode, _ target: SymbolCode) -> StepPlan.Move {
    StepPlan.Move(source: source, target: target, isLocal: false)
}

/// Remembers that `event` chose `moves` from `atomics` in `memo`.
private func remember(
    _ moves: [StepPlan.Move], event: SymbolCode, from atomics: [SymbolCode], in memo: inout ChoiceMemo,
    layout: UInt32 = 1, routesVersion: UInt64 = 1
) {
    let atomics = ReusableList(atomics)
    let chosen = ReusableList(moves)
    _ = memo.remember(
        hash: ChoiceMemo.hash(event: event, atomics: atomics), event: event, atomics: atomics, chosen: chosen,
        layout: layout, routesVersion: routesVersion)
}

/// The sources and targets of the moves `memo` holds for `event` from `atomics`, if it holds them.
private func chosen(
    by event: SymbolCode, from atomics: [SymbolCode], in memo: borrowing ChoiceMemo, layout: UInt32 = 1,
    routesVersion: UInt64 = 1
) -> [[SymbolCode]]? {
    let atomics = ReusableList(atomics)
    guard
        let index = memo.entry(
            hash: ChoiceMemo.hash(event: event, atomics: atomics), event: event, atomics: atomics, layout: layout,
            routesVersion: routesVersion)
    else { return nil }
    let range = memo.entries[Int(index)].moves
    return (range.lowerBound..<range.upperBound).map { [memo.moves[Int($0)].source, memo.moves[Int($0)].target] }
}

/// The states of the machines below: pair ‖ left { l1, l2 } ‖ right { r1, r2 }, and out.
private enum Spot: StateType {
    case pair, left, l1, l2, right, r1, r2, out
}

private enum Nudge: EventType {
    case flip, left, right, also, back
}

/// A machine in `pair`, its regions declared, without routes.
private func makePair() -> Machine<Spot, Nudge> {
    let machine = Machine<Spot, Nudge>(state: .pair)
    machine.addRegions([.left, .right], to: .pair)
    machine.addChildren([.l1, .l2], to: .left)
    machine.addChildren([.r1, .r2], to: .right)
    return machine
}

@Suite struct ChoiceMemoTests {
    @Test func aChoiceIsFoundByItsConfigurationAndEventAlone() {
        var memo = ChoiceMemo()
        remember([move(3, 4), move(5, 6)], event: 9, from: [3, 5], in: &memo)
        remember([move(4, 3)], event: 9, from: [4, 5], in: &memo)
        #expect(chosen(by: 9, from: [3, 5], in: memo) == [[3, 4], [5, 6]])
        #expect(chosen(by: 9, from: [4, 5], in: memo) == [[4, 3]])
        #expect(chosen(by: 10, from: [3, 5], in: memo) == nil)
        #expect(chosen(by: 9, from: [5, 3], in: memo) == nil)
        #expect(chosen(by: 9, from: [3], in: memo) == nil)
    }

    @Test func anotherLayoutOrRoutesVersionFindsNothingAndForgetsAll() {
        var memo = ChoiceMemo()
        remember([move(3, 4)], event: 9, from: [3], in: &memo)
        #expect(chosen(by: 9, from: [3], in: memo, layout: 2) == nil)
        #expect(chosen(by: 9, from: [3], in: memo, routesVersion: 2) == nil)
        remember([move(5, 6)], event: 9, from: [5], in: &memo, routesVersion: 2)
        #expect(chosen(by: 9, from: [5], in: memo, routesVersion: 2) == [[5, 6]])
        #expect(chosen(by: 9, from: [3], in: memo, routesVersion: 2) == nil)
        let count = memo.entries.length
        #expect(count == 1)
    }

    @Test func manyChoicesAreAllFoundUntilTheMemoIsFull() {
        var memo = ChoiceMemo()
        for code in 0..<300 {
            remember([move(SymbolCode(code), 1)], event: 2, from: [SymbolCode(code), 7], in: &memo)
        }
        for code in 0..<300 {
            #expect(chosen(by: 2, from: [SymbolCode(code), 7], in: memo) == [[SymbolCode(code), 1]])
        }
        let (slots, entries) = (memo.slots.length, memo.entries.length)
        #expect(slots >= 2 * entries)
        for code in 300..<ChoiceMemo.entryLimit {
            remember([move(SymbolCode(code), 1)], event: 2, from: [SymbolCode(code)], in: &memo)
        }
        remember([move(1, 2)], event: 3, from: [1], in: &memo)
        let remaining = memo.entries.length
        #expect(remaining == 1)
        #expect(chosen(by: 2, from: [0, 7], in: memo) == nil)
        #expect(chosen(by: 3, from: [1], in: memo) == [[1, 2]])
    }

    @Test func aMachineRemembersAChoiceOnceAndTakesItFromTheMemoAfter() throws {
        let machine = makePair()
        machine.addRoutes(event: .flip, transitions: [.l1 => .l2, .l2 => .l1, .r1 => .r2, .r2 => .r1])
        machine.start()
        for _ in 0..<3 {
            #expect(machine.tryEvent(.flip))
        }
        let chart = try #require(machine.chart)
        // Two configurations, one choice each: the third flip was recalled.
        let remembered = chart.choiceMemo.entries.length
        #expect(remembered == 2)
        #expect(machine.isActive(.l2) && machine.isActive(.r2))
    }

    @Test func aRememberedChoiceLinksToItsStepAndFindsItAgainOnceForgotten() throws {
        let machine = makePair()
        machine.addRoutes(event: .left, transitions: [.l1 => .l2, .l2 => .l1])
        machine.start()
        let chart = try #require(machine.chart)
        #expect(machine.tryEvent(.left))
        // A sibling move's step is remembered for the choice to link to.
        let linked = chart.choiceMemo.entries[0].step
        #expect(chart.stepMemo.entry(at: linked, layout: chart.tree.layouts) != nil)
        #expect(machine.tryEvent(.left))
        #expect(machine.tryEvent(.left))
        #expect(machine.isActive(.l2) && machine.isActive(.r1))
        // The memo of steps forgets: the link is stale, and the step is worked out again.
        chart.stepMemo.forgetAll(layout: chart.tree.layouts)
        #expect(chart.stepMemo.entry(at: linked, layout: chart.tree.layouts) == nil)
        #expect(machine.tryEvent(.left))
        #expect(machine.isActive(.l1) && machine.isActive(.r1))
        #expect(machine.tryEvent(.left))
        #expect(machine.isActive(.l2) && machine.isActive(.r1))
        let relinked = chart.choiceMemo.entries[0].step
        #expect(chart.stepMemo.entry(at: relinked, layout: chart.tree.layouts) != nil)
    }

    @Test func aStaleLinkIsNotFollowedToTheSameMoveFromAnotherConfiguration() throws {
        let machine = makePair()
        machine.addRoutes(event: .left, transitions: [.l1 => .l2, .l2 => .l1])
        machine.addRoutes(event: .right, transitions: [.r1 => .r2, .r2 => .r1])
        machine.start()
        let chart = try #require(machine.chart)
        #expect(machine.tryEvent(.left))
        #expect(machine.tryEvent(.left))
        // The memo of steps forgets; its first entry is then l1 => l2 again,
        // but from { l1, r2 }.
        chart.stepMemo.forgetAll(layout: chart.tree.layouts)
        #expect(machine.tryEvent(.right))
        chart.stepMemo.forgetAll(layout: chart.tree.layouts)
        #expect(machine.tryEvent(.left))
        #expect(machine.isActive(.l2) && machine.isActive(.r2))
        #expect(machine.tryEvent(.left))
        #expect(machine.tryEvent(.right))
        // From { l1, r1 }: the choice's link names entry 0 of a generation gone.
        #expect(machine.tryEvent(.left))
        #expect(machine.isActive(.l2) && machine.isActive(.r1))
    }

    @Test func aSiblingStepIsRememberedOnceWhateverChoiceLeadsToIt() throws {
        let machine = makePair()
        machine.addRoutes(event: .left, transitions: [.l1 => .l2, .l2 => .l1])
        machine.addRoutes(event: .also, transitions: [.l1 => .l2])
        machine.start()
        let chart = try #require(machine.chart)
        #expect(machine.tryEvent(.left))
        #expect(machine.tryEvent(.left))
        let steps = chart.stepMemo.entries.length
        #expect(steps == 2)
        // Another event's choice of the same move, and a route change that
        // empties the memo of choices: the steps are found, not added again.
        #expect(machine.tryEvent(.also))
        #expect(machine.tryEvent(.left))
        machine.addRoutes(event: .also, transitions: [.r1 => .r2])
        #expect(machine.tryEvent(.left))
        #expect(machine.tryEvent(.left))
        let after = chart.stepMemo.entries.length
        #expect(after == 2)
    }

    @Test func aChoiceLinkedByAQuestionCompletesWhenItsStepIsTaken() {
        let machine = makePair()
        machine.addFinalState(.l2)
        machine.addFinalState(.r2)
        machine.addRoutes(event: .left, transitions: [.l1 => .l2])
        machine.addRoutes(event: .right, transitions: [.r1 => .r2])
        machine.addDoneRoute(.pair => .out)
        machine.addRoutes(event: .back, transitions: [.out => .pair])
        machine.start()
        for round in 0..<3 {
            #expect(machine.canTryEvent(.left) == .pair, "round \(round)")
            #expect(machine.canTryEvent(.right) == .pair, "round \(round)")
            #expect(machine.tryEvent(.left))
            #expect(machine.state == .pair, "round \(round): one region is done")
            #expect(machine.tryEvent(.right))
            #expect(machine.state == .out, "round \(round): both regions are done")
            #expect(machine.tryEvent(.back))
        }
    }
}
