/// A machine's configuration and recorded history, to save and restore.
///
/// ```swift
/// let saved = try JSONEncoder().encode(player.snapshot())
/// // … later, on a machine built the same way:
/// try player.restore(JSONDecoder().decode(MachineSnapshot<Player>.self, from: saved))
/// ```
///
/// A snapshot names states, not codes, so it can be restored on another
/// machine built with the same tree (a new launch of the app, say). It is
/// `Codable` when the state type is.
public struct MachineSnapshot<S: StateType>: Hashable {
    /// Every active state, each before its descendants (document order, when
    /// the machine made the snapshot).
    public var activeStates: [S]
    /// What each compound state that keeps history recorded when last exited;
    /// states that recorded nothing are absent.
    public var history: [S: [S]]
    /// Whether the machine had finished: entered a top-level final state
    /// (see ``Machine/addFinalState(_:)``), which is then active.
    public var isFinished: Bool

    /// Creates a snapshot; a machine checks it when restoring it.
    ///
    /// - Parameters:
    ///   - activeStates: Every active state, ancestors included.
    ///   - history: What each state with history recorded.
    ///   - isFinished: Whether the machine had finished.
    public init(activeStates: [S], history: [S: [S]] = [:], isFinished: Bool = false) {
        self.activeStates = activeStates
        self.history = history
        self.isFinished = isFinished
    }
}

extension MachineSnapshot: Codable where S: Codable {
    private enum CodingKeys: String, CodingKey {
        case activeStates, history, isFinished
    }

    /// Decodes a snapshot; one saved before machines could finish decodes
    /// as not finished.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        activeStates = try container.decode([S].self, forKey: .activeStates)
        history = try container.decode([S: [S]].self, forKey: .history)
        isFinished = try container.decodeIfPresent(Bool.self, forKey: .isFinished) ?? false
    }

    /// Encodes the snapshot: its active states, history and whether the
    /// machine had finished.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(activeStates, forKey: .activeStates)
        try container.encode(history, forKey: .history)
        try container.encode(isFinished, forKey: .isFinished)
    }
}

extension MachineSnapshot: Sendable where S: Sendable {}

/// Why a machine refused to restore a snapshot; the machine is unchanged.
///
/// Like ``TransitionError``, it does not carry the machine's state type, so
/// that it is `Sendable` whatever that type is; ``description`` names the
/// states at fault.
public struct SnapshotError: Error, Hashable, CustomStringConvertible {
    /// The kinds of fault. A struct, so that later versions can add some;
    /// switch over it with a `default`.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Hashable, Sendable {
            case unknownState, noActiveState, missingAncestor, twoActiveChildren, missingChild, missingRegion
            case unexpectedHistory, duringStep, nestedMachine, finishMismatch
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The snapshot names a state the machine does not know: no route,
        /// handler or declaration names it, it is neither the initial nor the
        /// current state, and the machine has no route mapping that could
        /// compute it.
        public static let unknownState = Reason(.unknownState)
        /// No state is active.
        public static let noActiveState = Reason(.noActiveState)
        /// An active state's parent is not active.
        public static let missingAncestor = Reason(.missingAncestor)
        /// Two children of one compound state (or two top-level states) are active.
        public static let twoActiveChildren = Reason(.twoActiveChildren)
        /// An active compound state has no active child.
        public static let missingChild = Reason(.missingChild)
        /// An active parallel state has a region that is not active.
        public static let missingRegion = Reason(.missingRegion)
        /// The history names a state that keeps none, or records states that
        /// are not its child (shallow) or its atomic descendants (deep).
        public static let unexpectedHistory = Reason(.unexpectedHistory)
        /// The machine was asked to restore while it was taking a step or
        /// deciding one, or running any of its handlers (from a handler of
        /// any kind, a condition or a route mapping), or while deliveries
        /// of its steps were waiting.
        public static let duringStep = Reason(.duringStep)
        /// The machine is nested in another (see ``Machine/nest(_:under:as:)``):
        /// its state lives in the hierarchy, which its root machine restores.
        public static let nestedMachine = Reason(.nestedMachine)
        /// The snapshot says the machine had finished but no top-level final
        /// state is active, or a top-level final state is active but the
        /// snapshot says the machine had not finished.
        public static let finishMismatch = Reason(.finishMismatch)

        /// The reason's name, such as `unknownState`.
        public var description: String {
            kind.rawValue
        }
    }

    /// Why the snapshot was refused.
    public let reason: Reason
    /// A sentence naming the fault and the states at fault, for logs.
    public let description: String

    /// Creates an error value; the machine makes these, tests may too.
    ///
    /// - Parameters:
    ///   - reason: Why the snapshot was refused.
    ///   - description: A sentence naming the fault.
    public init(reason: Reason, description: String) {
        self.reason = reason
        self.description = description
    }
}
