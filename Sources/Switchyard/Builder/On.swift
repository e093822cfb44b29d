/// "On this event, go there (and emit this)": one clause of a ``From`` block.
///
/// ```swift
/// From(.liquid) {
///     On(.freeze, transitionTo: .solid, emit: .logFrozen)        // a fixed target
///     On(.stir, stayAndEmit: .logStirred)                        // stay, and still emit
///     On(.heat) { matter, event in matter.isBoiling ? .gas : nil }  // a target computed from both
///     On(.vaporize, transitionTo: .gas).guard { _, _ in hasLid == false }
///     On(.pour, transitionTo: .solid).disable { isFrozenSolid }
/// }
/// ```
///
/// The event is given as
/// - a value: `.melt`;
/// - `.any`: every event;
/// - a case of an enum with associated values, by its constructor:
///   `On(DocumentEvent.edited)` answers `.edited(_)` whatever the value;
/// - the type an enum case carries: `On(Refresh.self)` answers the case whose
///   associated value is a `Refresh`, and hands the closure that `Refresh`.
///
/// A clause with a fixed target, from a state value (or `.any`) on an event
/// value (or `.any`), becomes a route, exactly as `from => to` added with
/// ``Machine/addRoutes(event:transitions:condition:)-(Event<E>,_,Condition?)``; the others are answered by the
/// definition's route mapping. <doc:DefinitionDSL> says which clause wins when
/// several could. Such a route may have several targets, in regions of one
/// ``Parallel`` state, and may enter a state that keeps history afresh:
///
/// ```swift
/// On(.paste, transitionTo: .boldOn, alsoEntering: .italicOn)  // (.idle => .boldOn).alsoEntering(.italicOn)
/// On(.reset, transitionTo: .editing, ignoringHistory: true)    // .ignoringHistory(.idle => .editing)
/// ```
///
/// A computed target is one state, entered through its history if it keeps one.
///
/// `View` is the type the closures see the current state as: the state type,
/// or, inside `From(Loading.self)`, the associated value `Loading`.
public struct On<S: StateType, E: EventType, Effect, View> {
    @usableFromInline var draft: ClauseDraft<S, E, Effect>

    @inlinable
    init(_ draft: ClauseDraft<S, E, Effect>) {
        self.draft = draft
    }

    /// A clause for `event` going to `target`, entering it as `entering` says.
    @inlinable
    init(event: ClauseSide<E>, target: S?, entering: Entering<S> = Entering(), effects: [Effect]) {
        self.init(ClauseDraft(event: event, target: .fixed(target), entering: entering, effects: effects))
    }

    /// A clause for `event` whose closure decides, given the state and the
    /// event as `View` and `EventView`.
    @inlinable
    init<EventView>(
        event: ClauseSide<E>, effects: [Effect], reaction: @escaping (View, EventView) -> Reaction<S, Effect>?
    ) {
        let body: (S, E) -> Reaction<S, Effect>? = projecting(reaction, refused: nil)
        self.init(ClauseDraft(event: event, target: .computed(body), effects: effects))
    }

    /// A clause for `event` whose closure names the target, given the state
    /// and the event as `View` and `EventView`.
    @inlinable
    init<EventView>(event: ClauseSide<E>, effects: [Effect], target: @escaping (View, EventView) -> S?) {
        let body: (S, E) -> S? = projecting(target, refused: nil)
        self.init(ClauseDraft(event: event, target: .computedState(body), effects: effects))
    }
}

// MARK: - An event value

extension On {
    /// On `event`, go to `target` (and to `otherTargets`, in other regions)
    /// and emit `effects`.
    ///
    /// ```swift
    /// On(.paste, transitionTo: .boldOn, alsoEntering: .italicOn, emit: .pasted)  // both regions at once
    /// On(.reset, transitionTo: .editing, ignoringHistory: true)                  // its initial child
    /// ```
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - target: Where the machine goes.
    ///   - otherTargets: Targets in other regions of the parallel state that
    ///     holds `target`, entered in the same step (SCXML's `target="a b"`);
    ///     none by default. See ``Transition/alsoEntering(_:)``.
    ///   - ignoringHistory: Whether `target` is entered by its initial child
    ///     (or all its regions) even if it keeps history; `false` by default,
    ///     entering it through its history. See ``Transition/ignoringHistory(_:)``.
    ///   - effects: What the transition emits, in order; none by default.
    /// - Precondition: The targets lie in different regions of one
    ///   ``Parallel`` state; the misuse stops, when the definition is made,
    ///   with ``Transition/alsoEntering(_:)``'s message.
    @inlinable
    public init(
        _ event: E, transitionTo target: S, alsoEntering otherTargets: S..., ignoringHistory: Bool = false,
        emit effects: Effect...
    ) {
        self.init(
            event: .value(event), target: target,
            entering: Entering(otherTargets: otherTargets, ignoresHistory: ignoringHistory), effects: effects)
    }

