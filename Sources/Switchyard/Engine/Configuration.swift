/// The active states of a statechart, by state code, and the history its
/// compound states recorded.
///
/// The root (code 0) is always active, as is every ancestor of an active
/// state. A compound state has one active child while it is active; a parallel
/// state has all of its children active.
///
/// Noncopyable, as its lists are (``ReusableList``): a chart's configuration
/// is changed in place, and one kept aside (while a snapshot is restored) is
/// swapped in and out rather than copied.
@usableFromInline
struct Configuration: ~Copyable {
    /// By code: for the root and each active compound state, its active child
    /// (``SymbolCode/wildcard`` for none).
    var activeChild = ReusableList<SymbolCode>()
    /// By code: whether the state is active.
    var isActive = ReusableList<Bool>()
    /// The active atomic states, in document order.
    var atomics = ReusableList<SymbolCode>()
    /// By code: what a state with history recorded when last exited.
    var recorded: [[SymbolCode]] = [[]]

    /// The configuration of a chart that has not begun: only the root is active.
    init() {
        activeChild.append(.wildcard)
        isActive.append(true)
    }

    @usableFromInline
    func isActive(_ code: SymbolCode) -> Bool {
        Int(code) < isActive.length && isActive[Int(code)]
    }

    func activeChild(of code: SymbolCode) -> SymbolCode {
        Int(code) < activeChild.length ? activeChild[Int(code)] : .wildcard
    }

    @usableFromInline
    func recorded(by code: SymbolCode) -> [SymbolCode] {
        Int(code) < recorded.count ? recorded[Int(code)] : []
    }

    @inline(__always)
    mutating func grow(toHold code: SymbolCode) {
        if Int(code) >= activeChild.length {
            growSlowly(toHold: code)
        }
    }

    mutating func growSlowly(toHold code: SymbolCode) {
        while activeChild.length <= Int(code) {
            activeChild.append(.wildcard)
            isActive.append(false)
            recorded.append([])
        }
    }
}
