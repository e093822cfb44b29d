/// The active states of a statechart, by state code, and the history its
/// compound states recorded.
///
/// The root (code 0) is always active, as is every ancestor of an active
/// state. A compound state has one active child while it is active; a parallel
/// state has all of its children active.
@usableFromInline
struct Configuration {
    /// By code: for the root and each active compound state, its active child
    /// (``SymbolCode/wildcard`` for none).
    @usableFromInline var activeChild: [SymbolCode] = [.wildcard]
    /// By code: whether the state is active.
    @usableFromInline var isActive: [Bool] = [true]
    /// The active atomic states, in document order.
    @usableFromInline var atomics = ReusableList<SymbolCode>()
    /// By code: what a state with history recorded when last exited.
    @usableFromInline var recorded: [[SymbolCode]] = [[]]

    @inlinable
    init() {}

    @inlinable
    func isActive(_ code: SymbolCode) -> Bool {
        Int(code) < isActive.count && isActive[Int(code)]
    }

    @inlinable
    func activeChild(of code: SymbolCode) -> SymbolCode {
        Int(code) < activeChild.count ? activeChild[Int(code)] : .wildcard
    }

    @inlinable
    func recorded(by code: SymbolCode) -> [SymbolCode] {
        Int(code) < recorded.count ? recorded[Int(code)] : []
    }

    @inlinable
    @inline(__always)
    mutating func grow(toHold code: SymbolCode) {
        if Int(code) >= activeChild.count {
            growSlowly(toHold: code)
        }
    }

    @usableFromInline
    mutating func growSlowly(toHold code: SymbolCode) {
        while activeChild.count <= Int(code) {
            activeChild.append(.wildcard)
            isActive.append(false)
            recorded.append([])
        }
    }
}