    /// On `event`, stay in the current state and emit `effects`: a successful
    /// transition (the observers hear it) that changes nothing else.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - effects: What the transition emits, in order.
    @inlinable
    public init(_ event: E, stayAndEmit effects: Effect...) {
        self.init(event: .value(event), target: nil, effects: effects)
    }

    /// On `event`, go where `target` says, given the current state and the event.
    ///
    /// ```swift
    /// On(.next) { page, _ in page.number < 10 ? .page(page.number + 1) : nil }
    /// ```
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - effects: What the transition emits, in order; none by default.
    ///   - target: The state to go to, or `nil` to refuse the event.
    @inlinable
    public init(_ event: E, emit effects: Effect..., target: @escaping (View, E) -> S?) {
        self.init(event: .value(event), effects: effects, target: target)
    }

    /// On `event`, go where `target` says, given the event.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - effects: What the transition emits, in order; none by default.
    ///   - target: The state to go to, or `nil` to refuse the event.
    @inlinable
    public init(_ event: E, emit effects: Effect..., target: @escaping (E) -> S?) {
        self.init(event: .value(event), effects: effects) { (_: View, event: E) -> S? in target(event) }
    }

    /// On `event`, do what `reaction` says: go somewhere or stay, and emit.
    ///
    /// ```swift
    /// On(.submit) { form, _ in form.isValid ? .transition(to: .sending, emit: .send(form)) : .stay(emit: .showErrors) }
    /// ```
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - reaction: What to do, or `nil` to refuse the event.
    @inlinable
    public init(_ event: E, reaction: @escaping (View, E) -> Reaction<S, Effect>?) {
        self.init(event: .value(event), effects: [], reaction: reaction)
    }
}

// MARK: - Every event

extension On {
    /// On every event (`.any`), go to `target` (and to `otherTargets`, in
    /// other regions) and emit `effects`.
    ///
    /// - Parameters:
    ///   - event: `.any` (or `.some(event)`, the same as the event itself).
    ///   - target: Where the machine goes.
    ///   - otherTargets: Targets in other regions of the parallel state that
    ///     holds `target`, entered in the same step (SCXML's `target="a b"`);
    ///     none by default. See ``Transition/alsoEntering(_:)``.
    ///   - ignoringHistory: Whether `target` is entered by its initial child
    ///     (or all its regions) even if it keeps history; `false` by default,
    ///     entering it through its history. See ``Transition/ignoringHistory(_:)``.
    ///   - effects: What the transition emits, in order; none by default.
    /// - Precondition: The targets lie in different regions of one
    ///   ``Parallel`` state; the misuse stops, when the definition is made,
    ///   with ``Transition/alsoEntering(_:)``'s message.
    @inlinable
    public init(
        _ event: Event<E>, transitionTo target: S, alsoEntering otherTargets: S..., ignoringHistory: Bool = false,
        emit effects: Effect...
    ) {
        self.init(
            event: ClauseSide(event), target: target,
            entering: Entering(otherTargets: otherTargets, ignoresHistory: ignoringHistory), effects: effects)
    }

    /// On every event (`.any`), stay and emit `effects`.
    ///
    /// - Parameters:
    ///   - event: `.any` (or `.some(event)`).
    ///   - effects: What the transition emits, in order.
    @inlinable
    public init(_ event: Event<E>, stayAndEmit effects: Effect...) {
        self.init(event: ClauseSide(event), target: nil, effects: effects)
    }

    /// On every event (`.any`), go where `target` says.
    ///
    /// - Parameters:
    ///   - event: `.any` (or `.some(event)`).
    ///   - effects: What the transition emits, in order; none by default.
    ///   - target: The state to go to, or `nil` to refuse the event.
    @inlinable
    public init(_ event: Event<E>, emit effects: Effect..., target: @escaping (View, E) -> S?) {
        self.init(event: ClauseSide(event), effects: effects, target: target)
    }

    /// On every event (`.any`), do what `reaction` says.
    ///
    /// - Parameters:
    ///   - event: `.any` (or `.some(event)`).
    ///   - reaction: What to do, or `nil` to refuse the event.
    @inlinable
    public init(_ event: Event<E>, reaction: @escaping (View, E) -> Reaction<S, Effect>?) {
        self.init(event: ClauseSide(event), effects: [], reaction: reaction)
    }
}

