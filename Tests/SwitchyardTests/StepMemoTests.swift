import Testing

@testable import Switchyard

// The memo of steps a statechart keeps (`Engine/StepMemo.swift`): what it
// finds, and when it forgets. The steps it returns are checked against the
// reference interpreter by the statechart's model-based tests.

/// A plan that exits `exits`, enters `entries` and leaves `atomicsAfter` active.
private func plan(exits: [SymbolCode], entries: [SymbolCode], atomicsAfter: [SymbolCode]) -> StepPlan {
    var plan = StepPlan()
    plan.exits = ReusableList(exits)
    plan.entries = ReusableList(entries)
    plan.atomicsAfter = ReusableList(atomicsAfter)
    return plan
}

/// Remembers the step along `move` from `atomics` in `memo`, as of `layout`.
@discardableResult
private func remember(
    _ move: StepPlan.Move, from atomics: [SymbolCode], in memo: inout StepMemo, layout: UInt32 = 1
) -> StepMemo.Mark {
    let atomics = ReusableList(atomics)
    let step = plan(exits: [atomics[0]], entries: [move.target], atomicsAfter: [move.target])
    let hash = StepMemo.hash(source: move.source, target: move.target, isLocal: move.isLocal, atomics: atomics)
    return memo.remember(
        hash: hash, move: move, atomics: atomics, plan: step, innermostAfter: move.target, layout: layout)
}

/// The entry `memo` holds for the step along `move` from `atomics`, as of `layout`.
private func entry(
    _ move: StepPlan.Move, from atomics: [SymbolCode], in memo: borrowing StepMemo, layout: UInt32 = 1
) -> Int32? {
    let atomics = ReusableList(atomics)
    let hash = StepMemo.hash(source: move.source, target: move.target, isLocal: move.isLocal, atomics: atomics)
    return memo.entry(
        hash: hash, source: move.source, target: move.target, isLocal: move.isLocal, atomics: atomics,
        layout: layout)
}

@Suite struct StepMemoTests {
    @Test func aStepIsFoundByItsMoveAndTheAtomicStatesItLeavesFrom() throws {
        var memo = StepMemo()
        let move = StepPlan.Move(source: 3, target: 5, isLocal: false)
        let mark = remember(move, from: [3, 7], in: &memo)
        let lookedUp = entry(move, from: [3, 7], in: memo)
        let found = try #require(lookedUp)
        #expect(found == mark.entry)
        let remembered = memo.entries[Int(found)]
        var exits = ReusableList<SymbolCode>()
        memo.appendCodes(in: remembered.exitsStart..<remembered.entriesStart, to: &exits)
        let exitCodes = exits.elements
        #expect(exitCodes == [3])
        #expect(remembered.innermostAfter == 5)
        #expect(remembered.completions == nil, "nothing applied the step yet")

        #expect(entry(move, from: [3, 8], in: memo) == nil, "another configuration")
        #expect(entry(move, from: [3], in: memo) == nil, "fewer atomic states")
        #expect(entry(StepPlan.Move(source: 3, target: 6, isLocal: false), from: [3, 7], in: memo) == nil)
        #expect(entry(StepPlan.Move(source: 3, target: 5, isLocal: true), from: [3, 7], in: memo) == nil)
    }

    @Test func whatAStepCompletesIsRecordedOnItsEntry() throws {
        var memo = StepMemo()
        let mark = remember(StepPlan.Move(source: 1, target: 2, isLocal: false), from: [1], in: &memo)
        let completed = ReusableList<SymbolCode>([9, 4, 6])
        memo.recordCompletions(of: mark.entry, from: completed, startingAt: 1, finishes: true)
        let remembered = memo.entries[Int(mark.entry)]
        let range = try #require(remembered.completions)
        var codes = ReusableList<SymbolCode>()
        memo.appendCodes(in: range, to: &codes)
        let completions = codes.elements
        #expect(completions == [4, 6], "what came before the step is not its own")
        #expect(remembered.finishes)
    }

    @Test func anotherLayoutForgetsEveryStepAndMarksGoStale() {
        var memo = StepMemo()
        let move = StepPlan.Move(source: 1, target: 2, isLocal: false)
        let mark = remember(move, from: [1], in: &memo, layout: 1)
        let (sameLayout, otherLayout) = (memo.entry(at: mark, layout: 1), memo.entry(at: mark, layout: 2))
        #expect(sameLayout == mark.entry)
        #expect(otherLayout == nil)
        let foundInOtherLayout = entry(move, from: [1], in: memo, layout: 2)
        #expect(foundInOtherLayout == nil)

        remember(StepPlan.Move(source: 4, target: 5, isLocal: false), from: [4], in: &memo, layout: 2)
        let oldStep = entry(move, from: [1], in: memo, layout: 2)
        let oldMark = memo.entry(at: mark, layout: 2)
        let count = memo.entries.length
        #expect(oldStep == nil, "a step of the old layout")
        #expect(oldMark == nil, "a mark of the old layout")
        #expect(count == 1)
    }

    @Test func manyStepsAreAllFoundAsTheTableGrows() {
        var memo = StepMemo()
        for source in SymbolCode(1)...300 {
            remember(StepPlan.Move(source: source, target: source + 1, isLocal: false), from: [source], in: &memo)
        }
        let (slots, entries) = (memo.slots.length, memo.entries.length)
        #expect(slots >= 2 * entries)
        let missing = (SymbolCode(1)...300).filter {
            entry(StepPlan.Move(source: $0, target: $0 + 1, isLocal: false), from: [$0], in: memo) == nil
        }
        #expect(missing.isEmpty)
    }

    @Test func aFullMemoForgetsEverythingAndStartsAgain() {
        var memo = StepMemo()
        let first = StepPlan.Move(source: 1, target: 2, isLocal: false)
        let firstMark = remember(first, from: [1], in: &memo)
        for source in SymbolCode(2)..<SymbolCode(StepMemo.entryLimit + 1) {
            remember(StepPlan.Move(source: source, target: 1, isLocal: false), from: [source], in: &memo)
        }
        let full = memo.entries.length
        let firstWhenFull = entry(first, from: [1], in: memo)
        #expect(full == StepMemo.entryLimit)
        #expect(firstWhenFull != nil)

        let last = StepPlan.Move(source: 9_999, target: 1, isLocal: false)
        remember(last, from: [9_999], in: &memo)
        let count = memo.entries.length
        let (firstAfter, lastAfter) = (entry(first, from: [1], in: memo), entry(last, from: [9_999], in: memo))
        let staleMark = memo.entry(at: firstMark, layout: 1)
        #expect(count == 1)
        #expect(firstAfter == nil)
        #expect(lastAfter != nil)
        #expect(staleMark == nil, "the entry of a mark was forgotten")
    }
}