// MARK: - A case of an event enum

extension On {
    /// On any event of the case `embed` builds (`DocumentEvent.edited`,
    /// whatever its associated values), go to `target` and emit `effects`.
    ///
    /// - Parameters:
    ///   - embed: The case's constructor, such as `DocumentEvent.edited`.
    ///   - target: Where the machine goes.
    ///   - effects: What the transition emits, in order; none by default.
    @inlinable
    public init<each Payload>(
        _ embed: @escaping (repeat each Payload) -> E, transitionTo target: S, emit effects: Effect...
    ) {
        self.init(event: .pattern(.of(embed)), target: target, effects: effects)
    }

    /// On any event of the case `embed` builds, stay and emit `effects`.
    ///
    /// - Parameters:
    ///   - embed: The case's constructor.
    ///   - effects: What the transition emits, in order.
    @inlinable
    public init<each Payload>(_ embed: @escaping (repeat each Payload) -> E, stayAndEmit effects: Effect...) {
        self.init(event: .pattern(.of(embed)), target: nil, effects: effects)
    }

    /// On any event of the case `embed` builds, go where `target` says.
    ///
    /// ```swift
    /// On(EditorEvent.typed) { editor, event in
    ///     guard case .typed(let text) = event else { return nil }
    ///     return .editing(editor.text + text)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - embed: The case's constructor.
    ///   - effects: What the transition emits, in order; none by default.
    ///   - target: The state to go to, or `nil` to refuse the event.
    @inlinable
    public init<each Payload>(
        _ embed: @escaping (repeat each Payload) -> E, emit effects: Effect..., target: @escaping (View, E) -> S?
    ) {
        self.init(event: .pattern(.of(embed)), effects: effects, target: target)
    }

    /// On any event of the case `embed` builds, do what `reaction` says.
    ///
    /// - Parameters:
    ///   - embed: The case's constructor.
    ///   - reaction: What to do, or `nil` to refuse the event.
    @inlinable
    public init<each Payload>(
        _ embed: @escaping (repeat each Payload) -> E, reaction: @escaping (View, E) -> Reaction<S, Effect>?
    ) {
        self.init(event: .pattern(.of(embed)), effects: [], reaction: reaction)
    }
}

// MARK: - The type an event case carries

extension On {
    /// On the event whose case carries a `Payload` (`Refresh.self` for
    /// `case refresh(Refresh)`), go to `target` and emit `effects`.
    ///
    /// - Parameters:
    ///   - payload: The type the event's case carries.
    ///   - target: Where the machine goes.
    ///   - effects: What the transition emits, in order; none by default.
    @inlinable
    public init<Payload>(_ payload: Payload.Type, transitionTo target: S, emit effects: Effect...) {
        self.init(event: ClauseSide(carrying: payload), target: target, effects: effects)
    }

    /// On the event whose case carries a `Payload`, stay and emit `effects`.
    ///
    /// - Parameters:
    ///   - payload: The type the event's case carries.
    ///   - effects: What the transition emits, in order.
    @inlinable
    public init<Payload>(_ payload: Payload.Type, stayAndEmit effects: Effect...) {
        self.init(event: ClauseSide(carrying: payload), target: nil, effects: effects)
    }

    /// On the event whose case carries a `Payload`, go where `target` says,
    /// given the current state (as `View`) and the `Payload`.
    ///
    /// - Parameters:
    ///   - payload: The type the event's case carries.
    ///   - effects: What the transition emits, in order; none by default.
    ///   - target: The state to go to, or `nil` to refuse the event.
    @inlinable
    public init<Payload>(_ payload: Payload.Type, emit effects: Effect..., target: @escaping (View, Payload) -> S?) {
        self.init(event: ClauseSide(carrying: payload), effects: effects, target: target)
    }

    /// On the event whose case carries a `Payload`, go where `target` says,
    /// given the `Payload`: Feedbacks' `On(LoadingSucceeded.self) { event in … }`.
    ///
    /// - Parameters:
    ///   - payload: The type the event's case carries.
    ///   - effects: What the transition emits, in order; none by default.
    ///   - target: The state to go to, or `nil` to refuse the event.
    @inlinable
    public init<Payload>(_ payload: Payload.Type, emit effects: Effect..., target: @escaping (Payload) -> S?) {
        self.init(event: ClauseSide(carrying: payload), effects: effects) { (_: View, event: Payload) -> S? in
            target(event)
        }
    }

    /// On the event whose case carries a `Payload`, go to the state of the
    /// case `embed` builds around the value `target` returns: Feedbacks'
    /// `On(LoadingSucceeded.self) { event in Loaded(…) }`, with the case named once.
    ///
    /// ```swift
    /// On(LoadingSucceeded.self, to: Feed.loaded) { event in Loaded(page: event.page, items: event.items) }
    /// ```
    ///
    /// - Parameters:
    ///   - payload: The type the event's case carries.
    ///   - embed: The case of the state to go to, such as `Feed.loaded`.
    ///   - effects: What the transition emits, in order; none by default.
    ///   - target: The value the state's case carries, or `nil` to refuse the event.
    @inlinable
    public init<Payload, Target>(
        _ payload: Payload.Type, to embed: @escaping (Target) -> S, emit effects: Effect...,
        target: @escaping (Payload) -> Target?
    ) {
        self.init(event: ClauseSide(carrying: payload), effects: effects) { (_: View, event: Payload) -> S? in
            target(event).map(embed)
        }
    }

    /// On the event whose case carries a `Payload`, go to the state of the
    /// case `embed` builds around the value `target` returns, given the
    /// current state (as `View`) and the `Payload`.
    ///
    /// - Parameters:
    ///   - payload: The type the event's case carries.
    ///   - embed: The case of the state to go to, such as `Feed.loaded`.
    ///   - effects: What the transition emits, in order; none by default.
    ///   - target: The value the state's case carries, or `nil` to refuse the event.
    @inlinable
    public init<Payload, Target>(
        _ payload: Payload.Type, to embed: @escaping (Target) -> S, emit effects: Effect...,
        target: @escaping (View, Payload) -> Target?
    ) {
        self.init(event: ClauseSide(carrying: payload), effects: effects) { (state: View, event: Payload) -> S? in
            target(state, event).map(embed)
        }
    }

    /// On the event whose case carries a `Payload`, do what `reaction` says.
    ///
    /// - Parameters:
    ///   - payload: The type the event's case carries.
    ///   - reaction: What to do, or `nil` to refuse the event.
    @inlinable
    public init<Payload>(_ payload: Payload.Type, reaction: @escaping (View, Payload) -> Reaction<S, Effect>?) {
        self.init(event: ClauseSide(carrying: payload), effects: [], reaction: reaction)
    }
}

// MARK: - Modifiers

extension On {
    /// Takes the clause only when `condition` holds, given the current state
    /// and the event; otherwise the clause refuses, and a later one may answer.
    ///
    /// ```swift
    /// On(.resolve, transitionTo: .resolved).guard { ticket, _ in ticket.hasAssignee }
    /// ```
    ///
    /// Several guards must all hold. A guarded clause that became a route
    /// refuses requests by state (``Machine/tryState(_:userInfo:)``), which
    /// have no event to give it.
    ///
    /// - Parameter condition: Whether the clause may be taken.
    /// - Returns: The guarded clause.
    @inlinable
    public func `guard`(_ condition: @escaping (View, E) -> Bool) -> On {
        var copy = self
        let projected: (S, E) -> Bool = projecting(condition, refused: false)
        copy.draft.condition = both(draft.condition, projected)
        return copy
    }

    /// Takes the clause only when `condition` holds.
    ///
    /// - Parameter condition: Whether the clause may be taken.
    /// - Returns: The guarded clause.
    @inlinable
    public func `guard`(_ condition: @escaping () -> Bool) -> On {
        var copy = self
        copy.draft.condition = both(draft.condition) { _, _ in condition() }
        return copy
    }

    /// Turns the clause off while `disabled` returns `true`, as Feedbacks'
    /// `.disable { … }` does: it is asked on every request the clause could answer.
    ///
    /// - Parameter disabled: Whether the clause is off now.
    /// - Returns: The clause, with its switch.
    @inlinable
    public func disable(_ disabled: @escaping () -> Bool) -> On {
        var copy = self
        copy.draft.condition = both(draft.condition) { _, _ in !disabled() }
        return copy
    }
}

extension ClauseSide where Value: EventType {
    /// The side an ``Event`` names: `.any`, or one event.
    @inlinable
    init(_ event: Event<Value>) {
        switch event {
        case .some(let value): self = .value(value)
        case .any: self = .any
        }
    }
}

extension ClauseSide {
    /// The side of the values whose case carries a `Payload`; the enum's own
    /// type stands for every value.
    @inlinable
    init<Payload>(carrying payload: Payload.Type) {
        self = Payload.self == Value.self ? .any : .pattern(.carrying(payload))
    }
}
